import Foundation
import Testing

@testable import DamaskGraphics

/// Han text takes its fonts from the user's locale when that locale writes Han (as Pango
/// does), and from fontconfig's order otherwise.
@Suite("Han language from the locale", .timeLimit(.minutes(5)))
struct HanLanguageTests {
    @Test(
        "a Chinese, Japanese or Korean locale names the language Han is shaped in",
        arguments: [
            ("zh_TW.UTF-8", "zh-tw"), ("zh_CN.utf8", "zh-cn"), ("ja_JP.UTF-8", "ja-jp"), ("ko_KR", "ko-kr"),
            ("zh", "zh"), ("zh_HK.UTF-8@stroke", "zh-hk"),
        ])
    func chineseJapaneseAndKoreanLocalesNameHan(locale: String, language: String) {
        #expect(TextShaper.hanLanguage(forLocale: locale) == language)
    }

    @Test("any other locale, or none, leaves Han to fontconfig's order", arguments: ["en_US.UTF-8", "C", "POSIX", "", "zu_ZA", "kok_IN"])
    func otherLocalesLeaveHanAlone(locale: String) {
        #expect(TextShaper.hanLanguage(forLocale: locale) == nil)
    }
}

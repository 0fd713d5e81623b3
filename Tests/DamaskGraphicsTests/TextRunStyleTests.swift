import CHarfBuzz
import Foundation
import Testing

@testable import DamaskGraphics

/// ``TextRunStyle``: a run (an input method's preedit) shaped in its own language and laid
/// out in its own direction inside a line, as ``TextLayout``'s styled run.
@Suite("Styled runs: a preedit's language and direction", .timeLimit(.minutes(5)))
struct TextRunStyleTests {
    /// The x extent of the clusters in `range` (one visually contiguous piece).
    static func extent(_ layout: TextLayout, _ range: Range<Int>) throws -> ClosedRange<CGFloat> {
        let pieces = layout.selectionRanges(for: range, visible: -1e9...1e9)
        try #require(pieces.count == 1, "\(range): \(pieces)")
        return pieces[0]
    }

    @Test("a right-to-left run lays its words out right to left, between the left-to-right text around it")
    func rightToLeftRunInLeftToRightLine() throws {
        let font = try Font(size: 16)
        let text = "ab cd אב gh"  // the run: "cd אב", clusters 3..<8
        let run = TextLayout.StyledRun(utf8Range: 3..<(3 + "cd אב".utf8.count), style: TextRunStyle(direction: .rightToLeft))
        let plain = TextLayout(text, font: font)
        let styled = TextLayout(text, font: font, styledRun: run)
        #expect(!styled.isRightToLeft)
        // Without a style (a left-to-right line), "cd" is left of "אב"; in the right-to-left
        // run, right of it.
        #expect(try Self.extent(plain, 3..<5).upperBound <= Self.extent(plain, 6..<8).lowerBound)
        #expect(try Self.extent(styled, 6..<8).upperBound <= Self.extent(styled, 3..<5).lowerBound)
        // The run stays between "ab " and " gh", and the line keeps its width.
        let runExtent = try Self.extent(styled, 3..<8)
        #expect(try Self.extent(styled, 0..<3).upperBound <= runExtent.lowerBound + 0.01)
        #expect(try runExtent.upperBound <= Self.extent(styled, 8..<11).lowerBound + 0.01)
        #expect(abs(styled.width - plain.width) < 1)
    }

    @Test("automatic direction follows the run's first strong character")
    func automaticFollowsTheRun() throws {
        let font = try Font(size: 16)
        // "xy " then the run "אב cd" (Hebrew first: right to left), then " z".
        let hebrewFirst = "xy אב cd z"
        let run = TextLayout.StyledRun(utf8Range: 3..<(3 + "אב cd".utf8.count), style: TextRunStyle(direction: .automatic))
        let layout = TextLayout(hebrewFirst, font: font, styledRun: run)
        #expect(try Self.extent(layout, 6..<8).upperBound <= Self.extent(layout, 3..<5).lowerBound)  // cd left of אב
        // Latin first: left to right inside the run.
        let latinFirst = "xy cd אב z"
        let layout2 = TextLayout(
            latinFirst, font: font,
            styledRun: .init(utf8Range: 3..<(3 + "cd אב".utf8.count), style: TextRunStyle(direction: .automatic)))
        #expect(try Self.extent(layout2, 3..<5).upperBound <= Self.extent(layout2, 6..<8).lowerBound)  // cd left of אב
    }

    @Test("a Han run takes the fonts of its language: Korean, Simplified Chinese")
    func hanTakesTheLanguagesFont() throws {
        let font = try Font(size: 16)
        let korean = font.faceNames(for: "漢字", style: TextRunStyle(language: "ko"))
        let chinese = font.faceNames(for: "漢字", style: TextRunStyle(language: "zh-CN"))
        #expect(korean.first?.hasPrefix("Nanum") == true, "\(korean)")
        #expect(chinese.first?.hasPrefix("WenQuanYi") == true, "\(chinese)")
        // Latin keeps the font's own face whatever the language.
        #expect(font.faceNames(for: "abc", style: TextRunStyle(language: "ko")) == font.faceNames(for: "abc"))
    }

    @Test("a Han preedit in a line is drawn with its language's glyphs")
    func hanRunDrawsInItsLanguage() throws {
        let font = try Font(size: 24)
        func render(_ language: String?) throws -> Bitmap {
            let text = "ab 漢字 cd"
            let run = language.map { TextLayout.StyledRun(utf8Range: 3..<9, style: TextRunStyle(language: $0)) }
            let layout = TextLayout(text, font: font, styledRun: run)
            let bitmap = try Bitmap(width: 200, height: 40)
            let context = GraphicsContext(bitmap: bitmap)
            context.setFillColor(.white)
            context.fill(CGRect(x: 0, y: 0, width: 200, height: 40))
            layout.draw(in: context, at: CGPoint(x: 4, y: 30), visible: -1e9...1e9, color: .black)
            return bitmap
        }
        let korean = try render("ko"), chinese = try render("zh-CN")
        let differing = (0..<40).reduce(0) { sum, y in
            sum + (0..<200).count { x in korean.pixel(x: x, y: y) != chinese.pixel(x: x, y: y) }
        }
        #expect(differing > 20, "the two languages' Han glyphs should differ: \(differing) pixels")
    }

    @Test("preedit updates lay out only what they touch and end where a fresh layout does")
    func incrementalMatchesFresh() throws {
        let font = try Font(size: 16)
        var editor = EditableText(String(repeating: "the quick brown fox jumps over the lazy dog ", count: 4))
        editor.moveCaret(to: 90)
        var layout = TextLayout(editor, font: font)
        let style = TextRunStyle(language: "ja", direction: .rightToLeft)
        let updates = [
            InputMethodUpdate(preedit: "ab", preeditCursor: 2..<2), InputMethodUpdate(preedit: "abc def", preeditCursor: 7..<7),
            InputMethodUpdate(preedit: "漢字 xyz", preeditCursor: 0..<0), InputMethodUpdate(commit: "done "),
            InputMethodUpdate(preedit: "q", preeditCursor: 1..<1), InputMethodUpdate(),
        ]
        for update in updates {
            editor.apply(update)
            let run = editor.markedUTF8Range.map { TextLayout.StyledRun(utf8Range: $0, style: style) }
            layout.update(for: editor, styledRun: run)
            let fresh = TextLayout(editor, font: font, styledRun: run)
            #expect(layout.chunkCount == fresh.chunkCount)
            #expect(layout.styledRun == run)
            var worst: CGFloat = 0
            for position in 0...editor.count {
                worst = max(worst, abs(layout.caretOffset(at: position) - fresh.caretOffset(at: position)))
            }
            #expect(worst < 0.01, "after \(update): caret offsets differ by up to \(worst)")
        }
        #expect(editor.markedRange == nil && layout.styledRun == nil)
    }

    @Test("a style change with the same text lays the run out again")
    func styleChangeWithoutEdit() throws {
        let font = try Font(size: 16)
        var editor = EditableText("xx")
        editor.apply(InputMethodUpdate(preedit: "ab אב", preeditCursor: 0..<0))
        let bytes = try #require(editor.markedUTF8Range)
        #expect(bytes == 2..<9)
        var layout = TextLayout(editor, font: font, styledRun: .init(utf8Range: bytes, style: TextRunStyle(direction: .leftToRight)))
        #expect(try Self.extent(layout, 2..<4).upperBound <= Self.extent(layout, 5..<7).lowerBound)
        layout.update(for: editor, styledRun: .init(utf8Range: bytes, style: TextRunStyle(direction: .rightToLeft)))
        #expect(try Self.extent(layout, 5..<7).upperBound <= Self.extent(layout, 2..<4).lowerBound)
    }

    @Test(
        "input method language tags become fontconfig languages",
        arguments: [
            ("ko", "ko"), ("ja-JP", "ja-jp"), ("zh_TW", "zh-tw"), ("zh-Hans", "zh-cn"), ("zh-Hant", "zh-tw"),
            ("zh-Hant-HK", "zh-hk"), ("zh", "zh"), ("", nil), ("ko; rm -rf", nil), (String(repeating: "a", count: 40), nil),
        ] as [(String, String?)])
    func fontconfigLanguages(tag: String, expected: String?) {
        #expect(TextShaper.fontconfigLanguage(tag) == expected)
    }

    @Test("a run's language chooses fonts only for the scripts it writes")
    func languageOnlyForItsScripts() {
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_HAN, in: "ja") == "ja")
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_HAN, in: "zh-Hant") == "zh-tw")
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_HANGUL, in: "ja") == "ko")  // the script's own
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_LATIN, in: "ko") == nil)
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_ARABIC, in: "fa") == "fa")
        #expect(TextShaper.fontLanguage(for: HB_SCRIPT_HAN, in: nil) == TextShaper.localeHanLanguage)
    }
}

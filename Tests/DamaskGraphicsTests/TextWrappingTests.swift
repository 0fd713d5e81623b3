import DamaskGraphics
import Foundation
import Testing

/// Wrapping at line-break opportunities and truncation, by shaped width.
@Suite("Wrapping and truncation", .timeLimit(.minutes(5)))
struct TextWrappingTests {
    @Test("Chinese wraps between characters, never before closing punctuation, within the width")
    func chineseWrapsBetweenCharacters() throws {
        let font = try Font(size: 16)
        let text = "如果你不需要寄宿圖，那就不要創建這個方法了，這會造成CPU資源和內存的浪費。"
        let width: CGFloat = 150
        let lines = font.wrap(text, toWidth: width)
        #expect(lines.count >= 3, "\(lines)")
        #expect(lines.joined() == text)
        for line in lines {
            #expect(font.measure(line).width <= width, "\(line)")
            #expect(!(line.first.map { "，。".contains($0) } ?? false), "\(line)")
        }
        // Lines are filled: the next line's first character would not have fitted.
        for (line, next) in zip(lines, lines.dropFirst()) {
            let first = try #require(next.first)
            let secondIsPunctuation = "，。".contains(next.dropFirst().first ?? " ")
            let firstIsHan = (first.unicodeScalars.first?.value ?? 0) >= 0x3000
            if firstIsHan, !secondIsPunctuation {
                #expect(font.measure(line + String(first)).width > width, "\(line) | \(next)")
            }
        }
    }

    @Test("Korean, Indonesian and Bengali wrap only at spaces")
    func spaceSeparatedScriptsWrapAtSpaces() throws {
        let font = try Font(size: 16)
        for text in [
            "항목 목록이있는 UITableView가 있습니다. 항목을 선택하면 viewController가 푸시되고 다음을 수행합니다.",
            "Di dalam metode ini, pengembang mendapatkan akses ke konteks grafis CGContext",
            "মেথডটি কোনো প্যারামিটার নেয় না এবং void রিটার্ন করে।",
        ] {
            let lines = font.wrap(text, toWidth: 200)
            #expect(lines.count >= 2)
            #expect(lines.joined(separator: " ") == text, "\(lines)")
            for line in lines { #expect(font.measure(line).width <= 200, "\(line)") }
        }
    }

    @Test("explicit newlines always break; a word wider than the line is split between clusters")
    func newlinesAndLongWords() throws {
        let font = try Font(size: 16)
        #expect(font.wrap("a\nb", toWidth: 500) == ["a", "b"])
        let word = String(repeating: "অ্যাপ্লিকেশনে", count: 4)
        let lines = font.wrap(word, toWidth: 60)
        #expect(lines.count >= 2 && lines.joined() == word)
        for line in lines where line.count > 1 { #expect(font.measure(line).width <= 60) }
    }

    @Test("truncation drops whole clusters, adds an ellipsis and fits the shaped width")
    func truncation() throws {
        let font = try Font(size: 16)
        for text in ["UIView를 강제로 다시 그리는 가장 강력한 방법은 무엇입니까?", "setNeedsDisplay() একটি UIView মেথড যা সিস্টেমকে সংকেত দেয়", "مرحبا بالعالم من دمشق"] {
            let short = font.truncate(text, toWidth: 120)
            #expect(short.hasSuffix("…"))
            #expect(font.measure(short).width <= 120)
            #expect(text.hasPrefix(String(short.dropLast())), "\(short)")
            #expect(Array(text.prefix(short.count - 1)) == Array(short.dropLast()))
        }
        #expect(font.truncate("short", toWidth: 500) == "short")
        #expect(font.truncate("anything", toWidth: 1) == "")
    }

    @Test("every kind of line break splits lines: CR LF, CR, LINE and PARAGRAPH SEPARATOR, NEL")
    func everyLineBreakSplits() throws {
        let font = try Font(size: 16)
        let text = "one\r\ntwo\rthree\u{2028}four\u{2029}five\u{0085}six\nseven"
        #expect(font.wrap(text, toWidth: 500) == ["one", "two", "three", "four", "five", "six", "seven"])
        #expect(font.wrap("a\r\n\r\nb", toWidth: 500) == ["a", "", "b"])
    }

    @Test("a no-break space, narrow no-break space or word joiner never breaks; a zero width space does")
    func noBreakSpacesGlue() throws {
        let font = try Font(size: 16)
        let glued = ["100\u{00A0}km", "50\u{202F}%", "中\u{2060}文"]
        let text = glued.joined(separator: " ") + " end"
        let widest = glued.map { font.measure($0).width }.max() ?? 0
        for width in stride(from: widest.rounded(.up), through: 300, by: 5) {
            let lines = font.wrap(text, toWidth: width)
            #expect(lines.joined(separator: " ") == text, "\(width): \(lines)")
            for line in lines {
                for piece in glued { #expect(line.contains(piece) || !line.contains(piece.prefix(1)), "\(width): \(lines)") }
            }
        }
        let spaced = "Damask\u{200B}Graphics\u{200B}Text"
        let lines = font.wrap(spaced, toWidth: font.measure("Damask\u{200B}Graphics").width + 1)
        #expect(lines.count == 2 && lines.joined() == spaced, "\(lines)")
    }

    @Test("Latin punctuation and small kana after CJK never start a line; opening brackets never end one")
    func cjkKeepsPunctuationAttached() throws {
        let font = try Font(size: 16)
        let text = "中文中文.日本語!カタカナっ,漢字)文字…中文(注)中文“引用”中文"
        let closing = Set(".!,)…”っ")
        let opening = Set("(“")
        for width in stride(from: CGFloat(40), through: 240, by: 7) {
            let lines = font.wrap(text, toWidth: width)
            #expect(lines.joined() == text, "\(width): \(lines)")
            for line in lines {
                #expect(!(line.first.map { closing.contains($0) } ?? false), "\(width): \(lines)")
                #expect(!(line.last.map { opening.contains($0) } ?? false), "\(width): \(lines)")
                #expect(font.measure(line).width <= width, "\(width): \(lines)")
            }
        }
    }
}

import Foundation
import Testing

@testable import DamaskGraphics

/// A line shaped again only from near its edit (HarfBuzz's unsafe-to-concat recipe) is the
/// line shaping it whole gives, glyph for glyph, position for position.
@Suite("Reshaping a line from near its edit", .timeLimit(.minutes(5)))
struct TextShaperReshapingTests {
    private let library = FreeTypeLibrary.shared

    private func shape(_ text: String, font: Font, reusing previous: TextLine? = nil) -> TextLine {
        library.withLock { TextShaper.shape(text, font: font, library: library, reusing: previous) }
    }

    /// Whether shaping `text` reusing `previous` took the reshaping path.
    private func isReshaped(_ text: String, font: Font, reusing previous: TextLine) -> Bool {
        let (scalars, clusterStarts) = TextShaper.codePoints(of: text)
        return library.withLock {
            TextShaper.reshape(
                scalars: scalars, clusterStarts: clusterStarts, style: nil, font: font, library: library, reusing: previous)
        } != nil
    }

    /// How two lines differ, one description per difference (none: the same line).
    private func differences(_ a: TextLine, _ b: TextLine) -> [String] {
        var result: [String] = []
        if a.width != b.width { result.append("width \(a.width) vs \(b.width)") }
        if (a.ascent, a.descent, a.lineHeight) != (b.ascent, b.descent, b.lineHeight) { result.append("metrics") }
        if a.isRightToLeft != b.isRightToLeft || a.missingCount != b.missingCount { result.append("direction or missing") }
        if a.clusters != b.clusters { result.append("cluster edges \(a.clusters) vs \(b.clusters)") }
        if a.runs.count != b.runs.count { return result + ["\(a.runs.count) runs vs \(b.runs.count)"] }
        for (x, y) in zip(a.runs, b.runs) {
            if x.face !== y.face || x.isRightToLeft != y.isRightToLeft { result.append("run face or direction") }
            let left = x.glyphs.map { "\($0.index)@\($0.x),\($0.y)\($0.isPlaceholder ? "□" : "")" }
            let right = y.glyphs.map { "\($0.index)@\($0.x),\($0.y)\($0.isPlaceholder ? "□" : "")" }
            if left != right { result.append("glyphs \(left) vs \(right)") }
        }
        return result
    }

    static let texts = [
        "AVATAR Wave To Yoyo: office ffi, fluffy Tj LT",
        "Съешь же ещё этих мягких французских булок",
        "한국어를 입력합니다 가나다",
        "汉字输入法测试，中文。",
        "বাংলা লিপিতে লেখা ক্ষ",
        "e\u{301}te\u{301} cafe\u{301} n\u{303}o",
        "go 👍🏽 ok 🇫🇷 fin",
        "Tab\there and a\u{7}bell",
        "abc שלום def",
    ]

    @Test("typing a line key by key, deleting it from the end, and inserting inside it: each line shaped from the one before equals the line shaped whole", arguments: texts)
    func reshapingMatchesWholeShaping(text: String) throws {
        let font = try Font(size: 16)
        let characters = Array(text)
        var previous = shape(String(characters[0]), font: font)
        for count in 2...characters.count {
            let new = String(characters[..<count])
            let reused = shape(new, font: font, reusing: previous)
            #expect(differences(shape(new, font: font), reused).isEmpty, "typing \"\(new)\"")
            previous = reused
        }
        for count in (1..<characters.count).reversed() {
            let new = String(characters[..<count])
            let reused = shape(new, font: font, reusing: previous)
            #expect(differences(shape(new, font: font), reused).isEmpty, "deleting to \"\(new)\"")
            previous = reused
        }
        let whole = shape(text, font: font)
        for index in stride(from: 1, to: characters.count, by: 3) {
            let new = String(characters[..<index]) + "x" + String(characters[index...])
            #expect(differences(shape(new, font: font), shape(new, font: font, reusing: whole)).isEmpty, "inserting into \"\(new)\"")
        }
    }

    @Test("a line shaped from an earlier version is a revision, whether reshaped from near the edit (Latin) or whole (Hebrew); a line shaped on its own is not")
    func reshapedLinesAreRevisions() throws {
        let font = try Font(size: 16)
        for (before, after) in [("typed", "typed!"), ("שלו", "שלום")] {
            let previous = shape(before, font: font)
            #expect(!previous.isRevision, "\(before)")
            #expect(shape(after, font: font, reusing: previous).isRevision, "\(after)")
        }
    }

    @Test("typing Latin and Cyrillic at the end of a line reshapes from near the end, not the whole line; right-to-left text and Hangul (HarfBuzz marks every syllable unsafe to cut before) are shaped whole")
    func typingAtTheEndReshapes() throws {
        let font = try Font(size: 16)
        for text in [Self.texts[0], Self.texts[1]] {
            let characters = Array(text)
            var reshaped = 0
            for count in 2...characters.count {
                let old = shape(String(characters[..<(count - 1)]), font: font)
                if isReshaped(String(characters[..<count]), font: font, reusing: old) { reshaped += 1 }
            }
            // Some keys may follow a kerning pair or a ligature: most must not.
            #expect(reshaped * 2 > characters.count, "\(reshaped) of \(characters.count - 1) keys reshaped in \"\(text)\"")
        }
        let hebrew = shape("abc של", font: font)
        #expect(!isReshaped("abc שלו", font: font, reusing: hebrew))
        let korean = shape("한국어를 입력", font: font)
        #expect(!isReshaped("한국어를 입력합", font: font, reusing: korean))
    }

    @Test("a reshaped line is finished from the line before: its glyphs and cluster edges before the restart are copied, the rest placed, and the whole equals the line shaped whole", arguments: [
        ("office fluffy", " Tj"), ("plain words", "!"), ("a\u{7}bell", " rings"), ("cafe\u{301}", "s"),
    ])
    func reshapedLineIsFinishedFromTheLineBefore(start: String, typed: String) throws {
        let font = try Font(size: 16)
        let before = shape(start, font: font)
        let item = try #require(before.shapedItem)
        let text = start + typed
        let (scalars, clusterStarts) = TextShaper.codePoints(of: text)
        // Restart at every cluster of the old line whose first glyph HarfBuzz allows it.
        var restarts = 0
        for kept in 1..<item.glyphs.count {
            let glyph = item.glyphs[kept], cluster = Int(glyph.cluster)
            guard !glyph.isUnsafeToConcatenate, item.glyphs[kept - 1].cluster != glyph.cluster,
                clusterStarts.contains(cluster)
            else { continue }
            let line = try library.withLock { () -> TextLine? in
                let buffer = try #require(library.shapingBuffer)
                let tail = TextShaper.harfBuzzShape(
                    scalars, range: cluster..<scalars.count, buffer: buffer, face: item.face, script: item.script,
                    isRightToLeft: false, language: nil)
                let attributes = TextShaper.RunAttributes(level: 0, face: item.face, script: item.script)
                return TextShaper.finishLine(
                    after: before, shaped: item, keeping: kept, of: Array(item.glyphs[..<kept]) + tail, restart: cluster,
                    clusterStarts: clusterStarts, scalarCount: scalars.count, font: font,
                    item: TextShaper.Item(start: 0, end: scalars.count, attributes: attributes))
            }
            let finished = try #require(line, "restarting \"\(text)\" at scalar \(cluster)")
            #expect(differences(shape(text, font: font), finished).isEmpty, "restarting \"\(text)\" at scalar \(cluster)")
            restarts += 1
        }
        #expect(restarts > 0, "no place to restart \"\(text)\" at")
    }
}

import Testing

@testable import DamaskGraphics

/// `String.clusterHead(startingAt:)` walks a string in the same grapheme clusters as the
/// standard library, its ASCII shortcut included, and heads each with its first scalar and
/// whether it is exactly a space; `TextShaper.codePoints` cuts clusters the same way.
@Suite("Walking grapheme clusters with the ASCII shortcut", .timeLimit(.minutes(5)))
struct StringClustersTests {
    /// What a cluster is reduced to: its UTF-8 offset, first scalar and whether it is " ".
    private struct Head: Equatable {
        var offset: Int
        var scalar: Unicode.Scalar
        var isSpace: Bool
    }

    /// The heads `clusterHead(startingAt:)` walks.
    private func walked(_ text: String) -> [Head] {
        var result: [Head] = []
        var index = text.startIndex
        while index < text.endIndex {
            let (head, next) = text.clusterHead(startingAt: index)
            result.append(Head(offset: text.utf8.distance(from: text.startIndex, to: index), scalar: head.scalar, isSpace: head.isSpace))
            #expect(next > index)
            index = next
        }
        #expect(index == text.endIndex)
        return result
    }

    /// The standard library's clusters, reduced the same way.
    private func expected(_ text: String) -> [Head] {
        text.indices.map {
            Head(offset: text.utf8.distance(from: text.startIndex, to: $0), scalar: text[$0].unicodeScalars.first!, isSpace: text[$0] == " ")
        }
    }

    private func walksLikeTheStandardLibrary(_ text: String) -> Bool {
        let clusterStarts = text.indices.map { text.unicodeScalars.distance(from: text.startIndex, to: $0) }
        return walked(text) == expected(text) && TextShaper.codePoints(of: text).clusterStarts == clusterStarts
    }

    @Test(
        "the ASCII pairs that join (CR LF) and the ASCII scalars a mark or joiner extends stay one cluster",
        arguments: [
            "", "a", "abc def", "a\r\nb", "\r\n", "\n\r", "\r\r\n\n", "tab\there", "e\u{301}", "ae\u{301}",
            "a\u{200D}b", "1\u{FE0F}\u{20E3}x", "👩‍💻a", "🇫🇷🇩🇪", "x\u{0308}\u{0301}y", "한국어 text",
            "\u{1100}\u{1161}\u{11A8}a", "abc שלום def", "ok\u{0915}\u{094D}\u{0937}", "a\u{0600}b",
            "\u{7F}\u{80}a", "z\r", " \u{301}x", "a \u{20DD}", "  ",
        ])
    func walksTrickyStrings(_ text: String) {
        #expect(walksLikeTheStandardLibrary(text), "\(Array(text.unicodeScalars))")
    }

    @Test("random strings of ASCII, marks, joiners, CR, LF, Hangul jamo, emoji and flags walk as the standard library does")
    func walksRandomStrings() {
        let pieces: [String] = [
            "a", "Z", " ", "\r", "\n", "\t", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{1100}", "\u{1161}", "\u{11A8}",
            "👩", "💻", "🇫", "🇷", "\u{0915}", "\u{094D}", "\u{0600}", "ש", "7", "\u{7F}",
        ]
        var random = SplitMix(seed: 0xC1_05_7E_25)
        for _ in 0..<2_000 {
            let length = Int(random.next() % 12)
            let text = (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(walksLikeTheStandardLibrary(text), "\(Array(text.unicodeScalars))")
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

/// What a text field tells an input method about the text around its caret
/// (``EditableText/surroundingText(limit:)``): UTF-8 byte offsets, no preedit, bounded.
@Suite("Surrounding text for input methods", .timeLimit(.minutes(5)))
struct SurroundingTextTests {
    @Test("the caret and the selection's anchor are UTF-8 bytes of the text")
    func byteOffsets() {
        var field = EditableText("한글 ok", caret: 2)
        #expect(field.surroundingText() == SurroundingText(text: "한글 ok", cursor: 6, anchor: 6))
        field.moveCaret(to: 0, extending: true)
        #expect(field.surroundingText() == SurroundingText(text: "한글 ok", cursor: 0, anchor: 6))
        field.moveCaret(to: 5)
        field.moveCaret(to: 3, extending: true)
        #expect(field.surroundingText() == SurroundingText(text: "한글 ok", cursor: 7, anchor: 9))
    }

    @Test("a preedit is left out: the caret stands where it begins")
    func withoutPreedit() {
        var field = EditableText("ab", caret: 1)
        field.apply(InputMethodUpdate(preedit: "하", preeditCursor: 3..<3))
        #expect(field.text == "a하b")
        #expect(field.surroundingText() == SurroundingText(text: "ab", cursor: 1, anchor: 1))
    }

    @Test("a long text is cut around the caret at cluster boundaries, within the limit")
    func bounded() {
        let text = String(repeating: "가", count: 50_000)  // 150,000 bytes
        let field = EditableText(text, caret: 25_000)
        let surrounding = field.surroundingText()
        #expect(surrounding.text.utf8.count <= SurroundingText.defaultLimit)
        #expect(surrounding.text.utf8.count >= SurroundingText.defaultLimit - 6, "uses the room it has")
        #expect(surrounding.text.allSatisfy { $0 == "가" }, "whole clusters only")
        #expect(surrounding.cursor == surrounding.anchor)
        #expect(surrounding.cursor % 3 == 0 && abs(surrounding.cursor - SurroundingText.defaultLimit / 2) <= 3, "the caret sits in the middle")
        let most = field.surroundingText(limit: SurroundingText.maximumBytes)
        #expect(most.text.utf8.count <= SurroundingText.maximumBytes && most.text.utf8.count >= SurroundingText.maximumBytes - 6)
        // At the end of the text, all the room goes before the caret.
        let atEnd = EditableText(text).surroundingText(limit: 10)
        #expect(atEnd == SurroundingText(text: "가가가", cursor: 9, anchor: 9))
    }

    @Test("a cut never splits a cluster of several scalars (e + combining acute)")
    func clustersKeptWhole() {
        let text = String(repeating: "e\u{301}", count: 3_000)  // 9,000 bytes, 3 per cluster
        for caret in [0, 1_000, 1_501, 3_000] {
            let surrounding = EditableText(text, caret: caret).surroundingText(limit: 1_000)
            #expect(surrounding.text.unicodeScalars.first == "e" && surrounding.text.unicodeScalars.last == "\u{301}")
            #expect(surrounding.text.utf8.count % 3 == 0 && surrounding.text.utf8.count >= 996 && surrounding.text.utf8.count <= 1_000)
            #expect(surrounding.cursor % 3 == 0)
        }
    }

    @Test("a selection longer than the limit is reported as the caret alone")
    func longSelection() {
        var field = EditableText(String(repeating: "a", count: 100), caret: 10)
        field.moveCaret(to: 90, extending: true)
        let surrounding = field.surroundingText(limit: 20)
        #expect(surrounding.cursor == surrounding.anchor)
        #expect(surrounding.text == String(repeating: "a", count: 20))
        #expect(surrounding.cursor == 10)
    }

    @Test("a text within the limit is reported whole, from either side of a selection, at its exact size too")
    func wholeTextWithinTheLimit() {
        let text = "é한 e\u{301}x🇫🇷"  // clusters of 2, 3, 1, 3, 1 and 8 bytes
        let bytes = text.utf8.count
        let clusterBytes = text.map { $0.utf8.count }
        func offset(_ character: Int) -> Int { clusterBytes.prefix(character).reduce(0, +) }
        for caret in 0...text.count {
            for anchor in 0...text.count {
                var field = EditableText(text, caret: anchor)
                field.moveCaret(to: caret, extending: true)
                let expected = SurroundingText(text: text, cursor: offset(caret), anchor: offset(anchor))
                #expect(field.surroundingText() == expected, "caret \(caret), anchor \(anchor)")
                #expect(field.surroundingText(limit: bytes) == expected, "the limit exactly the text's size")
            }
        }
        // One byte less and the text is cut at a cluster boundary: "é" goes, the caret
        // before the flag stays 8 bytes from the new start.
        let cut = EditableText(text, caret: text.count - 1).surroundingText(limit: bytes - 1)
        #expect(cut == SurroundingText(text: String(text.dropFirst()), cursor: bytes - 10, anchor: bytes - 10))
    }
}

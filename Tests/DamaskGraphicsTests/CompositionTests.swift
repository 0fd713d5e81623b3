import DamaskGraphics
import Foundation
import Testing

/// An input method's preedit, commits and deletions applied to an ``EditableText``.
@Suite("Input method composition", .timeLimit(.minutes(5)))
struct CompositionTests {
    @Test("a preedit is marked text at the caret with its own cursor; a commit replaces it and is one undo step")
    func preeditThenCommit() {
        var field = EditableText("ab", caret: 1)
        field.apply(InputMethodUpdate(preedit: "ㅎ", preeditCursor: 3..<3))
        #expect(field.text == "aㅎb" && field.markedRange == 1..<2 && field.caret == 2 && !field.isCaretHidden)
        #expect(field.unmarkedText == "ab")
        field.apply(InputMethodUpdate(preedit: "하", preeditCursor: 0..<0))
        #expect(field.text == "a하b" && field.markedRange == 1..<2 && field.caret == 1)
        field.apply(InputMethodUpdate(preedit: "한", preeditCursor: nil))
        #expect(field.isCaretHidden)
        field.apply(InputMethodUpdate(commit: "한"))
        #expect(field.text == "a한b" && field.markedRange == nil && field.caret == 2 && !field.isCaretHidden)
        field.apply(InputMethodUpdate(commit: "국", deleteBefore: 0))
        field.undo()
        #expect(field.text == "ab" && field.caret == 1, "the commits joined one step; the preedits none")
        let undoneAll = !field.canUndo
        #expect(undoneAll)
    }

    @Test("delete before and after counts bytes around the caret, widened to clusters and clamped to the text")
    func deleteSurrounding() {
        var field = EditableText("가나다", caret: 2)
        field.apply(InputMethodUpdate(deleteBefore: 3, deleteAfter: 0))
        #expect(field.text == "가다" && field.caret == 1)
        field.apply(InputMethodUpdate(deleteBefore: 1, deleteAfter: 1))  // one byte each way: whole syllables
        #expect(field.text == "" && field.caret == 0)
        var short = EditableText("ab", caret: 1)
        short.apply(InputMethodUpdate(deleteBefore: 1000, deleteAfter: 1000))  // beyond the text
        #expect(short.text == "" && short.caret == 0)
        // Delete, commit and preedit in one update, in the protocol's order.
        var combined = EditableText("xyz", caret: 3)
        combined.apply(InputMethodUpdate(preedit: "ㄱ", preeditCursor: 3..<3, commit: "Z", deleteBefore: 1))
        #expect(combined.text == "xyZㄱ" && combined.markedRange == 3..<4 && combined.unmarkedText == "xyZ")
    }

    @Test("any edit, move, undo or blur removes the preedit first; the undo history never holds it")
    func editsEndComposition() throws {
        let font = try Font(size: 16)
        var field = EditableText("hello")
        field.type("!")
        field.apply(InputMethodUpdate(preedit: "nǐ", preeditCursor: 3..<3))
        field.moveLeft(in: font)
        #expect(field.text == "hello!" && field.markedRange == nil && field.caret == 5)
        field.apply(InputMethodUpdate(preedit: "ni", preeditCursor: 2..<2))
        field.undo()
        #expect(field.text == "hello" && field.markedRange == nil)
        field.apply(InputMethodUpdate(preedit: "zz"))
        field.unmarkText()
        #expect(field.text == "hello" && field.caret == 5)
    }

    @Test("a preedit much longer than a field is laid out whole; a cursor byte inside a scalar is clamped")
    func hostilePreedits() throws {
        let long = String(repeating: "한국어 ", count: 400)
        var field = EditableText("x")
        field.apply(InputMethodUpdate(preedit: long, preeditCursor: 1..<1))  // inside the first syllable's bytes
        #expect(field.markedRange == 1..<(1 + long.count))
        #expect(field.caret >= 1 && field.caret <= 1 + long.count)
        let layout = TextLayout(field, font: try Font(size: 16))
        #expect(layout.count == field.count && layout.width > 10_000)
        field.apply(InputMethodUpdate())
        #expect(field.text == "x" && field.markedRange == nil)
    }

    @Test("text an input method sends is decoded leniently: invalid UTF-8 becomes U+FFFD, control characters go")
    func decoding() {
        #expect(InputMethodUpdate.decode([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
        #expect(InputMethodUpdate.decode([0xED, 0x95, 0x9C]) == "한")
        #expect(InputMethodUpdate.decode([0x61, 0x0A, 0x00, 0x1B, 0x62]) == "ab")
        #expect(InputMethodUpdate.decode([0xED, 0x95]) == "\u{FFFD}")
    }

    @Test("preedit styles become cluster runs of the marked text: bytes widened to clusters, a later run wins, unstyled clusters default")
    func preeditStyles() {
        var field = EditableText("x", caret: 1)
        // 가나다: three 3-byte clusters. Byte 4 falls inside 나: the run is widened to it.
        field.apply(
            InputMethodUpdate(
                preedit: "가나다", preeditCursor: 9..<9,
                preeditStyles: [
                    PreeditStyleRun(range: 0..<3, style: .selection), PreeditStyleRun(range: 4..<5, style: .active),
                    PreeditStyleRun(range: 0..<1, style: .incorrect), PreeditStyleRun(range: 50..<60, style: .none),
                ]))
        #expect(field.markedRange == 1..<4)
        #expect(field.markedStyles.map(\.range) == [1..<2, 2..<3, 1..<2], "the run past the preedit is dropped")
        #expect(field.preeditStyle(at: 0) == nil)
        #expect(field.preeditStyle(at: 1) == .incorrect, "the later run wins")
        #expect(field.preeditStyle(at: 2) == .active)
        #expect(field.preeditStyle(at: 3) == .default)
        #expect(field.preeditStyle(at: 4) == nil)
        field.apply(InputMethodUpdate(commit: "가"))
        #expect(field.markedStyles.isEmpty && field.preeditStyle(at: 1) == nil)
    }

    @Test("a preedit cursor range (v3 cursor_begin < cursor_end) is highlighted, the caret at its start; a collapsed one is not")
    func preeditCursorRange() {
        var field = EditableText("", caret: 0)
        field.apply(InputMethodUpdate(preedit: "nihao", preeditCursor: 2..<5))
        #expect(field.caret == 2 && !field.isCaretHidden)
        #expect((0..<5).map { field.preeditStyle(at: $0) } == [.default, .default, .selection, .selection, .selection])
        field.apply(InputMethodUpdate(preedit: "nihao", preeditCursor: 2..<2))
        #expect(field.markedStyles.isEmpty && (0..<5).allSatisfy { field.preeditStyle(at: $0) == .default })
    }

    @Test("cursor_position moves the caret and the anchor by bytes from the end of the commit, clamped and on cluster boundaries")
    func caretAfterCommit() {
        var field = EditableText("ab", caret: 1)
        field.apply(InputMethodUpdate(commit: "한국", caretAfterCommit: -3))
        #expect(field.text == "a한국b" && field.caret == 2 && !field.hasSelection)
        var selecting = EditableText("ab", caret: 1)
        selecting.apply(InputMethodUpdate(commit: "한국", caretAfterCommit: 0, anchorAfterCommit: -6))
        #expect(selecting.selection == 1..<3 && selecting.caret == 3, "the commit selected")
        var inside = EditableText("", caret: 0)
        inside.apply(InputMethodUpdate(commit: "한국", caretAfterCommit: -4))  // inside 한: towards the caret
        #expect(inside.caret == 1)
        var clamped = EditableText("ab", caret: 1)
        clamped.apply(InputMethodUpdate(commit: "c", caretAfterCommit: 1000, anchorAfterCommit: -1000))
        #expect(clamped.caret == 3 && clamped.anchor == 0)
    }
}

import Foundation

/// A line of editable text and its caret, edited by grapheme cluster (Swift `Character`):
/// a Hangul syllable, "e + ◌́", an emoji ZWJ sequence or a Bengali conjunct is one step
/// for the caret and one deletion.
///
/// The caret is a logical position (0…`text.count`, in `Character`s); where it is drawn
/// in bidirectional text is ``caretOffset(in:)``. Arrow keys move in logical order:
/// ``moveLeft(in:)`` goes backwards in a left-to-right paragraph and forwards in a
/// right-to-left one, so the caret steps through each run in reading order.
public struct EditableText: Equatable, Sendable {
    /// The text.
    public private(set) var text: String
    /// The caret, in `Character`s from the start (0…`text.count`).
    public private(set) var caret: Int

    /// Creates `text` with the caret at `caret` (clamped), or at the end when nil.
    public init(_ text: String = "", caret: Int? = nil) {
        self.text = text
        self.caret = min(max(caret ?? text.count, 0), text.count)
    }

    /// Inserts `string` at the caret and puts the caret after it. Combining characters
    /// join the cluster before them (typing ◌́ after "e" gives one "é" cluster).
    public mutating func insert(_ string: String) {
        guard !string.isEmpty else { return }
        let index = text.index(text.startIndex, offsetBy: caret)
        let before = String(text[..<index]) + string
        text = before + text[index...]
        caret = min(before.count, text.count)
    }

    /// Deletes the grapheme cluster before the caret; returns whether anything changed.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        guard caret > 0 else { return false }
        text.remove(at: text.index(text.startIndex, offsetBy: caret - 1))
        caret -= 1
        return true
    }

    /// Deletes the grapheme cluster after the caret; returns whether anything changed.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        guard caret < text.count else { return false }
        text.remove(at: text.index(text.startIndex, offsetBy: caret))
        return true
    }

    /// Moves the caret to `position` (clamped); returns whether it moved.
    @discardableResult
    public mutating func moveCaret(to position: Int) -> Bool {
        let clamped = min(max(position, 0), text.count)
        guard clamped != caret else { return false }
        caret = clamped
        return true
    }

    /// The Left arrow: one cluster back in a left-to-right paragraph, forward in a
    /// right-to-left one (as laid out in `font`).
    @discardableResult
    public mutating func moveLeft(in font: Font) -> Bool {
        moveCaret(to: caret + (font.isRightToLeft(text) ? 1 : -1))
    }

    /// The Right arrow: the mirror of ``moveLeft(in:)``.
    @discardableResult
    public mutating func moveRight(in font: Font) -> Bool {
        moveCaret(to: caret + (font.isRightToLeft(text) ? -1 : 1))
    }

    /// Where the caret is drawn: user units from the line's origin in `font`.
    public func caretOffset(in font: Font) -> CGFloat {
        font.caretOffset(atCharacter: caret, in: text)
    }
}

import Foundation

/// A line of editable text and its caret, edited by grapheme cluster (Swift `Character`):
/// a Hangul syllable, "e + ◌́", an emoji ZWJ sequence or a Bengali conjunct is one step
/// for the caret and one deletion.
///
/// The caret is a logical position (0…`text.count`, in `Character`s); where it is drawn
/// in bidirectional text is ``caretOffset(in:)``. Arrow keys move in logical order:
/// ``moveLeft(in:)`` goes backwards in a left-to-right paragraph and forwards in a
/// right-to-left one, so the caret steps through each run in reading order.
///
/// A selection is the logical range between an ``anchor`` and the caret (both in
/// `Character`s): extending moves only the caret, so Shift+arrows and a drag grow and
/// shrink it from where it started. Typing or deleting replaces a non-empty selection; a
/// plain caret move collapses it.
public struct EditableText: Equatable, Sendable {
    /// The text.
    public private(set) var text: String
    /// The caret, in `Character`s from the start (0…`text.count`).
    public private(set) var caret: Int
    /// The selection's fixed end (equal to ``caret`` when nothing is selected).
    public private(set) var anchor: Int

    /// Creates `text` with the caret at `caret` (clamped), or at the end when nil, and
    /// nothing selected.
    public init(_ text: String = "", caret: Int? = nil) {
        self.text = text
        self.caret = min(max(caret ?? text.count, 0), text.count)
        anchor = self.caret
    }

    /// The selected characters (logical order); empty when nothing is selected.
    public var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }

    /// Whether some text is selected.
    public var hasSelection: Bool { anchor != caret }

    /// The selected text ("" when nothing is selected).
    public var selectedText: String {
        guard hasSelection else { return "" }
        let range = selection
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        return String(text[start..<end])
    }

    /// Inserts `string` at the caret, replacing the selection, and puts the caret after it.
    /// Combining characters join the cluster before them (typing ◌́ after "e" gives one
    /// "é" cluster). Inserting "" deletes the selection.
    public mutating func insert(_ string: String) {
        guard !string.isEmpty || hasSelection else { return }
        let range = selection
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        let before = String(text[..<start]) + string
        text = before + text[end...]
        caret = min(before.count, text.count)
        anchor = caret
    }

    /// Deletes the selection, or else the grapheme cluster before the caret; returns
    /// whether anything changed.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        if hasSelection { return deleteSelection() }
        guard caret > 0 else { return false }
        text.remove(at: text.index(text.startIndex, offsetBy: caret - 1))
        caret -= 1
        anchor = caret
        return true
    }

    /// Deletes the selection, or else the grapheme cluster after the caret; returns
    /// whether anything changed.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        if hasSelection { return deleteSelection() }
        guard caret < text.count else { return false }
        text.remove(at: text.index(text.startIndex, offsetBy: caret))
        return true
    }

    /// Deletes the selected text (Cut, or typing over it); returns whether there was any.
    @discardableResult
    public mutating func deleteSelection() -> Bool {
        guard hasSelection else { return false }
        insert("")
        return true
    }

    /// Moves the caret to `position` (clamped); with `extending`, the anchor stays and the
    /// selection grows or shrinks, else the selection collapses to the caret. Returns
    /// whether the caret or the selection changed.
    @discardableResult
    public mutating func moveCaret(to position: Int, extending: Bool = false) -> Bool {
        let clamped = min(max(position, 0), text.count)
        let newAnchor = extending ? anchor : clamped
        guard clamped != caret || newAnchor != anchor else { return false }
        caret = clamped
        anchor = newAnchor
        return true
    }

    /// Selects the characters in `range` (clamped), the caret at its end.
    public mutating func select(_ range: Range<Int>) {
        anchor = min(max(range.lowerBound, 0), text.count)
        caret = min(max(range.upperBound, 0), text.count)
    }

    /// Selects the whole text (Ctrl+A, a triple click).
    public mutating func selectAll() {
        select(0..<text.count)
    }

    /// The word around the caret position `position`: the run of letters, digits and
    /// connector punctuation (or else of spaces, or of other punctuation) that the
    /// cluster after `position` belongs to (the one before it at the end of the text), by
    /// grapheme cluster. What a double click selects.
    public func wordRange(at position: Int) -> Range<Int> {
        let characters = Array(text)
        guard !characters.isEmpty else { return 0..<0 }
        let index = min(max(position, 0), characters.count - 1)
        let kind = Self.wordClass(characters[index])
        var lower = index, upper = index + 1
        while lower > 0, Self.wordClass(characters[lower - 1]) == kind { lower -= 1 }
        while upper < characters.count, Self.wordClass(characters[upper]) == kind { upper += 1 }
        return lower..<upper
    }

    /// 0: word characters (letters, marks, digits, "_"), 1: white space, 2: anything else.
    private static func wordClass(_ character: Character) -> Int {
        if character.isLetter || character.isNumber || character == "_" { return 0 }
        if let scalar = character.unicodeScalars.first, scalar.properties.isAlphabetic
            || scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .spacingMark
        {
            return 0
        }
        return character.isWhitespace ? 1 : 2
    }

    /// The Left arrow: one cluster back in a left-to-right paragraph, forward in a
    /// right-to-left one (as laid out in `font`). With a selection and no `extending`,
    /// the caret goes to the selection's left end in reading order and it collapses.
    @discardableResult
    public mutating func moveLeft(in font: Font, extending: Bool = false) -> Bool {
        let rightToLeft = font.isRightToLeft(text)
        if hasSelection, !extending {
            return moveCaret(to: rightToLeft ? selection.upperBound : selection.lowerBound)
        }
        return moveCaret(to: caret + (rightToLeft ? 1 : -1), extending: extending)
    }

    /// The Right arrow: the mirror of ``moveLeft(in:extending:)``.
    @discardableResult
    public mutating func moveRight(in font: Font, extending: Bool = false) -> Bool {
        let rightToLeft = font.isRightToLeft(text)
        if hasSelection, !extending {
            return moveCaret(to: rightToLeft ? selection.lowerBound : selection.upperBound)
        }
        return moveCaret(to: caret + (rightToLeft ? -1 : 1), extending: extending)
    }

    /// Where the caret is drawn: user units from the line's origin in `font`.
    public func caretOffset(in font: Font) -> CGFloat {
        font.caretOffset(atCharacter: caret, in: text)
    }
}

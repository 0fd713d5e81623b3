import Foundation

/// A line of editable text and its caret, edited by grapheme cluster (Swift `Character`):
/// a Hangul syllable, "e + ◌́", an emoji ZWJ sequence or a Bengali conjunct is one step
/// for the caret and one deletion.
///
/// The caret is a logical position (0…`text.count`, in `Character`s); where it is drawn
/// in bidirectional text is ``caretOffset(in:)``. The arrow keys move visually:
/// ``moveLeft(in:extending:)`` always moves the drawn caret left on screen, through a
/// Latin run, an Arabic or Hebrew run and the boundaries between them alike. Word moves
/// and word deletions (Ctrl+←/→, Ctrl+Backspace/Delete) go by Unicode word boundaries
/// (``WordBoundaries``, UAX #29).
///
/// A selection is the logical range between an ``anchor`` and the caret (both in
/// `Character`s): extending moves only the caret, so Shift+arrows and a drag grow and
/// shrink it from where it started. Typing or deleting replaces a non-empty selection; a
/// plain caret move collapses it.
///
/// Every change of the text is recorded for ``undo()`` and ``redo()``: consecutive typed
/// characters (``type(_:)``) are one step, as are consecutive Backspaces or Deletes; a
/// caret move, a paste or any other kind of edit starts a new step.
public struct EditableText: Equatable, Sendable {
    /// The text.
    public internal(set) var text: String
    /// The caret, in `Character`s from the start (0…``count``).
    public internal(set) var caret: Int
    /// The selection's fixed end (equal to ``caret`` when nothing is selected).
    public internal(set) var anchor: Int
    /// How many `Character`s the text holds: `text.count`, kept up to date by each edit
    /// (counting a long text is linear; an edit recounts only around the change).
    public internal(set) var count: Int
    /// The caret's index in ``text`` (valid for the current text): positions are found by
    /// walking from the nearest of the start, the caret and the end, so an edit or a move
    /// near the caret costs what it changes, not the text's length.
    var caretIndex: String.Index
    /// How many changes to the text's bytes there have been, and the latest of them (at
    /// most ``recentSpliceLimit``, oldest first, the last one made revision ``revision``):
    /// what a ``TextLayout`` follows to lay out only what changed.
    public internal(set) var revision = 0
    public internal(set) var recentSplices: [TextSplice] = []
    /// How many recent splices are kept (an input method's update makes up to four).
    static let recentSpliceLimit = 8
    /// The clusters an input method is composing (its preedit, drawn underlined), or nil.
    public internal(set) var markedRange: Range<Int>?
    /// How pieces of the marked text are drawn (cluster ranges of ``text`` inside
    /// ``markedRange``; a later run wins where runs overlap); empty when none were given.
    /// See ``preeditStyle(at:)``.
    public internal(set) var markedStyles: [PreeditStyleRun] = []
    /// Whether the input method hid the caret inside its preedit.
    public internal(set) var isCaretHidden = false
    /// The steps ``undo()`` reverts (last is newest) and ``redo()`` reapplies.
    var undoSteps: [Edit] = []
    var redoSteps: [Edit] = []
    /// Whether the newest undo step may still grow (no caret move since it).
    var isCoalescing = false

    /// Creates `text` with the caret at `caret` (clamped), or at the end when nil, and
    /// nothing selected.
    public init(_ text: String = "", caret: Int? = nil) {
        self.text = text
        count = text.count
        self.caret = min(max(caret ?? count, 0), count)
        caretIndex = text.index(text.startIndex, offsetBy: self.caret)
        anchor = self.caret
    }

    /// The index in ``text`` of the cluster boundary `position` (0…``count``), walked to
    /// from the nearest of the start, the caret and the end.
    func stringIndex(ofCharacter position: Int) -> String.Index {
        let position = min(max(position, 0), count)
        if position == caret {  // typing asks for the caret's own
            assert(String.Index(caretIndex, within: text) != nil, "the caret's index is not at a cluster boundary")
            return caretIndex
        }
        let fromCaret = abs(position - caret), fromEnd = count - position
        if fromCaret <= position, fromCaret <= fromEnd { return text.index(caretIndex, offsetBy: position - caret) }
        if position <= fromEnd { return text.index(text.startIndex, offsetBy: position) }
        return text.index(text.endIndex, offsetBy: position - count)
    }

    /// Puts the caret at `position` (clamped) and finds its index, leaving the anchor.
    mutating func placeCaret(at position: Int) {
        let clamped = min(max(position, 0), count)
        caretIndex = stringIndex(ofCharacter: clamped)
        caret = clamped
    }

    /// The selected characters (logical order); empty when nothing is selected.
    public var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }

    /// Whether some text is selected.
    public var hasSelection: Bool { anchor != caret }

    /// The selected text ("" when nothing is selected).
    public var selectedText: String {
        guard hasSelection else { return "" }
        let range = selection
        let start = stringIndex(ofCharacter: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        return String(text[start..<end])
    }

    /// Inserts `string` at the caret, replacing the selection, and puts the caret after it
    /// (a paste, an input method's commit): one undo step of its own. Combining characters
    /// join the cluster before them (typing ◌́ after "e" gives one "é" cluster). Inserting
    /// "" deletes the selection.
    public mutating func insert(_ string: String) {
        unmarkText()
        guard !string.isEmpty || hasSelection else { return }
        replace(selection, with: string, kind: .other)
    }

    /// Inserts typed text like ``insert(_:)``; consecutive typing at the caret is one
    /// undo step (typing over a selection starts a new one, which the typing after it
    /// joins).
    public mutating func type(_ string: String) {
        unmarkText()
        guard !string.isEmpty || hasSelection else { return }
        if hasSelection { isCoalescing = false }
        replace(selection, with: string, kind: .typing)
    }

    /// Deletes the selection, or else the grapheme cluster before the caret; returns
    /// whether anything changed.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        unmarkText()
        if hasSelection { return deleteSelection() }
        guard caret > 0 else { return false }
        replace((caret - 1)..<caret, with: "", kind: .deletingBackward)
        return true
    }

    /// Deletes the selection, or else the grapheme cluster after the caret; returns
    /// whether anything changed.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        unmarkText()
        if hasSelection { return deleteSelection() }
        guard caret < count else { return false }
        replace(caret..<(caret + 1), with: "", kind: .deletingForward)
        return true
    }

    /// Deletes the selected text (Cut, or typing over it); returns whether there was any.
    @discardableResult
    public mutating func deleteSelection() -> Bool {
        unmarkText()
        guard hasSelection else { return false }
        replace(selection, with: "", kind: .other)
        return true
    }

    /// Moves the caret to `position` (clamped); with `extending`, the anchor stays and the
    /// selection grows or shrinks, else the selection collapses to the caret. Returns
    /// whether the caret or the selection changed.
    @discardableResult
    public mutating func moveCaret(to position: Int, extending: Bool = false) -> Bool {
        unmarkText()
        let clamped = min(max(position, 0), count)
        let newAnchor = extending ? anchor : clamped
        guard clamped != caret || newAnchor != anchor else { return false }
        isCoalescing = false
        placeCaret(at: clamped)
        anchor = newAnchor
        return true
    }

    /// Selects the characters in `range` (clamped), the caret at its end.
    public mutating func select(_ range: Range<Int>) {
        unmarkText()
        isCoalescing = false
        anchor = min(max(range.lowerBound, 0), count)
        placeCaret(at: range.upperBound)
    }

    /// Selects the whole text (Ctrl+A, a triple click).
    public mutating func selectAll() {
        select(0..<count)
    }


    /// The segment around the caret position `position` by Unicode word boundaries
    /// (``WordBoundaries``): the word, run of spaces or punctuation mark that the cluster
    /// after `position` belongs to (the one before it at the end of the text). What a
    /// double click selects.
    public func wordRange(at position: Int) -> Range<Int> {
        WordBoundaries(text).segment(at: position)
    }

    /// The Left arrow: moves the caret to the nearest caret position drawn left of it in
    /// `font` (in bidirectional text that may be forwards or backwards in logical order);
    /// of positions drawn at the same x, the logically nearest. With a selection and no
    /// `extending`, the caret goes to the selection's end drawn leftmost and it collapses.
    /// Returns whether anything changed (false at the line's left end).
    @discardableResult
    public mutating func moveLeft(in font: Font, extending: Bool = false) -> Bool {
        unmarkText()
        return moveVisually(leftwards: true, in: font, extending: extending)
    }

    /// The Right arrow: the mirror of ``moveLeft(in:extending:)``.
    @discardableResult
    public mutating func moveRight(in font: Font, extending: Bool = false) -> Bool {
        unmarkText()
        return moveVisually(leftwards: false, in: font, extending: extending)
    }

    /// Ctrl+Left: to the start of the previous word in a left-to-right line, the end of
    /// the next one in a right-to-left line (words by ``WordBoundaries``).
    @discardableResult
    public mutating func moveWordLeft(in font: Font, extending: Bool = false) -> Bool {
        unmarkText()
        return moveCaret(to: wordTarget(leftwards: true, in: font), extending: extending)
    }

    /// Ctrl+Right: the mirror of ``moveWordLeft(in:extending:)``.
    @discardableResult
    public mutating func moveWordRight(in font: Font, extending: Bool = false) -> Bool {
        unmarkText()
        return moveCaret(to: wordTarget(leftwards: false, in: font), extending: extending)
    }

    /// Ctrl+Backspace: deletes the selection, or else back to the start of the word before
    /// the caret (with the spaces between); returns whether anything changed.
    @discardableResult
    public mutating func deleteWordBackward() -> Bool {
        unmarkText()
        if hasSelection { return deleteSelection() }
        let start = WordBoundaries(text).previousWordStart(before: caret)
        guard start < caret else { return false }
        replace(start..<caret, with: "", kind: .other)
        return true
    }

    /// Ctrl+Delete: deletes the selection, or else up to the end of the word after the
    /// caret (with the spaces before it); returns whether anything changed.
    @discardableResult
    public mutating func deleteWordForward() -> Bool {
        unmarkText()
        if hasSelection { return deleteSelection() }
        let end = WordBoundaries(text).nextWordEnd(after: caret)
        guard end > caret else { return false }
        replace(caret..<end, with: "", kind: .other)
        return true
    }

    /// Where the caret is drawn: user units from the line's origin in `font`.
    public func caretOffset(in font: Font) -> CGFloat {
        font.caretOffset(atCharacter: caret, in: text)
    }

    /// The Left arrow in a line laid out in chunks (``TextLayout``, kept up to date with
    /// this text): as ``moveLeft(in:extending:)``, looking only at the chunks around the caret.
    @discardableResult
    public mutating func moveLeft(in layout: TextLayout, extending: Bool = false) -> Bool {
        unmarkText()
        return moveVisually(
            leftwards: true, extending: extending, candidates: layout.caretOffsets(around: caret),
            caretX: layout.caretOffset(at:), rightToLeft: layout.isRightToLeft)
    }

    /// The Right arrow in a ``TextLayout``: the mirror of ``moveLeft(in:extending:)-(TextLayout,_)``.
    @discardableResult
    public mutating func moveRight(in layout: TextLayout, extending: Bool = false) -> Bool {
        unmarkText()
        return moveVisually(
            leftwards: false, extending: extending, candidates: layout.caretOffsets(around: caret),
            caretX: layout.caretOffset(at:), rightToLeft: layout.isRightToLeft)
    }

    /// Ctrl+Left in a ``TextLayout``'s paragraph direction.
    @discardableResult
    public mutating func moveWordLeft(in layout: TextLayout, extending: Bool = false) -> Bool {
        unmarkText()
        return moveCaret(to: wordTarget(leftwards: true, rightToLeft: layout.isRightToLeft), extending: extending)
    }

    /// Ctrl+Right in a ``TextLayout``'s paragraph direction.
    @discardableResult
    public mutating func moveWordRight(in layout: TextLayout, extending: Bool = false) -> Bool {
        unmarkText()
        return moveCaret(to: wordTarget(leftwards: false, rightToLeft: layout.isRightToLeft), extending: extending)
    }

    private func wordTarget(leftwards: Bool, in font: Font) -> Int {
        wordTarget(leftwards: leftwards, rightToLeft: font.isRightToLeft(text))
    }

    private func wordTarget(leftwards: Bool, rightToLeft: Bool) -> Int {
        let words = WordBoundaries(text)
        return leftwards != rightToLeft ? words.previousWordStart(before: caret) : words.nextWordEnd(after: caret)
    }

    private mutating func moveVisually(leftwards: Bool, in font: Font, extending: Bool) -> Bool {
        let offsets = font.caretOffsets(in: text)
        guard offsets.count == count + 1 else { return false }
        return moveVisually(
            leftwards: leftwards, extending: extending,
            candidates: offsets.enumerated().map { ($0.offset, $0.element) }, caretX: { offsets[$0] },
            rightToLeft: font.isRightToLeft(text))
    }

    /// Moves to the candidate position drawn nearest left (or right) of the caret; of
    /// candidates drawn at the same x, the logically nearest.
    private mutating func moveVisually(
        leftwards: Bool, extending: Bool, candidates: [(position: Int, x: CGFloat)], caretX: (Int) -> CGFloat,
        rightToLeft: Bool
    ) -> Bool {
        // Positions closer than this are drawn at the same x.
        let tolerance: CGFloat = 0.01
        if hasSelection, !extending {
            let low = caretX(selection.lowerBound), high = caretX(selection.upperBound)
            let lowIsTarget = abs(low - high) <= tolerance ? leftwards != rightToLeft : (low < high) == leftwards
            return moveCaret(to: lowIsTarget ? selection.lowerBound : selection.upperBound)
        }
        let x = caretX(caret)
        var best: (position: Int, x: CGFloat)?
        for candidate in candidates {
            guard leftwards ? candidate.x < x - tolerance : candidate.x > x + tolerance else { continue }
            guard let current = best else {
                best = candidate
                continue
            }
            if abs(candidate.x - current.x) <= tolerance {
                if abs(candidate.position - caret) < abs(current.position - caret) { best = candidate }
            } else if leftwards ? candidate.x > current.x : candidate.x < current.x {
                best = candidate
            }
        }
        guard let best else { return false }
        return moveCaret(to: best.position, extending: extending)
    }
}

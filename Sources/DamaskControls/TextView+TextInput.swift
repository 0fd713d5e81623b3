import DamaskGraphics
import DamaskViews
import Foundation

/// The text view as an input method sees it (``TextInput``): the paragraph around the caret
/// without the preedit, the caret in window points. Edits, caret moves and relayouts call
/// ``Window/textInputDidChange()``, so a text-input protocol learns of each one.
extension TextView {
    /// The paragraph holding the caret (the selection's paragraphs when it spans several),
    /// without the preedit, at most ``SurroundingText/maximumBytes`` bytes of it around the
    /// caret; nil while the text is not editable.
    public var surroundingText: SurroundingText? {
        guard isEditable else { return nil }
        let around = editor.surroundingText()
        let bytes = Array(around.text.utf8)
        let low = min(around.cursor, around.anchor), high = max(around.cursor, around.anchor)
        let newline = UInt8(ascii: "\n")
        let start = bytes[..<low].lastIndex(of: newline).map { $0 + 1 } ?? 0
        let end = bytes[high...].firstIndex(of: newline) ?? bytes.count
        guard let paragraph = String(bytes: bytes[start..<end], encoding: .utf8) else { return around }
        return SurroundingText(text: paragraph, cursor: around.cursor - start, anchor: around.anchor - start)
    }

    /// The caret (at the preedit's start while composing) in window points, on the visual
    /// line it shows on (``caretLine``).
    public var textInputCursorRect: CGRect? {
        guard window != nil else { return nil }
        let rect = editor.markedRange.map { caretRect(for: $0.lowerBound) } ?? insertionPointRect
        return convert(rect, to: nil)
    }

    /// Ordinary text in several lines (the `multiline` hint: Return is a line break, not
    /// "done").
    public var textContentType: TextContentType { TextContentType(hints: .multiline) }

    public var acceptsInputMethod: Bool { isEditable }

    public var hasMarkedText: Bool { editor.markedRange != nil }

    /// An input method's update (a preedit, a commit, a deletion): applied as one change.
    public func applyInputMethodUpdate(_ update: InputMethodUpdate) {
        guard isEditable else { return }
        edit { $0.apply(update) }
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// The text view as an input method sees it (``TextInput``): the paragraph around the caret
/// without the preedit, the caret in window points. Edits, caret moves and relayouts call
/// ``Window/textInputDidChange()``, so a text-input protocol learns of each one.
///
/// The input method's language and direction (zwp_text_input_v1's `language` and
/// `text_direction`) style its preedit as in ``TextField``: the lines holding the preedit
/// are laid out with it as a run of its own (``preeditLayout(forLine:)``), in the same
/// ``TextRunStyle``. Lines still wrap by the font's widths of the text as a whole, so a
/// styled preedit drawn in other fonts may end a little short of or past the wrap width.
extension TextView {
    /// The paragraph holding the caret (the selection's paragraphs when it spans several),
    /// without the preedit, at most ``SurroundingText/defaultLimit`` bytes of it around the
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

    // MARK: The input method's language and direction

    /// How the preedit is shaped and laid out: in the input method's language and direction,
    /// as a run of its own; nil (shaped with the text around it) while the input method has
    /// said neither.
    public var preeditRunStyle: TextRunStyle? { inputMethodAttributes.preeditRunStyle }

    /// Keeps the language; a preedit shown now is shaped again in it.
    public func inputMethodDidChangeLanguage(_ language: String) {
        guard inputMethodAttributes.setLanguage(language) else { return }
        preeditStyleDidChange()
    }

    /// Keeps the direction; a preedit shown now is laid out again in it.
    public func inputMethodDidChangeTextDirection(_ direction: TextInputDirection) {
        guard inputMethodAttributes.setDirection(direction) else { return }
        preeditStyleDidChange()
    }

    /// Forgets the input method's language and direction and removes a preedit shown now:
    /// the activation they belonged to ended.
    public func inputMethodDidDeactivate() {
        let restyled = inputMethodAttributes.reset()
        if editor.markedRange != nil {
            preeditLayouts = [:]
            edit { $0.unmarkText() }
        } else if restyled {
            preeditStyleDidChange()
        }
    }

    /// The layout of visual line `index` when it holds part of a preedit that has a style
    /// (``preeditRunStyle``): the line's text with that part as the layout's styled run;
    /// nil for every other line (drawn as the font lays the line out). Cached until the
    /// lines are built again or the style changes.
    func preeditLayout(forLine index: Int) -> TextLayout? {
        guard let marked = editor.markedRange, !marked.isEmpty, inputMethodAttributes.preeditRunStyle != nil else { return nil }
        let text = lineText(index)
        let start = lineStarts[index], end = start + text.count
        guard marked.lowerBound < end, marked.upperBound > start else { return nil }
        if let known = preeditLayouts[index] { return known }
        let lower = text.index(text.startIndex, offsetBy: max(marked.lowerBound, start) - start)
        let upper = text.index(text.startIndex, offsetBy: min(marked.upperBound, end) - start)
        let bytes = text.utf8.distance(from: text.startIndex, to: lower)..<text.utf8.distance(from: text.startIndex, to: upper)
        let layout = TextLayout(text, font: font, styledRun: inputMethodAttributes.preeditRun(utf8Range: bytes))
        preeditLayouts[index] = layout
        return layout
    }

    /// Lays out again and redraws the lines of a preedit shown now (its style changed); the
    /// caret may have moved with it, so the input method is told.
    private func preeditStyleDidChange() {
        preeditLayouts = [:]
        guard let marked = editor.markedRange else { return }
        redrawLines(line(containing: marked.lowerBound)...line(containing: marked.upperBound))
        window?.textInputDidChange()
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// The text view to assistive technologies: a multi-line text (AT-SPI's `text` role with
/// the multi-line state) whose text, caret, selection, visual lines and character extents
/// are read through AT-SPI's Text interface and, while ``isEditable``, changed through
/// EditableText as if the user typed (the same edits, undo steps and redrawing as keys).
extension TextView: AccessibilityTextProviding {
    public var accessibilityText: String { text }
    public var accessibilitySelectedRange: Range<Int> { editor.hasSelection ? editor.selection : editor.caret..<editor.caret }
    public var isAccessibilityTextEditable: Bool { isEditable }
    public var isAccessibilityTextMultiline: Bool { true }

    public func setAccessibilitySelectedRange(_ range: Range<Int>) {
        select(range)
    }

    public func replaceAccessibilityText(in range: Range<Int>, with newText: String) -> Bool {
        guard isEditable else { return false }
        let revision = editor.revision
        edit { editor in
            editor.select(range)
            editor.insert(newText)
        }
        return editor.revision != revision
    }

    /// The character's box on its visual line, in window coordinates (a line break's is
    /// a zero-width box at the end of its line).
    public func accessibilityFrame(ofCharacterAt offset: Int) -> CGRect? {
        guard offset >= 0, offset < editor.count else { return nil }
        let index = line(containing: offset)
        let column = offset - lineStarts[index]
        let line = rectForLine(index)
        let characters = lineText(index)
        let box: CGRect
        if column < characters.count {
            let spans = font.selectionRanges(forCharacters: column..<(column + 1), in: characters)
            let low = spans.map(\.lowerBound).min() ?? 0, high = spans.map(\.upperBound).max() ?? 0
            box = CGRect(x: textInset + low, y: line.minY, width: high - low, height: line.height)
        } else {
            box = CGRect(x: textInset + font.measure(characters).width, y: line.minY, width: 0, height: line.height)
        }
        return convert(box, to: nil)  // content coordinates are the bounds' (the offset is its origin)
    }

    /// The visual line holding `offset` (what a screen reader reads on ↑ and ↓), with the
    /// line break that ends it.
    public func accessibilityLineRange(containing offset: Int) -> Range<Int>? {
        let index = line(containing: min(max(offset, 0), editor.count))
        let end = index + 1 < lineStarts.count ? lineStarts[index + 1] : editor.count
        return lineStarts[index]..<end
    }

    /// The character under `point` (window coordinates), or nil outside the text.
    public func accessibilityCharacterOffset(at point: CGPoint) -> Int? {
        let content = convert(point, from: nil)  // content coordinates: the bounds are the visible part
        guard bounds.contains(content) else { return nil }
        let index = Int(((content.y - textInset) / lineHeight).rounded(.down))
        guard lineStarts.indices.contains(index) else { return nil }
        let characters = lineText(index)
        let x = content.x - textInset
        for column in 0..<characters.count {
            let spans = font.selectionRanges(forCharacters: column..<(column + 1), in: characters)
            if spans.contains(where: { $0.contains(x) }) { return lineStarts[index] + column }
        }
        return nil
    }

    /// Tells observers what changed: the text (when `text`), then the caret or selection.
    func postAccessibilityChanges(text: Bool) {
        guard AccessibilityCenter.isObserved else { return }
        if text { AccessibilityNotification.textChanged(self).post() }
        AccessibilityNotification.selectionChanged(self).post()
    }
}

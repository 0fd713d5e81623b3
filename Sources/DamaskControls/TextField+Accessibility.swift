import DamaskGraphics
import DamaskViews
import Foundation

/// The text field to assistive technologies: an editable entry whose text, caret and
/// selection are read and changed through AT-SPI's Text and EditableText interfaces, as if
/// the user typed (the same edits and invalidation as keys).
extension TextField: AccessibilityTextProviding {
    public var accessibilityText: String { isSecureTextEntry ? String(repeating: "•", count: editor.count) : text }
    public var accessibilitySelectedRange: Range<Int> { editor.hasSelection ? selection : cursorIndex..<cursorIndex }
    public var isAccessibilityTextEditable: Bool { true }

    public func setAccessibilitySelectedRange(_ range: Range<Int>) {
        change { $0.select(range) }
    }

    public func replaceAccessibilityText(in range: Range<Int>, with newText: String) -> Bool {
        let before = text
        change { editor in
            editor.select(range)
            if range.isEmpty == false { _ = editor.deleteSelection() }
            editor.insert(newText)
        }
        return text != before
    }

    /// Tells observers what an edit changed: the text, then the caret or selection.
    func postAccessibilityChanges(since before: EditableText) {
        guard AccessibilityCenter.isObserved else { return }
        if before.text != editor.text { AccessibilityNotification.textChanged(self).post() }
        if before.selection != editor.selection || before.caret != editor.caret {
            AccessibilityNotification.selectionChanged(self).post()
        }
    }
}

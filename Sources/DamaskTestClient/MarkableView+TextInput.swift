import DamaskGraphics
import DamaskViews
import Foundation

/// The test view as a text input (after `text-input on`): it holds an ``EditableText``,
/// applies an input method's updates to it and prints "text TEXT" after each, and reports
/// a caret rectangle that moves with the caret (8 points a character), so that each update
/// changes the state the text-input protocol sends.
extension MarkableView: TextInput {
    var text: String { editor.text }
    var acceptsInputMethod: Bool { takesInputMethod }
    var surroundingText: SurroundingText? { editor.surroundingText() }
    var textInputCursorRect: CGRect? { CGRect(x: 10 + 8 * CGFloat(editor.caret), y: 10, width: 2, height: 20) }
    var hasMarkedText: Bool { editor.markedRange != nil }

    func applyInputMethodUpdate(_ update: InputMethodUpdate) {
        editor.apply(update)
        emit("text \(editor.text)")
        window?.textInputDidChange()
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// The field as an input method sees it (``TextInput``): the text around the caret without
/// the preedit, the caret in window points, and its content type. `change(_:)` and
/// `setText(_:)` call ``Window/textInputDidChange()``, so a text-input protocol learns of
/// every edit, caret move and scroll.
extension TextFieldView {
    var surroundingText: SurroundingText? { editor.surroundingText() }

    var textInputCursorRect: CGRect? {
        guard window != nil else { return nil }
        return convert(cursorRect, to: nil)
    }

    var textContentType: TextContentType { contentType }

    var hasMarkedText: Bool { editor.markedRange != nil }
}

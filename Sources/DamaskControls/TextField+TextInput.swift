import DamaskGraphics
import DamaskViews
import Foundation

/// The field as an input method sees it (``TextInput``): the text around the caret without
/// the preedit, the caret in window points, and its content type. Edits, caret moves and
/// scrolls call ``Window/textInputDidChange()``, so a text-input protocol learns of each one.
///
/// A secure field (``TextField/isSecureTextEntry``) is a password to the input method
/// whatever ``TextField/contentType`` says, and tells it no surrounding text.
extension TextField {
    public var surroundingText: SurroundingText? {
        isSecureTextEntry ? nil : editor.surroundingText()
    }

    public var textInputCursorRect: CGRect? {
        guard window != nil else { return nil }
        return convert(cursorRect, to: nil)
    }

    public var textContentType: TextContentType { isSecureTextEntry ? .password : contentType }

    public var hasMarkedText: Bool { editor.markedRange != nil }

    /// Keeps the language; a preedit shown now is shaped again in it.
    public func inputMethodDidChangeLanguage(_ language: String) {
        let language: String? = language.isEmpty ? nil : language
        guard language != inputMethodLanguage else { return }
        inputMethodLanguage = language
        if editor.markedRange != nil { change(restartsBlink: false) { _ in } }
    }

    /// Keeps the direction; a preedit shown now is laid out again in it.
    public func inputMethodDidChangeTextDirection(_ direction: TextInputDirection) {
        guard direction != inputMethodTextDirection else { return }
        inputMethodTextDirection = direction
        if editor.markedRange != nil { change(restartsBlink: false) { _ in } }
    }
}

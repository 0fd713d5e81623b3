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
        guard !isSecureTextEntry else { return nil }
        if let cachedSurroundingText { return cachedSurroundingText }
        let surrounding = editor.surroundingText()
        cachedSurroundingText = surrounding
        return surrounding
    }

    public var textInputCursorRect: CGRect? {
        guard window != nil else { return nil }
        return convert(cursorRect, to: nil)
    }

    public var textContentType: TextContentType { isSecureTextEntry ? .password : contentType }

    public var hasMarkedText: Bool { editor.markedRange != nil }

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
            change(restartsBlink: false) { $0.unmarkText() }
        } else if restyled {
            preeditStyleDidChange()
        }
    }

    /// Lays out again a preedit shown now (its style changed).
    private func preeditStyleDidChange() {
        if editor.markedRange != nil { change(restartsBlink: false) { _ in } }
    }
}

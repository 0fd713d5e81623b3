import DamaskGraphics

/// A responder that holds text the user edits (a text field).
///
/// What the window's first responder shows to code that is not its owner: input scripts'
/// `expect text` check reads ``text`` from the window's first responder when it adopts this
/// protocol, and their `ime` commands hand it input method updates. Main-actor, like every
/// responder.
@MainActor public protocol TextInput: AnyObject {
    /// The text as the user sees it now, with an input method's preedit inline (not
    /// including text whose paste is still on its way).
    var text: String { get }

    /// Applies what an input method asks (a preedit, a commit, a deletion around the
    /// caret), as a text-input protocol's `done` event makes it current. The default
    /// ignores it (a responder that takes no composed text).
    func applyInputMethodUpdate(_ update: InputMethodUpdate)
}

extension TextInput {
    public func applyInputMethodUpdate(_ update: InputMethodUpdate) {}
}

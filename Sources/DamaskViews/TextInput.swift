import DamaskGraphics
import Foundation

/// A responder that holds text the user edits (a text field).
///
/// What the window's first responder shows to code that is not its owner: input scripts'
/// `expect text` check reads ``text`` from the window's first responder when it adopts this
/// protocol, their `ime` commands hand it input method updates, and a text-input protocol
/// (zwp_text_input_v1/v3, in DamaskWayland) reads ``surroundingText``,
/// ``textInputCursorRect`` and ``textContentType`` to tell the compositor's input method
/// about it. An adopter calls ``Window/textInputDidChange()`` after each change of these
/// (an edit, a caret move, a scroll), so the input method learns it without polling.
/// Main-actor, like every responder.
@MainActor public protocol TextInput: AnyObject {
    /// The text as the user sees it now, with an input method's preedit inline (not
    /// including text whose paste is still on its way).
    var text: String { get }

    /// Whether an input method should compose into this responder now (the default: yes).
    var acceptsInputMethod: Bool { get }

    /// The text around the caret without the preedit (see ``SurroundingText``); nil when
    /// the responder does not tell it (the default).
    var surroundingText: SurroundingText? { get }

    /// The caret (or the preedit's cursor) in window points: where an input method puts its
    /// candidate window. The default is nil (not told).
    var textInputCursorRect: CGRect? { get }

    /// What the text is (password, number…); the default is ``TextContentType/normal``.
    var textContentType: TextContentType { get }

    /// Whether an input method's preedit is shown now (the default: no).
    var hasMarkedText: Bool { get }

    /// Applies what an input method asks (a preedit, a commit, a deletion around the
    /// caret), as a text-input protocol's `done` event makes it current. The default
    /// ignores it (a responder that takes no composed text).
    func applyInputMethodUpdate(_ update: InputMethodUpdate)

    /// The input method says which language it types (an RFC 3066 tag, such as "ko" or
    /// "zh-CN"; zwp_text_input_v1's `language`; empty: none). The default ignores it.
    func inputMethodDidChangeLanguage(_ language: String)

    /// The input method says which direction its text runs in (zwp_text_input_v1's
    /// `text_direction`). The default ignores it.
    func inputMethodDidChangeTextDirection(_ direction: TextInputDirection)

    /// The input method's activation on this responder ended; what the input method said
    /// about its text (language, direction) no longer holds, so the next input method, or
    /// the next activation, starts from none and automatic. Told by the window when the
    /// responder stops being its first responder (it resigns, or another responder takes
    /// focus) and when the window loses keyboard focus, and by a text-input protocol when
    /// the input method deactivates (zwp_text_input_v1 `leave`, v3 `leave`, disable). May
    /// come more than once for one ending. A responder that shows a preedit removes it too
    /// (the text controls do). The default tells the responder an empty language and
    /// ``TextInputDirection/automatic``.
    func inputMethodDidDeactivate()
}

extension TextInput {
    public var acceptsInputMethod: Bool { true }
    public var surroundingText: SurroundingText? { nil }
    public var textInputCursorRect: CGRect? { nil }
    public var textContentType: TextContentType { .normal }
    public var hasMarkedText: Bool { false }
    public func applyInputMethodUpdate(_ update: InputMethodUpdate) {}
    public func inputMethodDidChangeLanguage(_ language: String) {}
    public func inputMethodDidChangeTextDirection(_ direction: TextInputDirection) {}
    public func inputMethodDidDeactivate() {
        inputMethodDidChangeLanguage("")
        inputMethodDidChangeTextDirection(.automatic)
    }
}

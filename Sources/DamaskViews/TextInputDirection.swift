/// The direction an input method says its text runs in (zwp_text_input_v1's
/// `text_direction`): what a field may use to place its caret before any text is typed.
public enum TextInputDirection: Equatable, Sendable {
    /// From the text and the language (the default).
    case automatic
    case leftToRight
    case rightToLeft
}

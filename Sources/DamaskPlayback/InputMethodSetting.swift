import DamaskViews

/// What an input method says about the text it types, apart from an update: the `ime
/// language "TAG"` and `ime direction auto|ltr|rtl` script commands, as zwp_text_input_v1's
/// `language` and `text_direction` events tell a field (``TextInput``).
public enum InputMethodSetting: Equatable, Sendable {
    /// The language it types, a BCP 47 (RFC 3066) tag.
    case language(String)
    /// The direction its text runs in.
    case direction(TextInputDirection)

    /// The script word for a direction (`auto`, `ltr`, `rtl`), as the tests' v1 input method
    /// reads it too.
    static func word(for direction: TextInputDirection) -> String {
        switch direction {
        case .automatic: "auto"
        case .leftToRight: "ltr"
        case .rightToLeft: "rtl"
        }
    }

    /// The direction a script word names (`auto`, `ltr`, `rtl`), or nil.
    static func direction(named word: String) -> TextInputDirection? {
        [TextInputDirection.automatic, .leftToRight, .rightToLeft].first { Self.word(for: $0) == word }
    }

    /// Tells `input` the setting (what a text-input protocol does when the event arrives).
    @MainActor func apply(to input: any TextInput) {
        switch self {
        case .language(let tag): input.inputMethodDidChangeLanguage(tag)
        case .direction(let direction): input.inputMethodDidChangeTextDirection(direction)
        }
    }
}

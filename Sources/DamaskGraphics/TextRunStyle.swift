/// How a run of text is shaped apart from the line around it: in a language and a base
/// direction of its own. What a text field gives an input method's preedit when the input
/// method says which language it types and which way its text runs (zwp_text_input_v1's
/// `language` and `text_direction`), as a language attribute does in Pango.
///
/// The language picks fonts and glyph forms: fontconfig is asked for fonts of that language
/// for the scripts it writes (Han in "ja" prefers a Japanese font, in "zh-CN" a Simplified
/// Chinese one, in "ko" a Korean one), and HarfBuzz shapes with it (OpenType `locl`
/// forms). The direction is the run's bidi base direction: right to left, words of
/// left-to-right text read right to left; ``Direction/automatic`` takes it from the run's
/// first strong character.
public struct TextRunStyle: Hashable, Sendable {
    /// A run's base direction.
    public enum Direction: Hashable, Sendable {
        /// From the run's first strong character (left to right when it has none).
        case automatic
        case leftToRight
        case rightToLeft
    }

    /// The language, a BCP 47 (RFC 3066) tag such as "ko", "ja" or "zh-CN"; nil for none.
    public var language: String?
    /// The run's base direction.
    public var direction: Direction

    /// Creates a style; an empty language is none.
    public init(language: String? = nil, direction: Direction = .automatic) {
        self.language = language?.isEmpty == true ? nil : language
        self.direction = direction
    }
}

import DamaskGraphics
import DamaskViews

/// What the input method composing into a text control said about the text it types: its
/// language and its direction (zwp_text_input_v1's `language` and `text_direction`), and
/// the style its preedit is shaped in because of them.
///
/// ``TextField`` and ``TextView`` each keep one, so their preedits are shaped alike. They
/// last as long as the input method's activation on the control: when it ends (the control
/// resigns first responder, the input method deactivates, the window loses keyboard focus:
/// ``TextInput/inputMethodDidDeactivate()``) they go back to none and automatic, so the next
/// input method, or the same one in the next control, starts from nothing it did not say.
public struct InputMethodTextAttributes: Equatable, Sendable {
    /// The language the input method said it types (a BCP 47 / RFC 3066 tag such as "ko"
    /// or "zh-CN"), or nil.
    public private(set) var language: String?
    /// The direction the input method said its text runs in (``TextInputDirection/automatic``
    /// until it says otherwise).
    public private(set) var direction: TextInputDirection = .automatic

    /// No language, automatic direction: what a control holds before an input method speaks.
    public init() {}

    /// Whether the input method said nothing (no language, automatic direction).
    public var isEmpty: Bool { language == nil && direction == .automatic }

    /// Keeps `tag` as the language (an empty tag is none); returns whether it changed.
    public mutating func setLanguage(_ tag: String) -> Bool {
        let tag: String? = tag.isEmpty ? nil : tag
        guard tag != language else { return false }
        language = tag
        return true
    }

    /// Keeps `direction`; returns whether it changed.
    public mutating func setDirection(_ direction: TextInputDirection) -> Bool {
        guard direction != self.direction else { return false }
        self.direction = direction
        return true
    }

    /// Goes back to no language and automatic direction; returns whether anything changed.
    public mutating func reset() -> Bool {
        guard !isEmpty else { return false }
        self = InputMethodTextAttributes()
        return true
    }

    /// The style a preedit is shaped and laid out in: the language and the direction as a
    /// run of its own; nil while the input method said neither (the preedit is shaped with
    /// the text around it).
    public var preeditRunStyle: TextRunStyle? {
        guard !isEmpty else { return nil }
        let runDirection: TextRunStyle.Direction
        switch direction {
        case .automatic: runDirection = .automatic
        case .leftToRight: runDirection = .leftToRight
        case .rightToLeft: runDirection = .rightToLeft
        }
        return TextRunStyle(language: language, direction: runDirection)
    }

    /// The preedit at `utf8Range` of a line as the layout's styled run: nil when the range
    /// is nil or empty, or there is no style (``preeditRunStyle``).
    public func preeditRun(utf8Range: Range<Int>?) -> TextLayout.StyledRun? {
        guard let style = preeditRunStyle, let utf8Range, !utf8Range.isEmpty else { return nil }
        return TextLayout.StyledRun(utf8Range: utf8Range, style: style)
    }
}

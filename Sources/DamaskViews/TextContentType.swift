/// What a text field holds, told to an input method (`set_content_type`): its purpose and
/// hints, so that an on-screen keyboard shows digits for a number and an input method does
/// not learn or show a password.
public struct TextContentType: Equatable, Sendable {
    /// The kind of text a field expects.
    public enum Purpose: Equatable, Sendable, CaseIterable {
        case normal, alpha, digits, number, phone, url, email, name, password, pin, date, time, dateTime, terminal
    }

    /// Hints on how the input method should treat the text.
    public struct Hints: OptionSet, Equatable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Suggest completions.
        public static let completion = Hints(rawValue: 1 << 0)
        /// Check spelling (v1: auto correction).
        public static let spellcheck = Hints(rawValue: 1 << 1)
        /// Capitalize sentences.
        public static let autoCapitalization = Hints(rawValue: 1 << 2)
        public static let lowercase = Hints(rawValue: 1 << 3)
        public static let uppercase = Hints(rawValue: 1 << 4)
        public static let titlecase = Hints(rawValue: 1 << 5)
        /// The characters are not shown (a password).
        public static let hiddenText = Hints(rawValue: 1 << 6)
        /// The text must not be learnt or remembered by the input method.
        public static let sensitiveData = Hints(rawValue: 1 << 7)
        /// Only Latin characters are wanted.
        public static let latin = Hints(rawValue: 1 << 8)
        public static let multiline = Hints(rawValue: 1 << 9)
    }

    /// The field's purpose.
    public var purpose: Purpose
    /// The field's hints.
    public var hints: Hints

    /// Creates a content type (by default ordinary text without hints).
    public init(purpose: Purpose = .normal, hints: Hints = []) {
        self.purpose = purpose
        self.hints = hints
    }

    /// Ordinary text.
    public static let normal = TextContentType()
    /// A password: hidden, sensitive, not learnt.
    public static let password = TextContentType(purpose: .password, hints: [.hiddenText, .sensitiveData])
    /// A number.
    public static let number = TextContentType(purpose: .number)
}

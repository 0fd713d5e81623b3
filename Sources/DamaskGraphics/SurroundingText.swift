/// The text around the caret that a text field tells an input method about
/// (`set_surrounding_text` in zwp_text_input_v1 and v3), without the preedit.
///
/// Offsets are UTF-8 bytes of ``text``, as on the wire; the text holds at most the limit it
/// was made with (``defaultLimit`` unless asked otherwise; the protocols carry at most
/// ``maximumBytes``), cut at cluster boundaries around the caret, so a field of any length
/// sends a bounded message. Where a preedit is shown, the caret stands where the preedit
/// starts.
public struct SurroundingText: Equatable, Sendable {
    /// The largest text the protocols carry (their descriptions say 4000 bytes).
    public static let maximumBytes = 4000

    /// How much text around the caret the fields send (the default of
    /// ``EditableText/surroundingText(limit:)``): a quarter of ``maximumBytes``. Input
    /// methods read the few words around the caret (a syllable to compose again, a phrase to
    /// predict from); Qt's text input sends at most 1,000 characters. The text is sent
    /// after every edit, so at the end of a long line each key built, copied and sent four
    /// times this much for nothing (docs/performance.md, "Each letter loaded once, and less
    /// surrounding text").
    public static let defaultLimit = 1000

    /// The text around the caret (the whole text when it fits).
    public var text: String
    /// The caret in bytes of ``text``.
    public var cursor: Int
    /// The selection's other end in bytes of ``text`` (equal to ``cursor`` when nothing is
    /// selected).
    public var anchor: Int

    /// Creates surrounding text; `cursor` and `anchor` are clamped to `text`'s bytes.
    public init(text: String, cursor: Int, anchor: Int) {
        self.text = text
        let bytes = text.utf8.count
        self.cursor = min(max(cursor, 0), bytes)
        self.anchor = min(max(anchor, 0), bytes)
    }
}

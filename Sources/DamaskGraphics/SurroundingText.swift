/// The text around the caret that a text field tells an input method about
/// (`set_surrounding_text` in zwp_text_input_v1 and v3), without the preedit.
///
/// Offsets are UTF-8 bytes of ``text``, as on the wire; the text holds at most the
/// protocols' limit (``maximumBytes``), cut at cluster boundaries around the caret, so a
/// field of any length sends a bounded message. Where a preedit is shown, the caret stands
/// where the preedit starts.
public struct SurroundingText: Equatable, Sendable {
    /// The largest text the protocols carry (their descriptions say 4000 bytes).
    public static let maximumBytes = 4000

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

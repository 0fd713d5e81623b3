/// What an input method asks of a text field in one update: the state a text-input
/// protocol's `done` event makes current (zwp_text_input_v3; v1's `commit_state`).
///
/// Applied in the protocols' order (``EditableText/apply(_:)``): the old preedit goes, the
/// text around the caret is deleted, the commit string is inserted at the caret, and the new
/// preedit is inserted there with its cursor. Lengths and the cursor are UTF-8 bytes, as on
/// the wire; they are clamped to the text and widened to whole grapheme clusters.
public struct InputMethodUpdate: Equatable, Sendable {
    /// The text being composed, shown inline and not yet part of the text ("" for none).
    public var preedit: String
    /// The preedit's cursor (or selection) in bytes of ``preedit``; nil: hidden. A range
    /// that is not empty (zwp_text_input_v3's `cursor_begin` < `cursor_end`) is drawn
    /// highlighted when ``preeditStyles`` is empty, the caret at its start.
    public var preeditCursor: Range<Int>?
    /// How pieces of the preedit are drawn (byte ranges of ``preedit``; a later run wins
    /// where runs overlap). Empty: the whole preedit is underlined (``PreeditStyle/default``).
    public var preeditStyles: [PreeditStyleRun]
    /// Text to insert at the caret, replacing the selection.
    public var commit: String
    /// Bytes to delete before the caret and after it (before the commit is inserted).
    public var deleteBefore: Int
    public var deleteAfter: Int
    /// Where the caret and the selection's anchor go after the commit (zwp_text_input_v1's
    /// `cursor_position`): bytes from the end of the inserted commit string (negative:
    /// before it), clamped to the text and moved to cluster boundaries. nil: after the commit.
    public var caretAfterCommit: Int?
    public var anchorAfterCommit: Int?

    /// Creates an update; by default it changes nothing but removing the preedit.
    public init(
        preedit: String = "", preeditCursor: Range<Int>? = nil, commit: String = "", deleteBefore: Int = 0,
        deleteAfter: Int = 0, preeditStyles: [PreeditStyleRun] = [], caretAfterCommit: Int? = nil,
        anchorAfterCommit: Int? = nil
    ) {
        self.preedit = preedit
        self.preeditCursor = preeditCursor
        self.preeditStyles = preeditStyles
        self.caretAfterCommit = caretAfterCommit
        self.anchorAfterCommit = anchorAfterCommit ?? caretAfterCommit
        self.commit = commit
        self.deleteBefore = max(deleteBefore, 0)
        self.deleteAfter = max(deleteAfter, 0)
    }

    /// Decodes text an input method sent as bytes (a protocol string): invalid UTF-8
    /// becomes U+FFFD, and control characters other than tab are dropped (a field holds one
    /// line of printable text).
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let decoded = String(decoding: bytes, as: UTF8.self)
        let kept = decoded.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" }
        return String(String.UnicodeScalarView(kept))
    }
}

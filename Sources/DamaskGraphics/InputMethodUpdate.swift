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
    /// The preedit's cursor (or selection) in bytes of ``preedit``; nil: hidden.
    public var preeditCursor: Range<Int>?
    /// Text to insert at the caret, replacing the selection.
    public var commit: String
    /// Bytes to delete before the caret and after it (before the commit is inserted).
    public var deleteBefore: Int
    public var deleteAfter: Int

    /// Creates an update; by default it changes nothing but removing the preedit.
    public init(
        preedit: String = "", preeditCursor: Range<Int>? = nil, commit: String = "", deleteBefore: Int = 0,
        deleteAfter: Int = 0
    ) {
        self.preedit = preedit
        self.preeditCursor = preeditCursor
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

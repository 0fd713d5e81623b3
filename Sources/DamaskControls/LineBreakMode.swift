/// How a label that has more text than room shortens it (UIKit's `NSLineBreakMode`,
/// the truncating cases; wrapping is always at word boundaries, CJK between characters).
public enum LineBreakMode: Sendable, Equatable {
    /// The last line that fits ends in "…".
    case byTruncatingTail
    /// The last line that fits starts with "…" (it keeps the end of its text).
    case byTruncatingHead
    /// The last line that fits has "…" in its middle.
    case byTruncatingMiddle
    /// The lines that do not fit are left out, the last one cut at the edge.
    case byClipping
}

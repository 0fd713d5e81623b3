/// How corners between stroked segments are drawn.
public enum LineJoin: Sendable {
    /// The outer edges are extended to meet, unless that exceeds the miter limit
    /// (then the corner is bevelled).
    case miter
    /// The corner is rounded with a circle of diameter line width.
    case round
    /// The corner is cut straight across.
    case bevel
}

/// How the open ends of stroked subpaths are drawn.
public enum LineCap: Sendable {
    /// The stroke stops exactly at the end point.
    case butt
    /// A half-disc of diameter line width is added at each end.
    case round
    /// A half-square of side line width is added at each end.
    case square
}

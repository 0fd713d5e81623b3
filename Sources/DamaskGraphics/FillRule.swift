/// How a path's interior is decided where it overlaps itself.
public enum FillRule: Sendable {
    /// Non-zero winding: a point is inside when the path winds around it at all.
    case winding
    /// Even-odd: a point is inside when a ray from it crosses the path an odd number of times.
    case evenOdd
}

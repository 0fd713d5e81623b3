import CWaylandProtocols

/// An edge or corner of a window that an interactive resize starts from
/// (`xdg_toplevel.resize_edge`).
public enum ResizeEdge: UInt32, Sendable, CaseIterable {
    /// The top edge.
    case top = 1
    /// The bottom edge.
    case bottom = 2
    /// The left edge.
    case left = 4
    /// The top-left corner.
    case topLeft = 5
    /// The bottom-left corner.
    case bottomLeft = 6
    /// The right edge.
    case right = 8
    /// The top-right corner.
    case topRight = 9
    /// The bottom-right corner.
    case bottomRight = 10
}

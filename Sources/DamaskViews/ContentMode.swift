/// How a view's drawn contents follow a change of its bounds (UIKit's `UIView.ContentMode`).
///
/// The raw values are UIKit's. Every mode but ``redraw`` keeps the contents drawn once and
/// lets the compositor place them (no `draw(_:)` on a size change); ``redraw`` draws again
/// at the new size.
public enum ContentMode: Int, Sendable, Equatable, CaseIterable {
    /// Stretch the cached contents to the new bounds; no `draw(_:)`. The default.
    case scaleToFill = 0
    /// Scale the cached contents uniformly to fit, centred; no `draw(_:)`.
    case scaleAspectFit = 1
    /// Scale the cached contents uniformly to cover, centred; no `draw(_:)`.
    case scaleAspectFill = 2
    /// Redraw (call `draw(_:)`) whenever the bounds change size.
    case redraw = 3
    /// Keep the cached contents at their size, centred; no `draw(_:)`.
    case center = 4
    /// Keep the cached contents at their size, centred at the top edge.
    case top = 5
    /// Keep the cached contents at their size, centred at the bottom edge.
    case bottom = 6
    /// Keep the cached contents at their size, centred at the left edge.
    case left = 7
    /// Keep the cached contents at their size, centred at the right edge.
    case right = 8
    /// Keep the cached contents at their size, at the top left.
    case topLeft = 9
    /// Keep the cached contents at their size, at the top right.
    case topRight = 10
    /// Keep the cached contents at their size, at the bottom left.
    case bottomLeft = 11
    /// Keep the cached contents at their size, at the bottom right.
    case bottomRight = 12

    /// The layer gravity that places contents the way this mode does.
    var gravity: ContentsGravity {
        switch self {
        case .redraw, .scaleToFill: return .resize
        case .scaleAspectFit: return .resizeAspect
        case .scaleAspectFill: return .resizeAspectFill
        case .center: return .center
        case .top: return .top
        case .bottom: return .bottom
        case .left: return .left
        case .right: return .right
        case .topLeft: return .topLeft
        case .topRight: return .topRight
        case .bottomLeft: return .bottomLeft
        case .bottomRight: return .bottomRight
        }
    }
}

/// How a view's drawn contents follow a change of its bounds (UIKit's `UIView.ContentMode`).
public enum ContentMode: Sendable, Equatable {
    /// Redraw (call `draw(_:)`) whenever the bounds change size.
    case redraw
    /// Stretch the cached contents to the new bounds; no `draw(_:)`.
    case scaleToFill
    /// Scale the cached contents uniformly to fit, centred; no `draw(_:)`.
    case scaleAspectFit
    /// Scale the cached contents uniformly to cover, centred; no `draw(_:)`.
    case scaleAspectFill
    /// Keep the cached contents at their size, centred; no `draw(_:)`.
    case center
    /// Keep the cached contents at their size, at the top left; no `draw(_:)`.
    case topLeft

    /// The layer gravity that places contents the way this mode does.
    var gravity: ContentsGravity {
        switch self {
        case .redraw, .scaleToFill: return .resize
        case .scaleAspectFit: return .resizeAspect
        case .scaleAspectFill: return .resizeAspectFill
        case .center: return .center
        case .topLeft: return .topLeft
        }
    }
}

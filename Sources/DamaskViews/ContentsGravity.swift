import Foundation

/// How a layer places its ``Layer/contents`` inside its bounds when their sizes differ.
///
/// Coordinates are y-down, as everywhere in Damask: `.top` is the top edge of the bounds.
public enum ContentsGravity: Sendable, Equatable {
    /// Stretch to fill the bounds.
    case resize
    /// Scale uniformly to fit inside the bounds, centred.
    case resizeAspect
    /// Scale uniformly to cover the bounds, centred.
    case resizeAspectFill
    /// Natural size, centred.
    case center
    /// Natural size, centred at the top edge.
    case top
    /// Natural size, centred at the bottom edge.
    case bottom
    /// Natural size, centred at the left edge.
    case left
    /// Natural size, centred at the right edge.
    case right
    /// Natural size, in the top-left corner.
    case topLeft
    /// Natural size, in the top-right corner.
    case topRight
    /// Natural size, in the bottom-left corner.
    case bottomLeft
    /// Natural size, in the bottom-right corner.
    case bottomRight

    /// Returns where contents of `size` (points) go inside `bounds`.
    public func rect(forContentsOfSize size: CGSize, in bounds: CGRect) -> CGRect {
        switch self {
        case .resize:
            return bounds
        case .resizeAspect, .resizeAspectFill:
            guard size.width > 0, size.height > 0 else { return bounds }
            let sx = bounds.width / size.width
            let sy = bounds.height / size.height
            let factor = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let scaled = CGSize(width: size.width * factor, height: size.height * factor)
            return CGRect(
                x: bounds.midX - scaled.width / 2, y: bounds.midY - scaled.height / 2,
                width: scaled.width, height: scaled.height)
        default:
            let x: CGFloat
            let y: CGFloat
            switch self {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - size.width
            default: x = bounds.midX - size.width / 2
            }
            switch self {
            case .top, .topLeft, .topRight: y = bounds.minY
            case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - size.height
            default: y = bounds.midY - size.height / 2
            }
            return CGRect(origin: CGPoint(x: x, y: y), size: size)
        }
    }
}

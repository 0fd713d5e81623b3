import Foundation

/// Distances from a surface's edges inward, in points: the part of a surface that is not
/// the window proper (a client-side shadow and its resize handles).
public struct WindowInsets: Equatable, Sendable {
    /// Inset from the top edge.
    public var top: CGFloat
    /// Inset from the left edge.
    public var left: CGFloat
    /// Inset from the bottom edge.
    public var bottom: CGFloat
    /// Inset from the right edge.
    public var right: CGFloat

    /// Creates insets.
    public init(top: CGFloat = 0, left: CGFloat = 0, bottom: CGFloat = 0, right: CGFloat = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every side.
    public init(all value: CGFloat) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No insets.
    public static let zero = WindowInsets()

    /// The total horizontal and vertical insets.
    public var total: CGSize { CGSize(width: left + right, height: top + bottom) }

    /// The size of a surface whose window proper is `window` (at least 1×1 point): the
    /// window plus the insets.
    func surfaceSize(forWindowSize window: CGSize) -> CGSize {
        CGSize(width: max(1, window.width) + total.width, height: max(1, window.height) + total.height)
    }

    /// The size of the window proper in a surface of `surface`: the surface without the insets.
    func windowSize(forSurfaceSize surface: CGSize) -> CGSize {
        CGSize(width: surface.width - total.width, height: surface.height - total.height)
    }

    /// `rect` shrunk by the insets.
    public func inset(_ rect: CGRect) -> CGRect {
        CGRect(
            x: rect.minX + left, y: rect.minY + top,
            width: max(0, rect.width - left - right), height: max(0, rect.height - top - bottom))
    }
}

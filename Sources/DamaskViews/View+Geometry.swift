import DamaskGraphics
import Foundation

extension View {
    /// Converts `point` from this view's coordinates to `view`'s (the window's when `nil`).
    public func convert(_ point: CGPoint, to view: View?) -> CGPoint {
        layer.convert(point, to: view?.layer)
    }

    /// Converts `point` from `view`'s coordinates (the window's when `nil`) to this view's.
    public func convert(_ point: CGPoint, from view: View?) -> CGPoint {
        layer.convert(point, from: view?.layer)
    }

    /// Converts `rect` from this view's coordinates to `view`'s (bounding box).
    public func convert(_ rect: CGRect, to view: View?) -> CGRect {
        layer.convert(rect, to: view?.layer)
    }

    /// Converts `rect` from `view`'s coordinates to this view's (bounding box).
    public func convert(_ rect: CGRect, from view: View?) -> CGRect {
        layer.convert(rect, from: view?.layer)
    }

    /// The cursor that shows over this view: its own ``cursor`` or the nearest
    /// superview's, else the arrow.
    public var effectiveCursor: PointerCursor {
        var view: View? = self
        while let current = view {
            if let cursor = current.cursor { return cursor }
            view = current.superview
        }
        return .arrow
    }

    /// Returns this view or the first descendant (depth first) whose ``tag`` is `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }
}

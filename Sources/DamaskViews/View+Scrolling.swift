import Foundation

extension View {
    /// Moves the view's drawn contents by `dx`, `dy` points and marks only the strip the
    /// move uncovers for redrawing: a scroll that costs what is new, not a full redraw.
    /// See ``Layer/scrollContents(dx:dy:)``.
    public func scrollContents(dx: CGFloat, dy: CGFloat) {
        layer.scrollContents(dx: dx, dy: dy)
    }

    /// Moves the view's drawn contents inside `rect` (view coordinates) by `dx`, `dy` points
    /// and marks only the strip of `rect` the move uncovers; what lies outside `rect` (a
    /// border, a padding) stays as drawn. See ``Layer/scrollContents(in:dx:dy:)``.
    public func scrollContents(in rect: CGRect, dx: CGFloat, dy: CGFloat) {
        layer.scrollContents(in: rect, dx: dx, dy: dy)
    }
}

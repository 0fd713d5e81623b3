import DamaskGraphics
import Foundation

/// The visible mark around the view with keyboard focus: four thin opaque strips, one per
/// side, placed over the window's content.
///
/// The strips are views of their own, so moving the ring damages exactly the strips' old
/// and new rectangles (never the focused control's inside), and they take no input
/// (`isUserInteractionEnabled` is `false`). Owned by its ``Window``, which calls
/// ``update(in:)`` whenever the first responder changes and after each layout pass.
/// Main-actor.
@MainActor final class FocusRing {
    /// The ring's colour.
    static let color = Color(red: 0.18, green: 0.44, blue: 0.95)
    /// The strips' thickness in points.
    static let thickness: CGFloat = 2
    /// The gap between the focused view's bounds and the ring, in points.
    static let outset: CGFloat = 2

    /// Top, bottom, left, right.
    private let strips: [View] = (0..<4).map { _ in
        let strip = View(frame: .zero)
        strip.backgroundColor = FocusRing.color
        strip.isOpaque = true
        strip.isUserInteractionEnabled = false
        strip.isHidden = true
        return strip
    }
    /// The view the ring surrounds now (held weakly: the window's tree owns it).
    private(set) weak var target: View?

    /// The ring's outer rectangle in the content view's coordinates, when shown.
    private(set) var frame: CGRect?

    /// Places the ring around `window`'s focused view (the first responder, when it is in
    /// the key-view loop), or hides it.
    func update(in window: Window) {
        let root = window.contentView
        guard let view = window.firstResponder as? View, view.canBecomeFocused, view.wantsFocusRing,
            view.window === window, !view.isHidden
        else {
            hide()
            return
        }
        target = view
        if strips[0].superview !== root || root.subviews.last !== strips[3] {
            for strip in strips { root.addSubview(strip) }
        }
        // Around the view, but inside the window: a view along the window's edge (a
        // sidebar) gets its ring just inside its own edges there.
        let around = view.convert(view.bounds, to: root).insetBy(dx: -Self.outset - Self.thickness, dy: -Self.outset - Self.thickness)
        let outer = around.intersection(root.bounds).integral
        guard !outer.isNull, outer.width > 2 * Self.thickness, outer.height > 2 * Self.thickness else {
            hide()
            return
        }
        let inner = outer.insetBy(dx: Self.thickness, dy: Self.thickness)
        frame = outer
        let t = Self.thickness
        let rects = [
            CGRect(x: outer.minX, y: outer.minY, width: outer.width, height: t),
            CGRect(x: outer.minX, y: outer.maxY - t, width: outer.width, height: t),
            CGRect(x: outer.minX, y: inner.minY, width: t, height: inner.height),
            CGRect(x: inner.maxX, y: inner.minY, width: t, height: inner.height),
        ]
        for (strip, rect) in zip(strips, rects) {
            if strip.frame != rect { strip.frame = rect }
            if strip.isHidden { strip.isHidden = false }
        }
    }

    /// Hides the ring.
    func hide() {
        target = nil
        frame = nil
        for strip in strips where !strip.isHidden { strip.isHidden = true }
    }
}

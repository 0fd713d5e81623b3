import DamaskGraphics
import DamaskViews
import Foundation

/// One strip of a window's soft shadow (top, bottom, left or right of the window).
///
/// The shadow is drawn by four strips instead of one view under the whole window, so that
/// no backing store covers the window's body. Each strip draws the same shadow function,
/// shifted to its own position. Main-actor, like every view.
open class ShadowView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    /// The window rectangle that casts the shadow, in the superview's coordinates.
    public var windowRect: CGRect = .zero {
        didSet { if windowRect != oldValue { setNeedsDisplay() } }
    }
    /// The shadow's reach beyond the window, in points.
    public var radius: CGFloat = 10 {
        didSet { if radius != oldValue { setNeedsDisplay() } }
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current, radius > 0 else { return }
        context.translateBy(x: -frame.minX, y: -frame.minY)
        // Nested rounded rectangles, each adding a little opacity: darkest at the window's
        // edge, fading out over `radius`, slightly offset downwards like a light from above.
        let steps = Int(radius.rounded(.up))
        for step in 0..<steps {
            let spread = radius - CGFloat(step)
            let ring = windowRect.insetBy(dx: -spread, dy: -spread).offsetBy(dx: 0, dy: 1)
            context.setFillColor(Color(white: 0, alpha: 0.018))
            context.fill(Path(roundedRect: ring, cornerRadius: spread + 2))
        }
    }

    open override func point(inside point: CGPoint, with event: Event?) -> Bool { false }
}

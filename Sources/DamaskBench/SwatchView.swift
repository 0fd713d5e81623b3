import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws: a filled rounded square whose colour changes each time it is
/// invalidated with ``advance()`` or pressed. The unit of work of the views, damage and
/// latency suites.
final class SwatchView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    private var step = 0

    /// Changes the colour and marks the whole view for redraw.
    func advance() {
        step += 1
        setNeedsDisplay()
    }

    override func pointerDown(_ event: PointerEvent) {
        advance()
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let hue = CGFloat(step % 12) / 12
        context.setFillColor(Color(red: 0.3 + 0.6 * hue, green: 0.5, blue: 0.9 - 0.6 * hue, alpha: 1))
        context.fill(Path(roundedRect: bounds.insetBy(dx: 1, dy: 1), cornerRadius: 3))
    }
}

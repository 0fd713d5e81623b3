import DamaskGraphics
import DamaskViews
import Foundation

/// A rounded tile with an arrow pointing right, drawn once: the `motion` scene slides,
/// fades, rotates and scales it with animations, which only recomposite it (the arrow
/// shows the rotation). Counts its draws. Main-actor.
final class MotionTileView: View {
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0
    private let color: Color

    /// Creates a tile of `color`.
    init(frame: CGRect, color: Color) {
        self.color = color
        super.init(frame: frame)
        isAccessibilityElement = true  // a picture; the scene names each tile
        accessibilityTraits = [.image, .animation]
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(color)
        context.fill(Path(roundedRect: bounds, cornerRadius: 12))
        let w = bounds.width
        let h = bounds.height
        var arrow = Path()
        arrow.move(to: CGPoint(x: w * 0.2, y: h * 0.42))
        arrow.addLine(to: CGPoint(x: w * 0.55, y: h * 0.42))
        arrow.addLine(to: CGPoint(x: w * 0.55, y: h * 0.28))
        arrow.addLine(to: CGPoint(x: w * 0.82, y: h * 0.5))
        arrow.addLine(to: CGPoint(x: w * 0.55, y: h * 0.72))
        arrow.addLine(to: CGPoint(x: w * 0.55, y: h * 0.58))
        arrow.addLine(to: CGPoint(x: w * 0.2, y: h * 0.58))
        arrow.closeSubpath()
        context.setFillColor(.white)
        context.fill(arrow)
    }
}

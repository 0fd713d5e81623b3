import DamaskGraphics
import DamaskViews
import Foundation

/// The demo window's content until the scenes arrive: a background filled with pixman
/// and the seeds' triangle.
final class DemoContentView: View {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.97)
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(Color(red: 0.20, green: 0.45, blue: 0.85))
        context.fill(CGRect(x: 20, y: 20, width: bounds.width - 40, height: 40))
        context.setStrokeColor(.darkGray)
        context.setLineWidth(2)
        let area = bounds.insetBy(dx: 40, dy: 80)
        context.move(to: CGPoint(x: area.midX, y: area.minY + 10))
        context.addLine(to: CGPoint(x: area.maxX - 10, y: area.maxY - 10))
        context.addLine(to: CGPoint(x: area.minX + 10, y: area.maxY - 10))
        context.closePath()
        context.strokePath()
    }
}

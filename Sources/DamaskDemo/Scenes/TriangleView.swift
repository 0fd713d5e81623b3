import DamaskGraphics
import DamaskViews
import Foundation

/// The seeds' triangle: a dark grey outline (light grey in the dark appearance), 2 points
/// wide, inset 10 points from the bounds.
///
/// The seed computes the corners from `rect`; here they come from the bounds, so a
/// partial redraw draws the same triangle (the context is clipped to `rect` anyway).
/// Main-actor.
final class TriangleView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0

    override func draw(_ rect: CGRect) {
        drawCount += 1
        guard let context = GraphicsContext.current else { return }
        let area = bounds
        context.setStrokeColor(DemoStyle.panelStroke)
        context.setLineWidth(2.0)
        context.move(to: CGPoint(x: area.midX, y: area.minY + 10))
        context.addLine(to: CGPoint(x: area.maxX - 10, y: area.maxY - 10))
        context.addLine(to: CGPoint(x: area.minX + 10, y: area.maxY - 10))
        context.closePath()
        context.strokePath()
    }
}

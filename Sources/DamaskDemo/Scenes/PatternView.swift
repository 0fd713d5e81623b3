import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws a circle, its diagonals and a caption, sized to its bounds: stretched
/// cached contents are easy to tell from a redraw at the new size.
///
/// Main-actor.
final class PatternView: View {
    /// The caption drawn inside, e.g. `.redraw`.
    let caption: String
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0

    /// Creates a pattern view with `caption`.
    init(frame: CGRect, caption: String) {
        self.caption = caption
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        backgroundColor = DemoStyle.panel
    }

    /// Follows a new appearance: its panel colour, drawn again.
    func appearanceDidChange() {
        backgroundColor = DemoStyle.panel
        setNeedsDisplay()
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        guard let context = GraphicsContext.current else { return }
        let area = bounds.insetBy(dx: 12, dy: 12)
        context.setStrokeColor(Color(red: 0.26, green: 0.47, blue: 0.85))
        context.setLineWidth(4)
        context.strokeEllipse(in: area)
        context.setStrokeColor(DemoStyle.panelGuide)
        context.setLineWidth(1)
        context.strokeLineSegments(between: [
            CGPoint(x: area.minX, y: area.minY), CGPoint(x: area.maxX, y: area.maxY),
            CGPoint(x: area.maxX, y: area.minY), CGPoint(x: area.minX, y: area.maxY),
        ])
        let font = DemoStyle.buttonFont
        let width = font.measure(caption).width
        context.draw(
            caption, at: CGPoint(x: (bounds.midX - width / 2).rounded(), y: (bounds.midY + 5).rounded()),
            font: font, color: DemoStyle.text)
    }
}

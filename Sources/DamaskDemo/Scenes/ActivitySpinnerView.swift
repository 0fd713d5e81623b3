import DamaskGraphics
import DamaskViews
import Foundation

/// A twelve-spoke activity indicator; ``phase`` selects the brightest spoke.
///
/// A phase change invalidates the spinner's own bounds and nothing else. Main-actor.
final class ActivitySpinnerView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
        isAccessibilityElement = true  // a busy indicator while shown
        accessibilityTraits = [.progressIndicator, .busy]
        accessibilityLabel = "Loading"
    }
    /// The number of spokes.
    static let spokeCount = 12

    /// The brightest spoke, 0 ..< ``spokeCount``.
    var phase = 0 {
        didSet {
            phase = ((phase % Self.spokeCount) + Self.spokeCount) % Self.spokeCount
            if phase != oldValue { setNeedsDisplay() }
        }
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let outer = min(bounds.width, bounds.height) / 2 - 2
        let inner = outer * 0.45
        context.setLineWidth(3)
        context.setLineCap(.round)
        for spoke in 0..<Self.spokeCount {
            let age = (phase - spoke + Self.spokeCount) % Self.spokeCount
            let angle = CGFloat(spoke) * 2 * .pi / CGFloat(Self.spokeCount) - .pi / 2
            context.setStrokeColor(DemoStyle.text.withAlphaComponent(1 - CGFloat(age) * 0.07))
            context.beginPath()
            context.move(to: CGPoint(x: center.x + inner * cos(angle), y: center.y + inner * sin(angle)))
            context.addLine(to: CGPoint(x: center.x + outer * cos(angle), y: center.y + outer * sin(angle)))
            context.strokePath()
        }
    }
}

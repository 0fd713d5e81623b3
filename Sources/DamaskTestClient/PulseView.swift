import DamaskGraphics
import DamaskViews
import Foundation

/// A small square that redraws itself in a new shade on every ``advance()``: the moving
/// part of the reliability commands' animation, so that each frame really draws, composites
/// and commits. Main-actor, like every view.
final class PulseView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    private(set) var step = 0

    /// Moves to the next shade and marks the whole view dirty.
    func advance() {
        step += 1
        setNeedsDisplay()
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let level = Double(step % 64) / 63
        context.setFillColor(Color(red: level, green: 1 - level, blue: 0.5, alpha: 1))
        context.fill(bounds)
    }
}

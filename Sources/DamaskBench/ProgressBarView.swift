import DamaskGraphics
import DamaskViews
import Foundation

/// A progress bar that redraws itself (the whole bar) when its value changes.
final class ProgressBarView: View {
    /// Creates the view with UIKit's `.redraw` content mode: it draws to its bounds, so a
    /// new size redraws it instead of stretching the old pixels.
    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
    }
    /// The fraction done, 0…1.
    var progress: CGFloat = 0 {
        didSet { setNeedsDisplay() }
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(Color(red: 0.85, green: 0.85, blue: 0.88, alpha: 1))
        context.fill(Path(roundedRect: bounds, cornerRadius: bounds.height / 2))
        var done = bounds
        done.size.width = max(bounds.height, bounds.width * min(1, max(0, progress)))
        context.setFillColor(Color(red: 0.2, green: 0.5, blue: 0.95, alpha: 1))
        context.fill(Path(roundedRect: done, cornerRadius: bounds.height / 2))
    }
}

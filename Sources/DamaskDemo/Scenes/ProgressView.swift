import DamaskGraphics
import DamaskViews
import Foundation

/// The seeds' `ProgressView`: a light grey track filled in green up to ``progress``.
///
/// Setting ``progress`` only records: it invalidates the span between the old and the new
/// end of the green fill (`setNeedsDisplay(_:)`), so however often it changes in one turn
/// the view draws once, with the last value, and only the changed part of the bar.
/// Main-actor.
final class ProgressView: View {
    /// The fraction filled, 0…1 (values outside are clamped).
    var progress: CGFloat = 0 {
        didSet {
            progress = min(max(progress, 0), 1)
            guard progress != oldValue else { return }
            setCount += 1
            let old = fillEdge(for: oldValue)
            let new = fillEdge(for: progress)
            setNeedsDisplay(
                CGRect(x: min(old, new), y: bounds.minY, width: abs(new - old), height: bounds.height))
            AccessibilityNotification.valueChanged(self).post()
        }
    }
    /// How many times ``progress`` changed.
    private(set) var setCount = 0
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0
    /// The rect of the last ``draw(_:)``, in view points.
    private(set) var lastDrawRect = CGRect.null
    /// Called at the end of every draw (for counters shown next to the bar).
    var onDraw: @MainActor (ProgressView) -> Void = { _ in }

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isOpaque = true
        isAccessibilityElement = true  // a progress bar (ProgressView+Accessibility.swift)
        accessibilityTraits = [.progressIndicator, .updatesFrequently]
        accessibilityLabel = "Progress"
    }

    override var accessibilityValue: String? {
        get { super.accessibilityValue ?? "\(Int((progress * 100).rounded())) %" }
        set { super.accessibilityValue = newValue }
    }

    /// The x coordinate where the green fill ends for `value`.
    func fillEdge(for value: CGFloat) -> CGFloat {
        bounds.minX + bounds.width * value
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        drawCount += 1
        lastDrawRect = rect
        // Background.
        context.setFillColor(.lightGray)
        context.fill(rect)
        // The bar: measured against the bounds, so a partial redraw matches a full one.
        let fillRect = CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width * progress, height: bounds.height)
        context.setFillColor(.systemGreen)
        context.fill(fillRect.intersection(rect))
        onDraw(self)
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A bar that fills up to ``progress`` (UIKit's `UIProgressView`).
///
/// Setting ``progress`` only records: it invalidates the span between the old and the new
/// end of the fill (`setNeedsDisplay(_:)`), so however often it changes in one turn the
/// view draws once, with the last value, and only the changed part of the bar. Its track
/// and fill follow the appearance (``trackTintColor`` and ``progressTintColor`` override
/// them). Main-actor.
open class ProgressView: View, AppearanceFollowing, AppearanceOverriding {
    /// The fraction filled, 0…1 (values outside are clamped).
    open var progress: CGFloat = 0 {
        didSet {
            progress = min(max(progress, 0), 1)
            guard progress != oldValue else { return }
            setCount += 1
            let old = fillEdge(for: oldValue)
            let new = fillEdge(for: progress)
            setNeedsDisplay(CGRect(x: min(old, new), y: bounds.minY, width: abs(new - old), height: bounds.height))
            AccessibilityNotification.valueChanged(self).post()
        }
    }
    /// The track's colour; nil: the palette's.
    open var trackTintColor: Color? { didSet { setNeedsDisplay() } }
    /// The fill's colour; nil: the palette's.
    open var progressTintColor: Color? { didSet { setNeedsDisplay() } }
    /// The appearance this bar draws in; nil: inherited.
    open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { setNeedsDisplay() } }
    }
    /// How many times ``progress`` changed.
    public private(set) var setCount = 0
    /// How many times ``draw(_:)`` ran.
    public private(set) var drawCount = 0
    /// The rect of the last ``draw(_:)``, in view points.
    public private(set) var lastDrawRect = CGRect.null
    /// Called at the end of every draw (for counters shown next to the bar).
    public var onDraw: @MainActor (ProgressView) -> Void = { _ in }

    /// Creates a bar in `frame` at `progress`.
    public init(frame: CGRect = .zero, progress: CGFloat = 0) {
        self.progress = min(max(progress, 0), 1)
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isOpaque = true
        isAccessibilityElement = true  // a progress bar
        accessibilityTraits = [.progressIndicator, .updatesFrequently]
        accessibilityLabel = "Progress"
        AppearanceRegistry.shared.register(self)
    }

    open override var accessibilityValue: String? {
        get { super.accessibilityValue ?? "\(Int((progress * 100).rounded())) %" }
        set { super.accessibilityValue = newValue }
    }

    /// Redraws in the new appearance.
    open func appearanceDidChange() { setNeedsDisplay() }

    /// A hundred and fifty points by six; stacks stretch it.
    open override var intrinsicContentSize: CGSize { CGSize(width: View.noIntrinsicMetric, height: 6) }

    /// The x coordinate where the fill ends for `value`.
    public func fillEdge(for value: CGFloat) -> CGFloat {
        bounds.minX + bounds.width * value
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        drawCount += 1
        lastDrawRect = rect
        let palette = effectiveAppearance.palette
        context.setFillColor(trackTintColor ?? palette.track)
        context.fill(rect)
        // The bar: measured against the bounds, so a partial redraw matches a full one.
        let fillRect = CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width * progress, height: bounds.height)
        context.setFillColor(progressTintColor ?? palette.progressFill)
        context.fill(fillRect.intersection(rect))
        onDraw(self)
    }
}

extension ProgressView: AccessibilityValueProviding {
    /// 0…100 %, not settable by an assistive technology (the bar shows progress).
    public var accessibilityNumericValue: Double { Double(progress) * 100 }
    public var accessibilityValueRange: ClosedRange<Double> { 0...100 }
}

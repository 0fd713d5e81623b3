import DamaskGraphics
import DamaskViews
import Foundation

/// A twelve-spoke busy indicator (UIKit's `UIActivityIndicatorView`).
///
/// ``startAnimating()`` turns it with a ``FrameTimer`` (one step per ``stepInterval``, not
/// a display link: it wakes only when a spoke moves) while it is in a window;
/// ``stopAnimating()`` stops it and, with ``hidesWhenStopped``, hides it. Each step
/// advances ``phase`` and invalidates the indicator's own bounds, nothing else. The spokes
/// take the palette's text colour unless ``color`` is set. Main-actor.
open class ActivityIndicatorView: View, AppearanceFollowing, AppearanceOverriding {
    /// The number of spokes.
    public static let spokeCount = 12
    /// The time between steps, in milliseconds.
    public static let stepInterval: UInt32 = 80

    /// The brightest spoke, 0 ..< ``spokeCount``.
    open var phase = 0 {
        didSet {
            phase = ((phase % Self.spokeCount) + Self.spokeCount) % Self.spokeCount
            if phase != oldValue { setNeedsDisplay() }
        }
    }
    /// The spokes' colour; nil: the palette's text colour.
    open var color: Color? { didSet { setNeedsDisplay() } }
    /// The spokes' width in points.
    open var lineWidth: CGFloat = 3 { didSet { if lineWidth != oldValue { setNeedsDisplay() } } }
    /// Whether ``stopAnimating()`` hides the indicator (and starting shows it).
    open var hidesWhenStopped = true
    /// The appearance this indicator draws in; nil: inherited.
    open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { setNeedsDisplay() } }
    }
    /// Whether it turns.
    public private(set) var isAnimating = false

    private var timer: FrameTimer?

    /// Creates an indicator in `frame` (stopped; shown until stopped once when
    /// ``hidesWhenStopped``, as in UIKit where the flag hides it only on stop).
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        contentMode = .redraw
        isOpaque = false
        isAccessibilityElement = true  // a busy indicator while shown
        accessibilityTraits = [.progressIndicator, .busy]
        accessibilityLabel = "Loading"
        AppearanceRegistry.shared.register(self)
    }

    /// Redraws in the new appearance.
    open func appearanceDidChange() { if color == nil { setNeedsDisplay() } }

    /// Twenty points square.
    open override var intrinsicContentSize: CGSize { CGSize(width: 20, height: 20) }

    /// Starts turning (a timer in the window; one starts when it joins one).
    open func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        if hidesWhenStopped { isHidden = false }
        startTimer()
    }

    /// Stops turning (and hides when ``hidesWhenStopped``).
    open func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        timer?.invalidate()
        timer = nil
        if hidesWhenStopped { isHidden = true }
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        timer?.invalidate()
        timer = nil
        if isAnimating { startTimer() }
    }

    private func startTimer() {
        guard let window, timer == nil else { return }
        timer = FrameTimer(window: window, interval: Self.stepInterval, repeats: true) { [weak self] _ in
            self?.phase += 1
        }
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let outer = min(bounds.width, bounds.height) / 2 - 2
        let inner = outer * 0.45
        let base = color ?? effectiveAppearance.palette.text
        context.setLineWidth(lineWidth)
        context.setLineCap(.round)
        for spoke in 0..<Self.spokeCount {
            let age = (phase - spoke + Self.spokeCount) % Self.spokeCount
            let angle = CGFloat(spoke) * 2 * .pi / CGFloat(Self.spokeCount) - .pi / 2
            context.setStrokeColor(base.withAlphaComponent(1 - CGFloat(age) * 0.07))
            context.beginPath()
            context.move(to: CGPoint(x: center.x + inner * cos(angle), y: center.y + inner * sin(angle)))
            context.addLine(to: CGPoint(x: center.x + outer * cos(angle), y: center.y + outer * sin(angle)))
            context.strokePath()
        }
    }
}

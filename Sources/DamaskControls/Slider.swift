import DamaskGraphics
import DamaskViews
import Foundation

/// A horizontal slider: a track filled with the accent up to a round knob at ``value``
/// (UIKit's `UISlider`).
///
/// A press on the track jumps the knob there and a drag moves it; ← → (and ↓ ↑) on the
/// focused slider step by a tenth of the range, Home and End go to the ends. Every change
/// the user makes sends ``ControlEvent/valueChanged`` (continuously while dragging, or
/// once on release when ``isContinuous`` is false). A change redraws the slider once.
/// Main-actor.
open class Slider: Control {
    /// The value, ``minimumValue``…``maximumValue`` (values outside are clamped).
    open var value: Float {
        get { storedValue }
        set { setValue(newValue) }
    }
    private var storedValue: Float = 0
    /// The least value.
    open var minimumValue: Float = 0 {
        didSet { setValue(storedValue); setNeedsDisplay() }
    }
    /// The greatest value.
    open var maximumValue: Float = 1 {
        didSet { setValue(storedValue); setNeedsDisplay() }
    }
    /// Whether a drag sends ``ControlEvent/valueChanged`` at every move (true) or once
    /// when released.
    open var isContinuous = true
    /// The knob's diameter in points.
    public static let knobDiameter: CGFloat = 18
    /// The track's height in points.
    public static let trackHeight: CGFloat = 4

    /// The track, fill and knob shapes sliders fill, shared by every slider (see
    /// ``ShapePathCache``): sliders of one width share their track, and those at one value
    /// their fill and knob.
    static let shapes = ShapePathCache(capacity: 48)

    /// Whether a value changed during the current drag (for a non-continuous slider).
    private var changedWhileTracking = false

    /// Creates a slider in `frame` at `value`.
    public init(frame: CGRect = .zero, value: Float = 0, minimumValue: Float = 0, maximumValue: Float = 1) {
        super.init(frame: frame)
        self.minimumValue = minimumValue
        self.maximumValue = max(maximumValue, minimumValue)
        storedValue = min(max(value, minimumValue), self.maximumValue)
        isAccessibilityElement = true
        accessibilityTraits = .adjustable
    }

    /// Sets the value (clamped), redrawing when it changed; no event is sent (as UIKit's
    /// `setValue(_:animated:)`).
    open func setValue(_ newValue: Float) {
        let clamped = min(max(newValue, minimumValue), max(maximumValue, minimumValue))
        guard clamped != storedValue else { return }
        storedValue = clamped
        setNeedsDisplay()
        AccessibilityNotification.valueChanged(self).post()
    }

    /// The fraction of the range the value is at, 0…1.
    public var fraction: CGFloat {
        maximumValue > minimumValue ? CGFloat((storedValue - minimumValue) / (maximumValue - minimumValue)) : 0
    }

    /// The knob's centre x for the current value.
    public var knobCenterX: CGFloat {
        let radius = Self.knobDiameter / 2
        return radius + (bounds.width - 2 * radius) * fraction
    }

    /// A user's change: sets and sends ``ControlEvent/valueChanged`` when it changed.
    func userSetValue(_ newValue: Float) {
        let before = storedValue
        setValue(newValue)
        guard storedValue != before else { return }
        if isTracking && !isContinuous {
            changedWhileTracking = true
        } else {
            sendActions(for: .valueChanged)
        }
    }

    private func value(at point: CGPoint) -> Float {
        let radius = Self.knobDiameter / 2
        let usable = max(bounds.width - 2 * radius, 1)
        let fraction = Float(min(max((point.x - radius) / usable, 0), 1))
        return minimumValue + fraction * (maximumValue - minimumValue)
    }

    /// A press does not "click": it drags the knob.
    open override var triggersPrimaryActionOnClick: Bool { false }

    open override func beginTracking(_ event: PointerEvent) {
        changedWhileTracking = false
        userSetValue(value(at: event.location(in: self)))
    }

    open override func continueTracking(_ event: PointerEvent) {
        userSetValue(value(at: event.location(in: self)))
    }

    open override func endTracking(_ event: PointerEvent) {
        if changedWhileTracking { sendActions(for: .valueChanged) }
        changedWhileTracking = false
    }

    /// A step: a tenth of the range.
    private var step: Float { (maximumValue - minimumValue) / 10 }

    open override func keyDown(_ event: KeyEvent) {
        guard isEnabled, event.modifiers.intersection([.control, .alt, .logo]).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0xff51, 0xff54: userSetValue(storedValue - step)  // Left, Down
        case 0xff53, 0xff52: userSetValue(storedValue + step)  // Right, Up
        case 0xff50: userSetValue(minimumValue)  // Home
        case 0xff57: userSetValue(maximumValue)  // End
        default: super.keyDown(event)
        }
    }

    open override func accessibilityIncrement() { userSetValue(storedValue + step) }
    open override func accessibilityDecrement() { userSetValue(storedValue - step) }

    open override var accessibilityValue: String? {
        get { super.accessibilityValue ?? "\(Int((fraction * 100).rounded())) %" }
        set { super.accessibilityValue = newValue }
    }

    /// A hundred and fifty points wide, the knob's height.
    open override var intrinsicContentSize: CGSize {
        CGSize(width: 150, height: Self.knobDiameter + 4)
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let palette = self.palette
        let radius = Self.knobDiameter / 2
        let track = CGRect(
            x: radius, y: ((bounds.height - Self.trackHeight) / 2).rounded(),
            width: max(bounds.width - 2 * radius, 0), height: Self.trackHeight)
        let shapes = Self.shapes
        context.setFillColor(palette.track)
        context.fill(shapes.roundedRect(track, cornerRadius: Self.trackHeight / 2))
        let knobX = knobCenterX
        context.setFillColor(isEnabled ? (isHighlighted ? palette.accentPressed : palette.accent) : palette.disabledFace)
        context.fill(shapes.roundedRect(CGRect(x: track.minX, y: track.minY, width: knobX - track.minX, height: track.height), cornerRadius: Self.trackHeight / 2))
        let knob = CGRect(x: knobX - radius, y: (bounds.height / 2 - radius).rounded(), width: Self.knobDiameter, height: Self.knobDiameter)
        context.setFillColor(palette.border)
        context.fill(shapes.ellipse(in: knob))
        context.setFillColor(isEnabled ? palette.knob : palette.disabledFace)
        context.fill(shapes.ellipse(in: knob.insetBy(dx: 1, dy: 1)))
        if isFocused {
            context.setStrokeColor(palette.accent)
            context.setLineWidth(2)
            context.strokeEllipse(in: knob.insetBy(dx: 1, dy: 1))
        }
    }
}

extension Slider: AccessibilityValueProviding {
    public var accessibilityNumericValue: Double { Double(storedValue) }
    public var accessibilityValueRange: ClosedRange<Double> { Double(minimumValue)...Double(max(maximumValue, minimumValue)) }

    /// An assistive technology's new value: set as the user's, with its event.
    public func setAccessibilityNumericValue(_ value: Double) -> Bool {
        guard isEnabled else { return false }
        userSetValue(Float(value))
        return true
    }
}

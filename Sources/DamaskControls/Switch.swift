import DamaskGraphics
import DamaskViews
import Foundation

/// An on/off switch: a pill-shaped track, the accent when on, with a round knob at the
/// side of its state (UIKit's `UISwitch`).
///
/// A click, or Space or Return while it has focus, flips it and sends
/// ``ControlEvent/valueChanged`` (and ``ControlEvent/primaryActionTriggered``). Setting
/// ``isOn`` from code sends nothing. A change redraws the switch once. Main-actor.
open class Switch: Control {
    /// Whether the switch is on.
    open var isOn: Bool {
        get { isSelected }
        set { setOn(newValue) }
    }

    /// The size a switch draws at (UIKit's is fixed too).
    public static let size = CGSize(width: 44, height: 24)

    /// The track and knob shapes switches fill, shared by every switch (see
    /// ``ShapePathCache``): a switch of the fixed size draws one track and one of two knobs.
    static let shapes = ShapePathCache(capacity: 8)

    /// Creates a switch at `origin`, on or off.
    public init(frame: CGRect = CGRect(origin: .zero, size: Switch.size), isOn: Bool = false) {
        super.init(frame: frame)
        isSelected = isOn
        isAccessibilityElement = true
        accessibilityTraits = accessibilityTraits.union([.button, .toggleButton])
    }

    /// Sets the state without sending events.
    open func setOn(_ on: Bool) {
        isSelected = on
    }

    open override func primaryActionDidTrigger() {
        isSelected.toggle()
        AccessibilityNotification.valueChanged(self).post()
        sendActions(for: .valueChanged)
        super.primaryActionDidTrigger()
    }

    open override var accessibilityValue: String? {
        get { super.accessibilityValue ?? (isOn ? "on" : "off") }
        set { super.accessibilityValue = newValue }
    }

    open override var intrinsicContentSize: CGSize { Self.size }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let palette = self.palette
        let track = CGRect(
            x: ((bounds.width - Self.size.width) / 2).rounded(), y: ((bounds.height - Self.size.height) / 2).rounded(),
            width: Self.size.width, height: Self.size.height)
        let on: Color = isHighlighted ? palette.accentPressed : palette.accent
        context.setFillColor(isEnabled ? (isOn ? on : palette.track) : palette.disabledFace)
        context.fill(Self.shapes.roundedRect(track, cornerRadius: track.height / 2))
        let diameter = track.height - 4
        let knob = CGRect(
            x: isOn ? track.maxX - 2 - diameter : track.minX + 2, y: track.minY + 2, width: diameter, height: diameter)
        context.setFillColor(isEnabled ? palette.knob : palette.disabledText)
        context.fill(Self.shapes.ellipse(in: knob))
        if isFocused {
            context.setStrokeColor(palette.text.withAlphaComponent(0.6))
            context.setLineWidth(1.5)
            context.stroke(Path(roundedRect: track.insetBy(dx: 0.75, dy: 0.75), cornerRadius: track.height / 2 - 0.75))
        }
    }
}

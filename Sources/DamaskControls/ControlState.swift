/// The states a ``Control`` is in (UIKit's `UIControl.State`); a control draws by them.
public struct ControlState: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// No other state: enabled, not pressed, not selected.
    public static let normal: ControlState = []
    /// A press is on the control and the pointer (or touch) is over it.
    public static let highlighted = ControlState(rawValue: 1 << 0)
    /// The control takes no input (``Control/isEnabled`` is false).
    public static let disabled = ControlState(rawValue: 1 << 1)
    /// The control is selected (a toggle that is on, a chosen tab).
    public static let selected = ControlState(rawValue: 1 << 2)
    /// The control has keyboard focus.
    public static let focused = ControlState(rawValue: 1 << 3)
    /// The pointer is over the control, no press on it (desktop only; no UIKit equivalent).
    public static let hovered = ControlState(rawValue: 1 << 4)
}

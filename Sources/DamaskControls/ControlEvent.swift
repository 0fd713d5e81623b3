/// What happened to a ``Control`` that its actions can run for (UIKit's `UIControl.Event`).
public struct ControlEvent: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// A press began on the control.
    public static let touchDown = ControlEvent(rawValue: 1 << 0)
    /// A press on the control moved back over it.
    public static let touchDragEnter = ControlEvent(rawValue: 1 << 1)
    /// A press on the control moved out of it.
    public static let touchDragExit = ControlEvent(rawValue: 1 << 2)
    /// A press on the control ended over it.
    public static let touchUpInside = ControlEvent(rawValue: 1 << 3)
    /// A press on the control ended outside it.
    public static let touchUpOutside = ControlEvent(rawValue: 1 << 4)
    /// The press was taken away (the compositor cancelled it).
    public static let touchCancel = ControlEvent(rawValue: 1 << 5)
    /// The control's value changed by the user (a slider moved, a switch flipped).
    public static let valueChanged = ControlEvent(rawValue: 1 << 6)
    /// The control's main action: a button clicked, Space or Return on it, Return in a field.
    public static let primaryActionTriggered = ControlEvent(rawValue: 1 << 7)
    /// A text field became first responder.
    public static let editingDidBegin = ControlEvent(rawValue: 1 << 8)
    /// A text field's text changed by an edit.
    public static let editingChanged = ControlEvent(rawValue: 1 << 9)
    /// A text field resigned first responder.
    public static let editingDidEnd = ControlEvent(rawValue: 1 << 10)

    /// Every touch event.
    public static let allTouchEvents: ControlEvent = [
        .touchDown, .touchDragEnter, .touchDragExit, .touchUpInside, .touchUpOutside, .touchCancel,
    ]
    /// Every editing event.
    public static let allEditingEvents: ControlEvent = [.editingDidBegin, .editingChanged, .editingDidEnd]
    /// Every event.
    public static let allEvents = ControlEvent(rawValue: (1 << 11) - 1)
}

/// Any input event a window can dispatch (see ``Window/dispatch(_:)``).
public enum Event: Sendable, Equatable {
    /// Pointer motion, buttons, enter and leave.
    case pointer(PointerEvent)
    /// Wheel or touchpad scrolling.
    case scroll(ScrollEvent)
    /// A key press or release.
    case key(KeyEvent)
    /// A touch point change.
    case touch(TouchEvent)
    /// The window gained (`true`) or lost (`false`) keyboard focus.
    case keyboardFocus(Bool)
}

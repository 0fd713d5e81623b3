/// A pointer button, as reported by the seat or the script player.
public enum MouseButton: Sendable, Hashable {
    /// The primary button.
    case left
    /// The secondary button.
    case right
    /// The middle button (often the wheel).
    case middle
    /// Any other button, by its Linux input event code (`BTN_*`).
    case other(UInt32)
}

import Foundation

/// A pointer (mouse or touchpad) event, in window coordinates (points).
public struct PointerEvent: Sendable, Equatable {
    /// What happened to the pointer.
    public enum Kind: Sendable, Equatable {
        /// The pointer entered the window.
        case entered
        /// The pointer left the window.
        case exited
        /// The pointer moved.
        case moved
        /// A button was pressed.
        case down
        /// A button was released.
        case up
    }

    /// What happened.
    public var kind: Kind
    /// Where, in window points.
    public var location: CGPoint
    /// The button pressed or released (`nil` for motion, enter and leave).
    public var button: MouseButton?
    /// 1 for a single click, 2 for a double click, and so on (0 for motion).
    public var clickCount: Int
    /// The modifier keys held.
    public var modifiers: ModifierFlags
    /// The event time in milliseconds (the seat's clock).
    public var timestamp: UInt32

    /// Creates a pointer event.
    public init(
        kind: Kind, location: CGPoint, button: MouseButton? = nil, clickCount: Int = 0,
        modifiers: ModifierFlags = [], timestamp: UInt32 = 0
    ) {
        self.kind = kind
        self.location = location
        self.button = button
        self.clickCount = clickCount
        self.modifiers = modifiers
        self.timestamp = timestamp
    }

    /// Returns the event's location in the coordinate space of `view` (its bounds).
    @MainActor public func location(in view: View) -> CGPoint {
        view.convert(location, from: nil)
    }
}

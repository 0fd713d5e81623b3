import CWaylandClient

/// The input devices a seat has right now (`wl_seat.capabilities`).
public struct SeatCapabilities: OptionSet, Sendable, Hashable {
    /// The raw `wl_seat.capability` bits.
    public let rawValue: UInt32

    /// Creates a set from the protocol's bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A mouse or touchpad.
    public static let pointer = SeatCapabilities(rawValue: WL_SEAT_CAPABILITY_POINTER.rawValue)
    /// A keyboard.
    public static let keyboard = SeatCapabilities(rawValue: WL_SEAT_CAPABILITY_KEYBOARD.rawValue)
    /// A touch screen.
    public static let touch = SeatCapabilities(rawValue: WL_SEAT_CAPABILITY_TOUCH.rawValue)
}

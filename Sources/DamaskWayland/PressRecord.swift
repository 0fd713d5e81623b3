/// The serial of a press (button or touch down) and where it happened, kept so that an
/// interactive move or resize can quote it.
struct PressRecord: Equatable {
    /// The surface key (`wl_surface` address).
    var surface: Int
    /// The event serial.
    var serial: UInt32
    /// A process-wide counter value, so that the latest of a pointer and a touch press wins.
    var order: UInt64

    /// The next order value (main-actor only, like all input).
    @MainActor static func nextOrder() -> UInt64 {
        counter += 1
        return counter
    }

    @MainActor private static var counter: UInt64 = 0
}

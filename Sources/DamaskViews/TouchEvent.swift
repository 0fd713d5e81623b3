import Foundation

/// One touch point's change, in window coordinates (points).
public struct TouchEvent: Sendable, Equatable {
    /// The touch's phase.
    public enum Phase: Sendable, Equatable {
        /// A finger went down.
        case began
        /// A finger moved.
        case moved
        /// A finger lifted.
        case ended
        /// The compositor took the touch away.
        case cancelled
    }

    /// The phase.
    public var phase: Phase
    /// The touch point's identifier, unique while the finger is down.
    public var id: Int32
    /// Where, in window points.
    public var location: CGPoint
    /// The event time in milliseconds.
    public var timestamp: UInt32

    /// Creates a touch event.
    public init(phase: Phase, id: Int32, location: CGPoint, timestamp: UInt32 = 0) {
        self.phase = phase
        self.id = id
        self.location = location
        self.timestamp = timestamp
    }

    /// Returns the touch's location in the coordinate space of `view` (its bounds).
    @MainActor public func location(in view: View) -> CGPoint {
        view.convert(location, from: nil)
    }
}

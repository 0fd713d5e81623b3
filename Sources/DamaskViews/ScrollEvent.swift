import Foundation

/// A scroll (wheel or touchpad) event, in window coordinates (points).
public struct ScrollEvent: Sendable, Equatable {
    /// The pointer location, in window points.
    public var location: CGPoint
    /// The horizontal scroll distance in points (positive: content moves left).
    public var deltaX: CGFloat
    /// The vertical scroll distance in points (positive: content moves up).
    public var deltaY: CGFloat
    /// Horizontal wheel steps (0 for smooth scrolling).
    public var discreteX: Int
    /// Vertical wheel steps (0 for smooth scrolling).
    public var discreteY: Int
    /// The modifier keys held.
    public var modifiers: ModifierFlags
    /// The event time in milliseconds.
    public var timestamp: UInt32

    /// Creates a scroll event.
    public init(
        location: CGPoint, deltaX: CGFloat = 0, deltaY: CGFloat = 0, discreteX: Int = 0,
        discreteY: Int = 0, modifiers: ModifierFlags = [], timestamp: UInt32 = 0
    ) {
        self.location = location
        self.deltaX = deltaX
        self.deltaY = deltaY
        self.discreteX = discreteX
        self.discreteY = discreteY
        self.modifiers = modifiers
        self.timestamp = timestamp
    }

    /// Returns the event's location in the coordinate space of `view` (its bounds).
    @MainActor public func location(in view: View) -> CGPoint {
        view.convert(location, from: nil)
    }
}

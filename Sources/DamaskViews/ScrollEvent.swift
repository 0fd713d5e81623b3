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
    /// Horizontal wheel movement in 120ths of a detent (`wl_pointer.axis_value120`; whole
    /// detents × 120 from compositors that send only `axis_discrete`; 0 for smooth
    /// scrolling). A high-resolution wheel sends fractions of a detent here.
    public var steps120X: Int
    /// Vertical wheel movement in 120ths of a detent (see ``steps120X``).
    public var steps120Y: Int
    /// The device that scrolled.
    public var source: ScrollSource
    /// Whether this event ends a scroll gesture (`wl_pointer.axis_stop`: the fingers left
    /// the touchpad); a kinetic scroll continues from here.
    public var endsGesture: Bool
    /// The modifier keys held.
    public var modifiers: ModifierFlags
    /// The event time in milliseconds.
    public var timestamp: UInt32

    /// Creates a scroll event. Without `steps120X`/`steps120Y`, the high-resolution steps
    /// are the whole detents × 120.
    public init(
        location: CGPoint, deltaX: CGFloat = 0, deltaY: CGFloat = 0, discreteX: Int = 0,
        discreteY: Int = 0, steps120X: Int? = nil, steps120Y: Int? = nil,
        source: ScrollSource = .unknown, endsGesture: Bool = false, modifiers: ModifierFlags = [],
        timestamp: UInt32 = 0
    ) {
        self.location = location
        self.deltaX = deltaX
        self.deltaY = deltaY
        self.discreteX = discreteX
        self.discreteY = discreteY
        self.steps120X = steps120X ?? discreteX * 120
        self.steps120Y = steps120Y ?? discreteY * 120
        self.source = source
        self.endsGesture = endsGesture
        self.modifiers = modifiers
        self.timestamp = timestamp
    }

    /// Returns the event's location in the coordinate space of `view` (its bounds).
    @MainActor public func location(in view: View) -> CGPoint {
        view.convert(location, from: nil)
    }
}

/// Calls a handler after an interval, once or repeatedly, on a window's frame clock: for
/// updates far slower than the display (a caret blink, a clock), where a ``DisplayLink``
/// would tick every frame (UIKit blinks its caret with a timer, not a display link).
///
/// The timer fires on the first frame tick at or after its fire time (at most half a
/// 60 Hz frame early), before that frame's display pass, so what it changes is presented
/// in that frame. While nothing else needs frames the window sleeps until the fire time:
/// on Wayland one wake-up per firing, and no commit unless the handler changes something.
/// Time is the surface's frame clock (``Surface/clockTimestamp``), so a simulated clock
/// (headless playback) drives timers exactly as it drives display links. A repeating
/// timer that fell behind skips the firings it missed. The window keeps a valid timer
/// alive; ``invalidate()`` releases it. Main-actor isolated.
@MainActor public final class FrameTimer: FrameTickClient {
    /// The callback, with the timer.
    public typealias Handler = @MainActor (FrameTimer) -> Void

    /// The window whose clock drives the timer; `nil` once the timer is invalid or the
    /// window freed. Not counted (no side table on the window): set only while the timer is
    /// one of the window's frame tick clients, which the window tells when it is freed.
    @exclusivity(unchecked) public private(set) unowned(unsafe) var window: Window?
    /// The interval in milliseconds.
    public let interval: UInt32
    /// Whether the timer fires again after each firing.
    public let repeats: Bool
    /// When the timer fires next, on the window's frame clock (milliseconds, wrapping).
    @exclusivity(unchecked) public private(set) var fireTimestamp: UInt32
    /// How many times the handler ran.
    public private(set) var fireCount = 0
    /// Whether the timer will still fire (not invalidated, and not a one-shot that fired).
    @exclusivity(unchecked) public private(set) var isValid = true
    private let handler: Handler

    /// Creates a timer on `window` that fires `interval` milliseconds from now, and
    /// every `interval` after that when it `repeats`.
    public init(
        window: Window, interval: UInt32, repeats: Bool, handler: @escaping Handler
    ) {
        self.window = window
        self.interval = max(1, interval)
        self.repeats = repeats
        self.handler = handler
        fireTimestamp = window.surface.clockTimestamp &+ max(1, interval)
        window.add(self)
    }

    /// Moves the next firing to one interval from now (a caret stays on while typing).
    public func restart() {
        guard isValid, let window else { return }
        fireTimestamp = window.surface.clockTimestamp &+ interval
        window.scheduler.clientDidChangeState()
    }

    /// Stops the timer for good and detaches it from its window.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        window?.remove(self)
        window = nil
    }

    func windowDidDeinit() { window = nil }

    // MARK: FrameTickClient

    var wantsFrames: Bool { isValid }

    var nextWantedTimestamp: UInt32? { fireTimestamp }

    func tick(timestamp: UInt32) {
        guard isValid else { return }
        fireCount += 1
        if repeats {
            fireTimestamp = fireTimestamp &+ interval
            if DamaskViews.timestamp(fireTimestamp, precedes: timestamp &+ 8) {
                fireTimestamp = timestamp &+ interval  // fell behind: skip what was missed
            }
        } else {
            invalidate()
        }
        handler(self)
    }
}

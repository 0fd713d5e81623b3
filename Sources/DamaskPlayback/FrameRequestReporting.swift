import Dispatch

/// A surface that tells whether a frame callback is outstanding, so `wait idle` can tell a
/// window that is waiting for its next frame from one that has nothing to do.
///
/// `MemorySurface` conforms. Without it the player treats a window as idle once a turn of the
/// main loop passes without a display pass or commit.
@MainActor public protocol FrameRequestReporting: AnyObject {
    /// Whether a requested frame callback has not fired yet.
    var hasPendingFrameRequest: Bool { get }

    /// Runs `body` once, when the pending frame fires or at `deadline`, whichever comes
    /// first (at once when no frame is pending any more), so that `wait idle` sleeps until
    /// something happens instead of polling. (A blinking caret keeps an idle frame pending
    /// for up to half a second at a time; polling it every millisecond cost about 15 % of a
    /// core.)
    func whenFrameFires(orAt deadline: ContinuousClock.Instant, _ body: @escaping @MainActor () -> Void)

    /// What the pending frame waits for, in words (nil when nothing is known): added to the
    /// error of a wait that timed out.
    var frameWaitDescription: String? { get }
}

extension FrameRequestReporting {
    /// By default, one millisecond later (a surface whose frames the player cannot observe),
    /// or at once when no frame is pending.
    public func whenFrameFires(orAt deadline: ContinuousClock.Instant, _ body: @escaping @MainActor () -> Void) {
        guard hasPendingFrameRequest else { return body() }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(1)) { body() }
    }

    /// By default nothing is known.
    public var frameWaitDescription: String? { nil }
}

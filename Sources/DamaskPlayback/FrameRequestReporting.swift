/// A surface that tells whether a frame callback is outstanding, so `wait idle` can tell a
/// window that is waiting for its next frame from one that has nothing to do.
///
/// `MemorySurface` conforms. Without it the player treats a window as idle once a turn of the
/// main loop passes without a display pass or commit.
@MainActor public protocol FrameRequestReporting: AnyObject {
    /// Whether a requested frame callback has not fired yet.
    var hasPendingFrameRequest: Bool { get }
}

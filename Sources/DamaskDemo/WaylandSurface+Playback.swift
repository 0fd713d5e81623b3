import DamaskGraphics
import DamaskPlayback
import DamaskWayland

/// Lets the script player check pixels, take screenshots and wait for frames on a real
/// compositor: the presented content is the buffer last committed (the window repaints
/// every buffer fully up to date before presenting it, and does not touch it again until
/// it presents another one).
extension WaylandSurface: PresentedContentProvider, FrameRequestReporting {
    /// The pixels of the last committed buffer, or `nil` before the first commit.
    public var presentedContent: Bitmap? { presentedBuffer?.bitmap }

    /// Whether a frame callback or an idle frame is on its way.
    public var hasPendingFrameRequest: Bool { isFramePending || isIdleFramePending }

    /// Runs `body` once, after the next frame tick (a callback or an idle frame) or at
    /// `deadline`: the player sleeps in the main loop meanwhile. With no frame pending (it
    /// fired already) `body` runs at once.
    public func whenFrameFires(orAt deadline: ContinuousClock.Instant, _ body: @escaping @MainActor () -> Void) {
        guard hasPendingFrameRequest else { return body() }
        var done = false
        let timer = MainLoop.shared.schedule(after: ContinuousClock.now.duration(to: deadline)) {
            guard !done else { return }
            done = true
            body()
        }
        afterNextFrame {
            guard !done else { return }
            done = true
            timer.cancel()
            body()
        }
    }
}

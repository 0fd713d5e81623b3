/// Calls a handler once per frame, driven by the window's frame scheduler, while it is
/// active (Core Animation's `CADisplayLink`).
///
/// A display link starts active. While at least one link of a window is active (not
/// paused, not invalidated) the window keeps the next frame coming: a frame that presents
/// something carries a frame-callback request with its commit, and a frame in which
/// nothing changed asks the surface for an idle frame, which costs the compositor no
/// commit. So a link whose handler changes nothing makes no commits. The handler runs
/// before the frame's display pass, so changes it makes are presented in that frame.
/// ``preferredFramesPerSecond`` skips frames for animations that change more slowly than
/// the display refreshes. The window keeps active links alive; ``invalidate()`` releases
/// the link. Main-actor isolated.
@MainActor public final class DisplayLink: FrameTickClient {
    /// The per-frame callback: the link and the frame's timestamp in milliseconds.
    public typealias Handler = @MainActor (DisplayLink, UInt32) -> Void

    /// The window whose frames drive the link (weak).
    public private(set) weak var window: Window?
    private let handler: Handler
    /// The timestamp of the last frame delivered (milliseconds; 0 before the first).
    public private(set) var timestamp: UInt32 = 0
    /// How many frames the handler has received.
    public private(set) var frameCount = 0
    /// Whether ``invalidate()`` was called.
    public private(set) var isInvalidated = false

    /// How many callbacks per second the link wants at most; 0 (the default) means every
    /// frame. A frame that comes more than half a 60 Hz frame (8 ms) sooner than
    /// `1000 / preferredFramesPerSecond` ms after the last delivered one is skipped (so a
    /// 30 fps link on a 60 Hz display gets every other frame), and while nothing else
    /// changes the window sleeps until the link's next frame is due.
    public var preferredFramesPerSecond = 0

    /// Creates an active link on `window`.
    public init(window: Window, handler: @escaping Handler) {
        self.window = window
        self.handler = handler
        window.add(self)
    }

    /// Whether the link skips frames. Resuming requests a frame.
    public var isPaused = false {
        didSet {
            guard isPaused != oldValue else { return }
            window?.displayLinkDidChangeState()
        }
    }

    /// Whether the link receives frames (neither paused nor invalidated).
    public var isActive: Bool { !isPaused && !isInvalidated }

    /// Stops the link for good and detaches it from its window.
    public func invalidate() {
        guard !isInvalidated else { return }
        isInvalidated = true
        window?.remove(self)
    }

    /// Delivers one frame.
    func fire(timestamp: UInt32) {
        guard isActive else { return }
        self.timestamp = timestamp
        frameCount += 1
        handler(self, timestamp)
    }

    // MARK: FrameTickClient

    var wantsFrames: Bool { isActive }

    var nextWantedTimestamp: UInt32? {
        guard preferredFramesPerSecond > 0, frameCount > 0 else { return nil }
        return timestamp &+ UInt32(1000 / preferredFramesPerSecond)
    }

    func tick(timestamp: UInt32) {
        fire(timestamp: timestamp)
    }
}

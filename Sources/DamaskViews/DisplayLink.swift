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
/// the link. ``timestamp``, ``targetTimestamp`` and ``duration`` are seconds, as
/// `CADisplayLink`'s, on the window's frame clock (the frame callbacks' millisecond times,
/// unwrapped). Main-actor isolated.
@MainActor public final class DisplayLink: FrameTickClient {
    /// The per-frame callback: the link and the frame callback's time in milliseconds
    /// (wrapping; the link's ``timestamp`` is the same time in seconds).
    public typealias Handler = @MainActor (DisplayLink, UInt32) -> Void

    /// The window whose frames drive the link (weak).
    public private(set) weak var window: Window?
    private let handler: Handler
    /// The frame time of the last frame delivered, in seconds (0 before the first).
    public private(set) var timestamp: TimeInterval = 0
    /// The frame callback's time of the last frame delivered (milliseconds, wrapping).
    public private(set) var frameCallbackTimestamp: UInt32 = 0
    /// The interval between display frames, in seconds: measured between the last two
    /// consecutive frames delivered while the link took every frame (1/60 until then).
    public private(set) var duration: TimeInterval = 1.0 / 60
    /// When the next frame the handler gets is expected, in seconds: ``timestamp`` plus
    /// ``duration``, or plus the period of ``preferredFramesPerSecond`` when that is
    /// longer. Use it to compute what the next frame shows.
    public var targetTimestamp: TimeInterval {
        guard preferredFramesPerSecond > 0 else { return timestamp + duration }
        return timestamp + max(duration, 1 / Double(preferredFramesPerSecond))
    }
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

    /// Creates an active link on `window` whose handler receives only the link (read
    /// ``timestamp`` and ``targetTimestamp`` from it, as from a `CADisplayLink`).
    public convenience init(window: Window, handler: @escaping @MainActor (DisplayLink) -> Void) {
        self.init(window: window) { link, _ in handler(link) }
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
        if frameCount == 0 {
            self.timestamp = Double(timestamp) / 1000
        } else {
            let interval = milliseconds(from: frameCallbackTimestamp, to: timestamp)
            self.timestamp += Double(interval) / 1000
            // Every frame, and no gap of a pause or a hidden window: the display's interval.
            if preferredFramesPerSecond == 0, interval > 0, interval <= 100 {
                duration = Double(interval) / 1000
            }
        }
        frameCallbackTimestamp = timestamp
        frameCount += 1
        handler(self, timestamp)
    }

    // MARK: FrameTickClient

    var wantsFrames: Bool { isActive }

    var nextWantedTimestamp: UInt32? {
        guard preferredFramesPerSecond > 0, frameCount > 0 else { return nil }
        return frameCallbackTimestamp &+ UInt32(1000 / preferredFramesPerSecond)
    }

    func tick(timestamp: UInt32) {
        fire(timestamp: timestamp)
    }
}

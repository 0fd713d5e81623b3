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

    /// The window whose frames drive the link; `nil` once the link is invalidated or the
    /// window freed. Not counted (no side table on the window): set only while the link is
    /// one of the window's frame tick clients, which the window tells when it is freed.
    @exclusivity(unchecked) public private(set) unowned(unsafe) var window: Window?
    private let handler: Handler
    /// The frame time of the last frame delivered, in seconds (0 before the first).
    public private(set) var timestamp: TimeInterval = 0
    /// The frame callback's time of the last frame delivered (milliseconds, wrapping).
    public private(set) var frameCallbackTimestamp: UInt32 = 0
    /// The interval between display frames, in seconds: measured between the last two
    /// consecutive frames delivered while the link took every frame (1/60 until then).
    public private(set) var duration: TimeInterval = 1.0 / 60
    /// When the next frame the handler gets is expected, in seconds: ``timestamp`` plus
    /// ``duration``, or plus the period of the rate ``preferredFramesPerSecond`` settles on
    /// when that is longer. Use it to compute what the next frame shows.
    public var targetTimestamp: TimeInterval {
        guard preferredFramesPerSecond > 0 else { return timestamp + duration }
        return timestamp + max(duration, Double(refreshesPerFrame) * refreshInterval / 1000)
    }
    /// How many frames the handler has received.
    public private(set) var frameCount = 0
    /// Whether ``invalidate()`` was called.
    public private(set) var isInvalidated = false

    /// How many callbacks per second the link would like; 0 (the default) means every
    /// frame.
    ///
    /// As with `CADisplayLink`, the rate the link runs at is one the display can keep
    /// steady: its refresh rate divided by a whole number of refreshes
    /// (``actualFramesPerSecond``), the one nearest the preferred rate, and of two as near
    /// the lower. At 60 Hz, 30, 20 and 15 run as asked, 24 runs at 20 (every 3rd frame),
    /// 40 and 45 at 30, 50 at 60; at 144 Hz, 24 runs at 24, 40 at 36, 45 and 50 at 48. The
    /// display's rate is the window surface's ``Surface/refreshInterval``. A frame that comes
    /// up to half a refresh early is taken; while nothing else changes the window sleeps
    /// until the link's next frame is due.
    public var preferredFramesPerSecond = 0

    /// The rate the link runs at, in frames per second: the display's refresh rate when
    /// ``preferredFramesPerSecond`` is 0, else that divided by the whole number of
    /// refreshes nearest the preferred rate (see ``preferredFramesPerSecond``).
    public var actualFramesPerSecond: Double {
        1000 / refreshInterval / Double(refreshesPerFrame)
    }

    /// The display's refresh interval in milliseconds (its window surface's; 60 Hz without
    /// a window).
    private var refreshInterval: Double {
        let interval = window?.surface.refreshInterval ?? 1000.0 / 60
        return interval > 0 ? interval : 1000.0 / 60
    }

    /// How many display refreshes one frame of the link spans.
    var refreshesPerFrame: Int {
        Self.refreshesPerFrame(preferred: preferredFramesPerSecond, refreshInterval: refreshInterval)
    }

    /// The whole number of refreshes `n` (1 or more) whose rate `1000 / refreshInterval / n`
    /// is nearest `preferred` frames per second; of two as near, the larger `n` (the lower
    /// rate, which does not exceed the preference). 1 for `preferred` 0 or less.
    static func refreshesPerFrame(preferred: Int, refreshInterval: Double) -> Int {
        guard preferred > 0, refreshInterval > 0 else { return 1 }
        let refreshRate = 1000 / refreshInterval
        let wanted = Double(preferred)
        // The nearest rate lies between the divisors on either side of refreshRate / wanted.
        let low = max(1, Int((refreshRate / wanted).rounded(.down)))
        let high = low + 1
        let lowError = abs(refreshRate / Double(low) - wanted)
        let highError = abs(refreshRate / Double(high) - wanted)
        // A relative tolerance keeps an exact tie (45 at 60 Hz: 60 and 30) a tie.
        return highError <= lowError * (1 + 1e-9) ? high : low
    }

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
        window = nil
    }

    func windowDidDeinit() { window = nil }

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
        let refreshes = refreshesPerFrame
        guard refreshes > 1 else { return nil }
        return frameCallbackTimestamp &+ UInt32((Double(refreshes) * refreshInterval).rounded())
    }

    func tick(timestamp: UInt32) {
        fire(timestamp: timestamp)
    }
}

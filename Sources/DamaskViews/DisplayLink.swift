/// Calls a handler once per frame, driven by the window surface's frame callbacks, while
/// it is active (Core Animation's `CADisplayLink`).
///
/// A display link starts active. While at least one link of a window is active (not
/// paused, not invalidated) the window keeps a frame callback requested; otherwise it
/// requests none. The handler runs before the frame's display pass, so changes it makes
/// are presented in that frame. The window keeps active links alive; ``invalidate()``
/// releases the link. Main-actor isolated.
@MainActor public final class DisplayLink {
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
}

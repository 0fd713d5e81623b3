/// Runs a window's layer animations on its frames: on each frame callback it recomputes
/// the presentation values of every animated layer, before the frame's pass, so the pass
/// only recomposites what moved (no `draw`). A ``FrameTickClient`` of the window's
/// ``FrameScheduler``: while an animation runs the window keeps the frames coming; when
/// the last one ends it asks for none, and nothing more is committed.
///
/// Its clock is the frame callbacks' millisecond times, unwrapped into seconds (as
/// ``DisplayLink/timestamp``), so a simulated frame clock makes animations deterministic.
/// Main-actor isolated; owned by its window, which it points to uncounted (cleared when the
/// window is freed); holds the animated layers strongly until their animations end or they
/// leave the window.
@MainActor final class AnimationDriver: FrameTickClient {
    private unowned(unsafe) var window: Window?
    /// The layers with animations, in the order they were first animated.
    private var layers: [Layer] = []
    /// The time of the last frame, in seconds on the frame clock (0 before the first).
    private(set) var currentTime: Double = 0
    /// Whether a frame has been delivered yet.
    private var hasStarted = false
    private var lastTimestamp: UInt32 = 0
    /// Whether a frame is being delivered now (an animation added now starts now).
    private(set) var isTicking = false
    /// How many frames advanced animations (a debug counter for tests).
    private(set) var frameCount = 0

    init(window: Window) {
        self.window = window
    }

    /// The time of the last frame, or `nil` before the first.
    var currentTimeIfStarted: Double? { hasStarted ? currentTime : nil }

    /// `layer` gained an animation: tick it from the next frame.
    func layerDidAddAnimation(_ layer: Layer) {
        if !layers.contains(where: { $0 === layer }) { layers.append(layer) }
        window?.displayLinkDidChangeState()
    }

    /// Whether any animated layer is still animating. A loop: the scheduler asks after
    /// every pass (CONTRIBUTING.md, closures on hot paths).
    var wantsFrames: Bool {
        for layer in layers where layer.needsAnimationFrames { return true }
        return false
    }

    var nextWantedTimestamp: UInt32? { nil }

    func windowDidDeinit() { window = nil }

    func tick(timestamp: UInt32) {
        if hasStarted {
            // A frame stamped before the last one (the two frame clocks disagreeing) holds
            // the animations still instead of ending them.
            currentTime += Double(milliseconds(from: lastTimestamp, to: timestamp)) / 1000
        } else {
            currentTime = Double(timestamp) / 1000
            hasStarted = true
        }
        lastTimestamp = timestamp
        frameCount += 1
        isTicking = true
        var ended: [RunningAnimation] = []
        let animated = layers
        layers.removeAll()
        for layer in animated {
            guard let window, layer.window === window else {
                // In another window now: that window's driver took it on when it entered.
                // In none: its animations end unfinished.
                if layer.window == nil { layer.removeAllAnimations() }
                continue
            }
            ended += layer.updatePresentation(at: currentTime, inFrame: true)
            if !layer.runningAnimations.isEmpty, !layers.contains(where: { $0 === layer }) {
                layers.append(layer)
            }
        }
        isTicking = false
        // Completion blocks run after every layer has its values for this frame; what they
        // change lands in this frame's pass.
        for running in ended { running.end(finished: true) }
    }
}

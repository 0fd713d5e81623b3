import DamaskGraphics
import DamaskViews
import Dispatch
import Foundation

/// Plays input scripts into a window through its own input path, `Window.dispatch(_:)`, and
/// checks pixels, damage and draw counts along the way.
///
/// The player never blocks the main thread: `play(_:)` is an async function on the main actor
/// that awaits between events (one main-queue turn after each, so the window's display pass
/// runs as it would after real input), awaits frames and, at `.realtime` speed, wall-clock
/// time. Event timestamps come from a virtual clock that advances by
/// `PlaybackOptions.millisecondsPerEvent` per event and by each `wait` duration, so two runs
/// of a script send identical events.
///
/// Damage and draw counts come from the window's `onCommit` reports (the player chains any
/// handler already installed and restores it afterwards); pixels come from a
/// `PresentedContentProvider`.
///
/// Offscreen, the player drives the frames: on a `MemorySurface` whose frame clock is
/// `.manual`, or `.simulated` at `.fast` speed (switched to `.manual` while playing and
/// restored afterwards), it fires each requested frame callback itself, one per wait step,
/// with timestamps from its event clock. So `wait frames N` lets exactly N frames go by, and a
/// skipped `wait 250ms` still runs the frames that time would have shown (animations advance).
///
/// Main-actor isolated; the player keeps its window alive while it exists.
@MainActor public final class ScriptPlayer {
    /// The window events go to.
    public let window: Window
    /// How to play.
    public var options: PlaybackOptions
    /// Where the pointer is, in window points.
    public internal(set) var pointerLocation = CGPoint.zero
    /// The virtual event clock, in milliseconds.
    public internal(set) var clock: UInt32 = 0
    /// The simulated keyboard (its layout follows `layout` commands).
    public internal(set) var keyboard: KeyboardState?
    /// The location of the command being played (for application command handlers that
    /// report errors or wait), nil outside `play(_:)`.
    public private(set) var currentLocation: SourceLocation?
    /// The largest buffer side `size` and `scale` may ask for (as a Wayland window's).
    public static let maximumPixelDimension = 16_384
    /// The largest buffer area `size` and `scale` may ask for (an 8K screen, as a Wayland
    /// window's).
    public static let maximumPixelCount = 7_680 * 4_320
    /// The private directory failure images went into, once one was made.
    public internal(set) var privateArtifactsDirectory: String?
    /// Called with every event just before it is dispatched, and its timestamp (for logging,
    /// or to feed a `ScriptRecorder`).
    public var onDispatch: ((Event, UInt32) -> Void)?

    let contentProvider: (any PresentedContentProvider)?
    var hasPointerEntered = false
    var hasKeyboardFocus = false
    /// Where each touch point down now is, by id.
    var touchLocations: [Int32: CGPoint] = [:]
    /// The high-resolution wheel's 120ths not yet counted as a whole discrete step, per
    /// axis (`wheel`), carried from one command to the next as the Wayland pointer does.
    var wheelRemainder120 = (x: 0, y: 0)
    var report = PlaybackReport()
    var damageSinceCheck = Region()
    var drawsSinceCheck = 0
    var script = Script(file: "", statements: [])
    /// The offscreen surface whose frames the player fires, if it drives them.
    var drivenSurface: MemorySurface?
    /// Milliseconds between driven frames.
    var frameInterval: UInt32 = 16
    /// How many frame callbacks the player fired.
    var framesFired = 0

    /// Creates a player for `window`. Pixels come from `contentProvider`, or from the
    /// window's surface if it is one.
    public init(
        window: Window, contentProvider: (any PresentedContentProvider)? = nil,
        options: PlaybackOptions = PlaybackOptions()
    ) {
        self.window = window
        self.options = options
        self.contentProvider = contentProvider ?? (window.surface as? any PresentedContentProvider)
    }

    /// Plays `script` from the first command to the last (or to the first failed expectation
    /// if `options.stopsAtFirstFailure`).
    ///
    /// - Returns: the failed expectations, the commits made and the screenshots written.
    /// - Throws: `PlaybackError` when a command cannot be carried out (a wait times out, a
    ///   file cannot be written, an application command throws) or the task is cancelled.
    public func play(_ script: Script) async throws(PlaybackError) -> PlaybackReport {
        self.script = script
        report = PlaybackReport()
        damageSinceCheck = Region()
        drawsSinceCheck = 0
        let location = script.statements.first?.location
            ?? SourceLocation(file: script.file, line: 1, column: 1)
        try selectLayout(options.layout, at: location)

        let previousClock = takeOverFrames()
        defer { if let previousClock { drivenSurface?.frameClock = previousClock } }

        let previousHandler = window.onCommit
        window.onCommit = { [weak self] commit in
            previousHandler?(commit)
            self?.record(commit)
        }
        defer { window.onCommit = previousHandler }

        // A person waits for the window to appear before acting: let it present its first
        // frame. Checks count damage and draws from here on.
        if window.frameCount == 0 { try await waitForFrames(1, at: location) }
        damageSinceCheck = Region()
        drawsSinceCheck = 0
        defer { currentLocation = nil }
        for statement in script.statements {
            currentLocation = statement.location
            if Task.isCancelled { throw PlaybackError("playback was cancelled", at: statement.location) }
            try await run(statement)
            report.commandCount += 1
            if options.stopsAtFirstFailure, !report.failures.isEmpty { break }
        }
        return report
    }

    // MARK: Commands

    private func run(_ statement: ScriptStatement) async throws(PlaybackError) {
        let location = statement.location
        switch statement.command {
        case .size(let width, let height):
            try resize(to: CGSize(width: width, height: height), scale: nil, at: location)
        case .scale(let scale):
            guard window.surface is MemorySurface else {
                throw PlaybackError(
                    "'scale' works in offscreen mode only (a real output decides the scale)",
                    at: location)
            }
            try resize(to: window.size, scale: CGFloat(scale), at: location)
        case .layout(let layout):
            try selectLayout(layout, at: location)
        case .move(let point):
            await movePointer(to: point)
        case .press(let button):
            await pressButton(button, clickCount: 1)
        case .release(let button):
            await releaseButton(button, clickCount: 1)
        case .click(let point, let button, let count):
            await movePointer(to: point)
            for clickCount in 1...max(1, count) {
                await pressButton(button, clickCount: clickCount)
                await releaseButton(button, clickCount: clickCount)
            }
        case .drag(let from, let to, let steps):
            await movePointer(to: from)
            await pressButton(.left, clickCount: 1)
            for step in 1...max(1, steps) {
                let t = CGFloat(step) / CGFloat(max(1, steps))
                await movePointer(
                    to: CGPoint(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
            }
            await releaseButton(.left, clickCount: 1)
        case .scroll(let dx, let dy):
            await scroll(dx: dx, dy: dy)
        case .wheel(let dx, let dy):
            await wheel(dx120: dx, dy120: dy)
        case .touchpadScroll(let dx, let dy):
            await touchpad(dx: CGFloat(dx), dy: CGFloat(dy), ends: false)
        case .touchpadEnd:
            await touchpad(dx: 0, dy: 0, ends: true)
        case .key(let chord):
            try await press(chord, at: location)
        case .keyDown(let name):
            try await pressKey(named: name, isDown: true, at: location)
        case .keyUp(let name):
            try await pressKey(named: name, isDown: false, at: location)
        case .type(let text):
            try await type(text, at: location)
        case .touchDown(let id, let point):
            touchLocations[id] = point
            await send(.touch(TouchEvent(phase: .began, id: id, location: point, timestamp: clock)))
        case .touchMove(let id, let point):
            touchLocations[id] = point
            await send(.touch(TouchEvent(phase: .moved, id: id, location: point, timestamp: clock)))
        case .touchUp(let id):
            let location = touchLocations.removeValue(forKey: id) ?? .zero
            await send(.touch(TouchEvent(phase: .ended, id: id, location: location, timestamp: clock)))
        case .wait(.duration(let milliseconds)):
            if options.speed == .realtime {
                clock &+= UInt32(milliseconds.rounded())
                await MainQueuePause.pause(for: .milliseconds(milliseconds))
            } else {
                try await skipTime(UInt32(milliseconds.rounded()), at: location)
            }
        case .wait(.frames(let count)):
            try await waitForFrames(count, at: location)
        case .wait(.idle):
            try await waitUntilIdle(at: location)
        case .screenshot(let path):
            try await screenshot(to: script.resolve(path), at: location)
        case .expectPixel, .expectImage, .expectDamageWithin, .expectDamageExactly, .expectDamageAtScale,
            .expectNoDamage, .expectDraws, .expectText, .expectPasteboard:
            try await check(statement)
        case .inputMethod(let update):
            guard let input = window.firstResponder as? any TextInput else {
                throw PlaybackError(
                    "ime: the window's first responder takes no text (focus a text field first)", at: location)
            }
            if let channel = options.inputMethodChannel {
                try await send(update, through: channel, at: location)
            } else {
                input.applyInputMethodUpdate(update)
            }
        case .inputMethodSetting(let setting):
            guard let input = window.firstResponder as? any TextInput else {
                throw PlaybackError(
                    "ime: the window's first responder takes no text (focus a text field first)", at: location)
            }
            if let channel = options.inputMethodSettingChannel {
                // Not waited for: no count tells when it arrived, and the input method sends
                // it before the updates of the lines after it.
                do {
                    try channel(setting)
                } catch {
                    throw PlaybackError("ime: the input method took no command: \(error)", at: location)
                }
            } else {
                setting.apply(to: input)
            }
        case .custom(let invocation):
            guard let definition = options.registry.definition(named: invocation.name) else {
                throw PlaybackError(
                    "no handler registered for '\(invocation.name)'", at: location)
            }
            do {
                try await definition.handler(invocation.payload, self)
            } catch let error as PlaybackError {
                // Already located and worded (a wait or a screenshot inside the command).
                throw error
            } catch {
                throw PlaybackError("'\(invocation.name)' failed: \(error)", at: location)
            }
        }
    }

    private func resize(
        to size: CGSize, scale: CGFloat?, at location: SourceLocation
    ) throws(PlaybackError) {
        guard let surface = window.surface as? any ResizableSurface else {
            throw PlaybackError("this window's surface cannot be resized by a script", at: location)
        }
        // The buffer limits of a Wayland window (WaylandSurface): said here, not ignored.
        let newScale = scale ?? window.scale
        let pixels = (width: (size.width * newScale).rounded(), height: (size.height * newScale).rounded())
        if max(pixels.width, pixels.height) > CGFloat(Self.maximumPixelDimension)
            || pixels.width * pixels.height > CGFloat(Self.maximumPixelCount)
        {
            throw PlaybackError(
                "size \(Int(size.width))x\(Int(size.height)) at scale \(ScriptPrinter.format(Double(newScale))) "
                    + "needs a \(Int(pixels.width))×\(Int(pixels.height)) pixel buffer, more than the limit "
                    + "(\(Self.maximumPixelDimension) pixels a side, \(Self.maximumPixelCount) pixels in all)",
                at: location)
        }
        do {
            try surface.resize(to: size, scale: scale)
        } catch {
            throw PlaybackError("resize failed: \(error)", at: location)
        }
    }

    private func selectLayout(
        _ layout: KeyboardLayout, at location: SourceLocation
    ) throws(PlaybackError) {
        if keyboard?.keymap.layout == layout { return }
        guard let keymap = Keymap(layout: layout), let state = KeyboardState(keymap: keymap) else {
            throw PlaybackError("unknown keyboard layout '\(layout)'", at: location)
        }
        keyboard = state
    }

    private func record(_ commit: CommitReport) {
        report.commits.append(commit)
        damageSinceCheck.formUnion(Region(rects: commit.damageRects))
        drawsSinceCheck += commit.drawCount
    }

    // MARK: Turns, frames and idleness

    /// Lets every block already queued on the main queue run (display passes, simulated frame
    /// callbacks), then resumes.
    public func nextTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    /// Lets `count` frames go by. A frame ends with the window's next commit, with a frame
    /// callback the player fires (offscreen), or at once when the window is idle (nothing
    /// would be presented).
    ///
    /// - Parameter location: the line named in a timeout error; by default the command being
    ///   played.
    public func waitForFrames(
        _ count: Int, at location: SourceLocation? = nil
    ) async throws(PlaybackError) {
        let location = location ?? fallbackLocation
        // One deadline for the whole wait, not one per frame.
        let deadline = ContinuousClock.now + options.timeout
        for _ in 0..<count {
            let target = window.frameCount + 1
            while true {
                let fired = framesFired
                let result = try await step(deadline: deadline, waitingFor: "a frame", at: location)
                if window.frameCount >= target || framesFired > fired || result == .idle { break }
            }
        }
    }

    /// Waits until the window has nothing dirty and no frame callback pending.
    ///
    /// - Parameter location: the line named in a timeout error; by default the command being
    ///   played.
    public func waitUntilIdle(at location: SourceLocation? = nil) async throws(PlaybackError) {
        let location = location ?? fallbackLocation
        let deadline = ContinuousClock.now + options.timeout
        while try await step(deadline: deadline, waitingFor: "the window to become idle", at: location)
            != .idle
        {}
    }

    /// The command being played, or the script's first line.
    private var fallbackLocation: SourceLocation {
        currentLocation ?? SourceLocation(file: script.file, line: 1, column: 1)
    }

    /// Waits until idle, but at most `settleFrameLimit` frames (animations never idle).
    ///
    /// Display passes (and frames the player fired) are counted, not waiting steps: a
    /// compositor that is slow to send the frame callback the window waits for (a loaded
    /// machine) makes settling take longer, never end early.
    func settle(at location: SourceLocation) async throws(PlaybackError) {
        let deadline = ContinuousClock.now + options.timeout
        let (startPasses, startFired) = (window.passCount, framesFired)
        while try await step(deadline: deadline, waitingFor: "the window to settle", at: location) != .idle {
            if max(window.passCount - startPasses, framesFired - startFired) >= options.settleFrameLimit {
                return
            }
        }
    }

    /// The window's frame state in words, for a wait that timed out: what was presented,
    /// and what the pending frame waits for.
    var windowWaitDescription: String {
        var parts = ["frames presented: \(window.frameCount), display passes: \(window.passCount)"]
        if window.isHeldByTransaction { parts.append("held by an open transaction") }
        if let reporting = window.surface as? any FrameRequestReporting {
            if let wait = reporting.frameWaitDescription {
                parts.append(wait)
            } else if !reporting.hasPendingFrameRequest {
                parts.append("no frame requested")
            }
        }
        return parts.joined(separator: "; ")
    }

    /// What one step of waiting observed.
    enum StepResult {
        /// A pass ran, a commit happened or a frame callback is on its way.
        case busy
        /// Nothing happened and nothing is pending.
        case idle
    }

    /// Runs one turn of the main queue (firing a pending frame callback first when the
    /// player drives the frames) and reports whether the window is still busy.
    func step(
        deadline: ContinuousClock.Instant, waitingFor what: String, at location: SourceLocation
    ) async throws(PlaybackError) -> StepResult {
        guard ContinuousClock.now < deadline else {
            throw PlaybackError(
                "timed out after \(options.timeout) waiting for \(what) (\(windowWaitDescription))", at: location)
        }
        if Task.isCancelled {
            throw PlaybackError("playback was cancelled while waiting for \(what)", at: location)
        }
        if window.isHeldByTransaction {
            // Nothing is presented until the open transaction commits (it may be held across
            // awaits); firing frames now would waste them.
            await MainQueuePause.pause(for: .milliseconds(1))
            return .busy
        }
        let passes = window.passCount
        let frames = window.frameCount
        let firedFrame = fireDrivenFrame()
        await nextTurn()
        if passes != window.passCount || frames != window.frameCount || firedFrame {
            return .busy
        }
        // A commit made without a frame request is not idle until a frame callback says the
        // compositor showed it: ask for one, and wait for it below like any other.
        if window.hasUnansweredCommit { window.requestFrameForUnansweredCommit() }
        if let reporting = window.surface as? any FrameRequestReporting, reporting.hasPendingFrameRequest {
            // The player fires it next step, or a simulated clock in a later turn; a
            // compositor or a real-time clock fires it later: do not spin while it comes.
            if drivenSurface != nil { return .busy }
            if let memory = window.surface as? MemorySurface, case .simulated = memory.frameClock {
                return .busy
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The body runs on the main queue, possibly a turn after the look above (the
                // player's task prefers ``MainQueueTaskExecutor``): the frame may have fired
                // in between. `whenFrameFires` then resumes at once rather than waiting for a
                // next frame that nothing may ask for (seen under valgrind: `wait frames 1`
                // timed out with every frame callback answered).
                reporting.whenFrameFires(orAt: deadline) { continuation.resume() }
            }
            return .busy
        }
        // Work queued during the turn just run (after this step's own turn) runs now.
        await nextTurn()
        if passes != window.passCount || frames != window.frameCount {
            return .busy
        }
        return .idle
    }

    // MARK: Driving offscreen frames

    /// Starts driving the frames of an offscreen surface if its clock allows; returns the
    /// clock to restore afterwards.
    private func takeOverFrames() -> MemorySurface.FrameClock? {
        drivenSurface = nil
        guard let memory = window.surface as? MemorySurface else { return nil }
        switch memory.frameClock {
        case .manual:
            drivenSurface = memory
            return nil
        case .simulated(let interval) where options.speed == .fast:
            drivenSurface = memory
            frameInterval = max(1, interval)
            memory.frameClock = .manual
            return .simulated(intervalMilliseconds: interval)
        default:
            return nil
        }
    }

    /// Fires the driven surface's pending frame callback, one interval later on the event
    /// clock; returns whether one fired.
    private func fireDrivenFrame() -> Bool {
        guard let surface = drivenSurface, surface.hasPendingFrameRequest else { return false }
        clock &+= frameInterval
        framesFired += 1
        return surface.fireFrame(timestamp: clock)
    }

    /// Fast-forwards `milliseconds` of the event clock, firing the frames that time would
    /// have brought (so animations advance), one main-queue turn per frame. Like every wait
    /// it stops with an error after ``PlaybackOptions/timeout`` of wall-clock time (a skipped
    /// `wait 1000000ms` would otherwise fire 62,500 frames).
    /// Hands `update` to a real input method and waits until the window applied it (it comes
    /// back through the compositor's text-input protocol).
    private func send(
        _ update: InputMethodUpdate, through channel: @escaping @Sendable @MainActor (InputMethodUpdate) throws -> Void,
        at location: SourceLocation
    ) async throws(PlaybackError) {
        let before = window.appliedInputMethodUpdateCount
        do {
            try channel(update)
        } catch {
            throw PlaybackError("ime: the input method took no command: \(error)", at: location)
        }
        let deadline = ContinuousClock.now + options.timeout
        while window.appliedInputMethodUpdateCount == before {
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                throw PlaybackError("ime: the input method's update never reached the window (waited \(options.timeout))", at: location)
            }
            await MainQueuePause.pause(for: .milliseconds(5))
        }
    }

    private func skipTime(_ milliseconds: UInt32, at location: SourceLocation) async throws(PlaybackError) {
        let end = clock &+ milliseconds
        let deadline = ContinuousClock.now + options.timeout
        while drivenSurface?.hasPendingFrameRequest == true,
            Int64(end) - Int64(clock) >= Int64(frameInterval)
        {
            guard ContinuousClock.now < deadline else {
                throw PlaybackError(
                    "timed out after \(options.timeout) skipping \(milliseconds) ms of frames", at: location)
            }
            if window.isHeldByTransaction {
                await MainQueuePause.pause(for: .milliseconds(1))
                continue
            }
            _ = fireDrivenFrame()
            await nextTurn()
        }
        clock = end
        await nextTurn()
    }
}

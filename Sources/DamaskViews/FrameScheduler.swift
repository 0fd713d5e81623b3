import Dispatch
import Foundation

/// Something the frame scheduler ticks on the window's frames while it wants them: a
/// ``DisplayLink``, a ``FrameTimer``, or the window's ``AnimationDriver`` (which
/// interpolates presentation values per frame, so the pass only recomposites). Main-actor
/// isolated.
@MainActor protocol FrameTickClient: AnyObject {
    /// Whether the client wants frames at all (not paused, not invalidated).
    var wantsFrames: Bool { get }
    /// The earliest frame timestamp (milliseconds, wrapping) the client wants next;
    /// `nil` for the very next frame.
    var nextWantedTimestamp: UInt32? { get }
    /// One frame, at `timestamp` milliseconds.
    func tick(timestamp: UInt32)
    /// The window is being freed: drop the uncounted pointer to it. A client holds its
    /// window `unowned(unsafe)` only while it is in the window's scheduler, so this is the
    /// one place that pointer must end (a client that leaves sets it to `nil` itself).
    func windowDidDeinit()
}

/// Whether wrapping millisecond timestamp `a` comes before `b`.
func timestamp(_ a: UInt32, precedes b: UInt32) -> Bool {
    Int32(bitPattern: a &- b) < 0
}

/// Milliseconds from wrapping timestamp `earlier` to `later`, or 0 when `later` is in fact
/// the earlier one. Frame times come from two sources (the compositor's frame callbacks and
/// the surface's own clock for idle frames) that can disagree by a few milliseconds; a
/// plain wrapping subtraction would turn a step back into a jump of 49 days.
func milliseconds(from earlier: UInt32, to later: UInt32) -> UInt32 {
    timestamp(later, precedes: earlier) ? 0 : later &- earlier
}

/// What the scheduler asks of its window: run one pass, then the after-pass callbacks.
@MainActor protocol FrameSchedulerDelegate: AnyObject {
    /// Whether an open explicit transaction holds the window's passes back.
    var isHeldByTransaction: Bool { get }
    /// A change was recorded (an open transaction now holds the window back).
    func schedulerDidRecordChange()
    /// Runs layout, display, damage, composite and commit once; the commit asks for a
    /// frame callback when `requestingFrame`.
    func schedulerPerformPass(requestingFrame: Bool) -> FrameScheduler.PassOutcome
    /// Runs the callbacks that follow a pass (outside it, so they may invalidate freely).
    func schedulerPassDidFinish(_ outcome: FrameScheduler.PassOutcome)
}

/// Decides when a window runs its display pass: the window's frame pacing as one state
/// machine.
///
/// ```
///           change                      turn ends, pass commits
///   idle ──────────────▶ passQueued ───────────────────────────▶ waitingForFrame
///    ▲  ▲                  │  │ turn ends, nothing to commit          │  │
///    │  └──────────────────┘  │                                       │  │ frame callback:
///    │                        │ turn ends, no free buffer             │  │ pending change → pass
///    │                        ▼                                       │  │ (commits again or idles)
///    └──────────────── waitingForBuffer ◀─────────────────────────────┘  │
///      buffer released: pass                 no free buffer              │
///    ▲                                                                   │
///    └──────────────────────── frame callback, nothing pending ──────────┘
/// ```
///
/// (An unpaced commit, below, goes from passQueued straight back to idle.)
///
/// - **idle**: nothing to present and no frame callback outstanding. The first change
///   (``setNeedsPass()``) queues a pass at the end of the main-queue turn.
/// - **passQueued**: a pass runs at the end of this turn, so every change of the turn
///   lands in it.
/// - **waitingForFrame**: a commit's frame callback is outstanding; changes wait for it,
///   so at most one commit happens per frame.
/// - **waitingForBuffer**: the compositor holds every buffer; the pass resumes when one is
///   released.
///
/// **Unpaced commits.** When the surface allows it (``Surface/allowsUnpacedCommits``), a
/// commit after a quiet spell asks for no frame callback and the scheduler goes straight
/// back to idle: the compositor shows the commit at its next refresh all the same, and an
/// isolated change (a typed key, a caret blink) wakes the process once instead of twice. A
/// commit is unpaced only when all of these hold (``commitNeedsFrameRequest(at:)``):
/// - the pass does not answer a frame callback: changes that waited for one come frame
///   after frame (a drag, a resize), and their commits keep asking for the next;
/// - no client wants the very next frame (a display link or an animation is paced by
///   callbacks; a timer is served by idle frames);
/// - the last commit is at least a refresh interval old, so no refresh shows two commits;
/// - the compositor answered a frame request less than ``visibilityProbeInterval`` ago:
///   it shows the window. A hidden window gets no answer, so once that interval has
///   passed its next commit asks for a frame again, and it presents nothing more until it
///   is shown.
///
/// A change that comes less than a refresh interval after an unpaced commit waits for a
/// frame asked for with a bare commit (``Surface/requestFrame()``), as a change waits for
/// the frame callback of a paced commit: at most one buffer is committed per refresh.
///
/// Frame tick clients (display links) are ticked on each frame callback; when a tick
/// changes nothing the window commits nothing, and the next tick is asked for with
/// ``Surface/requestIdleFrame(notBefore:)``, which costs the compositor no commit. A change made
/// by a tick is presented in that frame; a display link's commit carries the next frame
/// request.
/// Idle frames tick even while the compositor hides the window, so after
/// ``visibilityProbeInterval`` of idle frames alone the next tick is a real frame request
/// (a bare commit): a hidden window gets no answer and stops ticking until it is shown.
///
/// A pass counts as one however many layers draw in it: invalidations caused by drawing
/// (``isRunningPass``) are consumed by the pass that caused them. Main-actor isolated;
/// owned by its window, which it calls through ``delegate`` (uncounted, cleared when the
/// window is freed).
@MainActor final class FrameScheduler {
    /// The scheduler's state; see the type's documentation.
    enum State: Equatable, Sendable {
        /// Nothing queued, no frame callback outstanding.
        case idle
        /// A pass runs at the end of this main-queue turn.
        case passQueued
        /// A commit's frame callback is outstanding.
        case waitingForFrame
        /// Every buffer is held by the compositor.
        case waitingForBuffer
    }

    /// How a pass ended.
    enum PassOutcome: Equatable, Sendable {
        /// It presented a buffer (with a frame request, unless the commit was unpaced).
        case committed
        /// Nothing differed from the screen: nothing was sent.
        case nothingToPresent
        /// Something differed but no buffer was free.
        case noFreeBuffer
    }

    /// The scheduler's state now.
    private(set) var state: State = .idle
    /// Whether a change waits for a pass.
    private(set) var hasPendingChanges = false
    /// Whether a pass is running now.
    private(set) var isRunningPass = false
    /// How many passes ran.
    private(set) var passCount = 0
    /// Whether an idle frame (a tick without a commit) was asked for and has not fired.
    private(set) var isWaitingForIdleFrame = false
    /// The time the pending idle frame was asked for (`nil`: the next frame).
    private var idleFrameTarget: UInt32?
    /// The timestamp of the last frame, in milliseconds.
    private(set) var lastFrameTimestamp: UInt32 = 0
    /// When (``Surface/clockTimestamp``) the current run of idle frames began: ticks with no
    /// frame callback from the compositor in between. `nil` while callbacks come.
    private var idleRunStart: UInt32?
    /// How many visibility probes were sent: frame requests made, instead of an idle frame,
    /// after ``visibilityProbeInterval`` of idle frames (for tests and diagnostics).
    private(set) var visibilityProbeCount = 0
    /// When (``Surface/clockTimestamp``) the last commit was made; `nil` before the first.
    private var lastCommitTimestamp: UInt32?
    /// Whether the last commit asked for no frame callback (an unpaced commit) and no frame
    /// callback has come since: the compositor has the commit but has not said it showed it.
    private(set) var lastCommitWasUnpaced = false
    /// When (``Surface/clockTimestamp``) the compositor last answered a frame request, which
    /// it does only while it shows the window; `nil` before the first answer.
    private var lastAnsweredFrameTimestamp: UInt32?
    /// How many commits asked for no frame callback (for tests and diagnostics).
    private(set) var unpacedCommitCount = 0

    /// How long (milliseconds) frame tick clients may tick on idle frames alone before the
    /// next tick is asked of the compositor: a compositor sends no frame callbacks to a
    /// window it hides (minimized, on another workspace), so if the window is hidden the
    /// ticks stop there, at no cost, until it is shown again. Neither compositor here has
    /// xdg-shell's `suspended` state; Weston 10 sends no `wl_surface.leave` on minimize
    /// (mutter 43 does, once its minimize animation has played).
    static let visibilityProbeInterval: UInt32 = 1000

    /// Runs the passes. Not counted: the window owns the scheduler and clears this in its
    /// `deinit`.
    @exclusivity(unchecked) unowned(unsafe) var delegate: (any FrameSchedulerDelegate)?
    private let surface: any Surface
    @exclusivity(unchecked) private var clients: [any FrameTickClient] = []

    /// Creates a scheduler presenting to `surface`.
    init(surface: any Surface) {
        self.surface = surface
    }

    // MARK: Changes

    /// Records a change that needs a pass and queues one for the end of this turn, unless
    /// one is queued already, a frame callback or a buffer will run it, or a pass is
    /// running and will consume it.
    func setNeedsPass() {
        hasPendingChanges = true
        delegate?.schedulerDidRecordChange()
        guard !isRunningPass else { return }
        queuePassIfIdle()
    }

    /// The outermost explicit transaction committed: queue what it held back.
    func transactionDidCommit() {
        if hasPendingChanges, !isRunningPass { queuePassIfIdle() }
    }

    /// The surface changed size: the next pass runs at the end of this turn, without
    /// waiting for an outstanding frame callback (the configure must be answered).
    func surfaceDidResize() {
        hasPendingChanges = true
        if state == .waitingForFrame { state = .idle }
        if !isRunningPass { queuePassIfIdle() }
    }

    /// A buffer was released: resume a pass that found none.
    func bufferDidBecomeAvailable() {
        guard state == .waitingForBuffer else { return }
        state = .idle
        if hasPendingChanges, !isRunningPass { queuePassIfIdle() }
    }

    /// A frame callback (or an idle frame) fired: tick the clients, then run the pending
    /// pass, if any.
    func frameDidFire(timestamp: UInt32) {
        let answersFrameRequest = state == .waitingForFrame
        if answersFrameRequest {
            // A frame callback from the compositor: the window is being shown.
            state = .idle
            idleRunStart = nil
            lastAnsweredFrameTimestamp = surface.clockTimestamp
            // The refresh that answered showed any unpaced commit before it: a change now
            // goes to the next refresh, so it need not wait for a frame.
            lastCommitWasUnpaced = false
        }
        isWaitingForIdleFrame = false
        lastFrameTimestamp = timestamp
        for client in clients where client.wantsFrames {
            if let wanted = client.nextWantedTimestamp, isEarly(timestamp, for: wanted) { continue }
            client.tick(timestamp: timestamp)
        }
        if hasPendingChanges, state == .idle || state == .passQueued, !isHeld {
            // Changes that waited for a frame callback keep the frames paced: their commit
            // asks for the next callback. A change made on an idle frame (a timer) may not.
            runPass(afterFrameCallback: answersFrameRequest)
        } else {
            requestIdleFrameIfNeeded()
        }
    }

    /// After an unpaced commit that no frame callback has answered yet, asks for a frame
    /// (a bare commit), whose callback tells that the compositor has shown the commit;
    /// nothing otherwise (a commit that asked for a frame, a queued pass, a pending frame).
    func requestFrameAfterUnpacedCommit() {
        guard lastCommitWasUnpaced, state == .idle else { return }
        waitForRequestedFrame()
    }

    /// Asks the compositor for a frame with a bare commit and waits for its callback (a
    /// change waits with it). Only from idle: a commit that asked for a frame waits already.
    private func waitForRequestedFrame() {
        assert(state == .idle, "one frame request at a time")
        state = .waitingForFrame
        surface.requestFrame()
    }

    /// Runs a pass now, whatever the state (``Window/flush()``); nothing when one runs.
    func runPassNow() {
        runPass(afterFrameCallback: false)
    }

    /// Whether an open transaction holds the passes back.
    private var isHeld: Bool { delegate?.isHeldByTransaction ?? false }

    private func queuePassIfIdle() {
        guard state == .idle else { return }
        state = .passQueued
        EndOfTurn.perform(queuedPass)
    }

    /// The end-of-turn work ``queuePassIfIdle()`` queues, made once: a closure made per
    /// queueing would allocate its context (and a weak reference) on every typed key.
    private lazy var queuedPass: @MainActor () -> Void = { [weak self] in
        guard let self, self.state == .passQueued else { return }
        self.state = .idle
        if self.hasPendingChanges, !self.isHeld {
            self.runPassOrWaitForFrame()
        } else {
            self.requestIdleFrameIfNeeded()
        }
    }

    /// Runs the pending pass now, unless the last commit was unpaced and less than a
    /// refresh interval ago: then asks for a frame (a bare commit) and leaves the pass to
    /// its callback, so that no refresh shows two commits.
    private func runPassOrWaitForFrame() {
        if lastCommitWasUnpaced, let last = lastCommitTimestamp,
            isLessThanARefreshInterval(from: last, to: surface.clockTimestamp)
        {
            waitForRequestedFrame()
            return
        }
        runPass(afterFrameCallback: false)
    }

    /// Runs one pass. Its commit asks for a frame callback when the pass follows one
    /// (`afterFrameCallback`: changes are coming frame after frame) or when
    /// ``commitNeedsFrameRequest(at:)`` says so.
    private func runPass(afterFrameCallback: Bool) {
        guard !isRunningPass, let delegate else { return }
        isRunningPass = true
        hasPendingChanges = false
        passCount += 1
        let now = surface.clockTimestamp
        let requestingFrame = afterFrameCallback || commitNeedsFrameRequest(at: now)
        let outcome = delegate.schedulerPerformPass(requestingFrame: requestingFrame)
        isRunningPass = false
        switch outcome {
        case .committed:
            lastCommitTimestamp = now
            lastCommitWasUnpaced = !requestingFrame
            if requestingFrame {
                state = .waitingForFrame
            } else {
                state = .idle
                unpacedCommitCount += 1
            }
        case .noFreeBuffer:
            state = .waitingForBuffer
            hasPendingChanges = true
        case .nothingToPresent:
            if state == .passQueued { break }  // a queued pass of this turn finds nothing
            state = .idle
        }
        delegate.schedulerPassDidFinish(outcome)
        if hasPendingChanges, !isHeld { queuePassIfIdle() }
        requestIdleFrameIfNeeded()
    }

    /// Whether a commit made at `now` must ask for a frame callback; see "Unpaced commits"
    /// in the type's documentation.
    private func commitNeedsFrameRequest(at now: UInt32) -> Bool {
        guard surface.allowsUnpacedCommits, let answered = lastAnsweredFrameTimestamp,
            milliseconds(from: answered, to: now) < Self.visibilityProbeInterval
        else { return true }
        if let last = lastCommitTimestamp, isLessThanARefreshInterval(from: last, to: now) { return true }
        // One loop, no `contains`: this runs in every pass (CONTRIBUTING.md, closures on hot
        // paths). A client that wants the very next frame is paced by frame callbacks.
        for client in clients where client.wantsFrames && client.nextWantedTimestamp == nil {
            return true
        }
        return false
    }

    /// Whether less than one refresh interval of the surface's display lies between the
    /// wrapping millisecond timestamps `earlier` and `later`.
    private func isLessThanARefreshInterval(from earlier: UInt32, to later: UInt32) -> Bool {
        let refresh = surface.refreshInterval
        let interval = refresh > 0 ? refresh : 1000.0 / 60
        return Double(milliseconds(from: earlier, to: later)) < interval
    }

    // MARK: Frame tick clients

    /// Starts ticking `client` while it wants frames.
    func add(_ client: any FrameTickClient) {
        clients.append(client)
        clientDidChangeState()
    }

    /// Stops ticking `client`.
    func remove(_ client: any FrameTickClient) {
        clients.removeAll { $0 === client }
    }

    /// The window is being freed: each client forgets it (see ``FrameTickClient``).
    func windowDidDeinit() {
        delegate = nil
        for client in clients { client.windowDidDeinit() }
    }

    /// A client was paused or resumed: ask for a frame if one now wants frames.
    func clientDidChangeState() {
        requestIdleFrameIfNeeded()
    }

    /// Whether any client wants frames.
    var hasActiveClients: Bool { clients.contains { $0.wantsFrames } }

    /// Whether a frame at `timestamp` comes too early for a client that wants `wanted`:
    /// more than half of the display's refresh interval (``Surface/refreshInterval``)
    /// before it, so the frame after would be later still. Compositors stamp frames in
    /// whole milliseconds with a millisecond of jitter; half an interval (8 ms at 60 Hz,
    /// 3 at 144 Hz) takes the frame meant and never the one before.
    private func isEarly(_ timestamp: UInt32, for wanted: UInt32) -> Bool {
        let refresh = surface.refreshInterval
        let interval = refresh > 0 ? refresh : 1000.0 / 60
        let tolerance = UInt32((interval / 2).rounded(.down))
        return DamaskViews.timestamp(timestamp &+ tolerance, precedes: wanted)
    }

    /// Asks the surface for the next tick when a client wants one and nothing else will
    /// bring it (no frame callback outstanding, no pass queued): for the next frame, or
    /// for the earliest time a client wants (a timer) so that nothing wakes before it.
    private func requestIdleFrameIfNeeded() {
        // One loop, no `filter`/`contains`/`compactMap`: this runs after every pass
        // (CONTRIBUTING.md, closures on hot paths). `earliest`: the earliest time a client
        // that wants frames asks for, which is the target unless one wants the very next frame.
        var hasActiveClient = false, wantsNextFrame = false
        var earliest: UInt32?
        for client in clients where client.wantsFrames {
            hasActiveClient = true
            guard let wanted = client.nextWantedTimestamp else {
                wantsNextFrame = true
                continue
            }
            if let current = earliest, !DamaskViews.timestamp(wanted, precedes: current) { continue }
            earliest = wanted
        }
        guard hasActiveClient else {
            idleRunStart = nil  // nothing ticks: the next run of idle frames starts afresh
            return
        }
        switch state {
        case .idle, .waitingForBuffer:
            break
        case .passQueued, .waitingForFrame:
            return  // the queued pass ends here again; the commit's callback will tick
        }
        let target = wantsNextFrame ? nil : earliest
        if isWaitingForIdleFrame {
            // A pending request for the same time, or an earlier one, will do.
            guard let pending = idleFrameTarget else { return }
            if let target, !DamaskViews.timestamp(target, precedes: pending) { return }
        }
        let now = surface.clockTimestamp
        let runStart = idleRunStart ?? now
        idleRunStart = runStart
        if state == .idle, milliseconds(from: runStart, to: now) >= Self.visibilityProbeInterval {
            // Ticking on idle frames alone for a while: ask the compositor for this frame,
            // which it answers only while it shows the window (a bare commit, once per
            // interval). Hidden, the scheduler waits in `waitingForFrame` and nothing ticks.
            isWaitingForIdleFrame = false
            idleFrameTarget = nil
            visibilityProbeCount += 1
            waitForRequestedFrame()
            return
        }
        isWaitingForIdleFrame = true
        idleFrameTarget = target
        surface.requestIdleFrame(notBefore: target)
    }
}

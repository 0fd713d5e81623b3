import CDamaskShims
import DamaskGraphics
import DamaskViews
import Dispatch
import Foundation
import Synchronization

/// The process's main loop: the main thread sleeps in one `poll(2)` on the watched
/// descriptors (the Wayland socket), the main dispatch queue's wake-up descriptor and the
/// earliest timer, so that one event wakes one thread once.
///
/// With `RunLoop.main.run()` a Wayland event wakes two threads: libdispatch's manager
/// thread sees the socket in its epoll and signals the main queue, whose eventfd then wakes
/// the main thread; a main-queue `DispatchSource` timer does the same, and arming or
/// cancelling one wakes the manager thread again. ``run()`` replaces that: the socket, the
/// timers and the main queue are all waited for on the main thread, and the main queue's
/// work (`DispatchQueue.main.async`, `MainActor` jobs, `Task { @MainActor … }`) runs when
/// libdispatch signals its eventfd, as Foundation's run loop does it.
///
/// Before ``run()`` is called (and in programs that never call it: tests, or a program
/// with its own `RunLoop.main.run()`), ``watch(_:handler:)`` and ``schedule(after:handler:)``
/// are served by main-queue dispatch sources, so library code works under any main-queue
/// driver; ``run()`` takes them over. Main-actor isolated; there is one, ``shared``.
@MainActor public final class MainLoop {
    /// The loop of the main thread. Reachable from any thread (its main-actor members still
    /// need the main actor; ``sleepCount`` does not).
    public nonisolated static let shared = MainLoop()

    /// Whether ``run()`` is serving the watches and timers.
    @exclusivity(unchecked) public private(set) var isRunning = false
    /// How many times ``run()`` went to sleep (for diagnostics and tests). Readable from
    /// any thread: a task off the main thread can note the count before it hops to the
    /// main actor and so count the sleeps its hop took.
    public nonisolated var sleepCount: Int { sleeps.load(ordering: .relaxed) }
    /// Written by the main thread only, before each sleep; read from any thread.
    private nonisolated let sleeps = Atomic<Int>(0)

    /// A descriptor the loop watches for input. The descriptor stays owned by whoever
    /// watches it: the watch never closes it. Main-actor isolated.
    @MainActor public final class Watch {
        /// The descriptor watched (not owned).
        public let descriptor: Int32
        fileprivate let handler: @MainActor () -> Void
        fileprivate var source: (any DispatchSourceRead)?
        /// Whether ``cancel()`` was called.
        @exclusivity(unchecked) public fileprivate(set) var isCancelled = false

        fileprivate init(descriptor: Int32, handler: @escaping @MainActor () -> Void) {
            self.descriptor = descriptor
            self.handler = handler
        }

        /// Stops watching; the handler is not called again. Idempotent.
        public func cancel() {
            guard !isCancelled else { return }
            isCancelled = true
            source?.cancel()
            source = nil
            MainLoop.shared.remove(self)
        }
    }

    /// A one-shot timer on `CLOCK_MONOTONIC`, which ``arm(_:after:)`` can arm again (its
    /// handler stays): a timer armed on every key press is made once. Main-actor isolated.
    @MainActor public final class Timer {
        /// When it fires (or fired), in `CLOCK_MONOTONIC` nanoseconds.
        @exclusivity(unchecked) public fileprivate(set) var deadline: UInt64
        fileprivate let handler: @MainActor () -> Void
        @exclusivity(unchecked) fileprivate var source: (any DispatchSourceTimer)?
        /// Whether it fired or ``cancel()`` was called (and was not armed again since).
        @exclusivity(unchecked) public fileprivate(set) var isDone = false
        /// How many times it was armed: tells a main-queue source's handler whether its
        /// arming is the current one.
        @exclusivity(unchecked) fileprivate var armingCount = 0

        fileprivate init(deadline: UInt64, handler: @escaping @MainActor () -> Void) {
            self.deadline = deadline
            self.handler = handler
        }

        /// Stops the timer; the handler is not called. Idempotent.
        public func cancel() {
            guard !isDone else { return }
            isDone = true
            source?.cancel()
            source = nil
            MainLoop.shared.remove(self)
        }
    }

    private var watches: [Watch] = []
    @exclusivity(unchecked) private var timers: [Timer] = []
    /// Work for the end of this turn (``performAtEndOfTurn(_:)``), in order.
    @exclusivity(unchecked) private var endOfTurnWork: [@MainActor () -> Void] = []
    /// The queue of the round being run, swapped with ``endOfTurnWork`` each round: both
    /// keep their buffers, so a turn's work allocates no array.
    @exclusivity(unchecked) private var runningWork: [@MainActor () -> Void] = []

    private nonisolated init() {}

    /// Calls `handler` on the main thread whenever `descriptor` is readable (or hung up,
    /// or in error), until the returned watch is cancelled. The caller keeps the descriptor
    /// open while the watch lives.
    public func watch(_ descriptor: Int32, handler: @escaping @MainActor () -> Void) -> Watch {
        let watch = Watch(descriptor: descriptor, handler: handler)
        watches.append(watch)
        if !isRunning { attachSource(to: watch) }
        return watch
    }

    /// Calls `handler` once on the main thread after `delay` (from now, on
    /// `CLOCK_MONOTONIC`), unless the returned timer is cancelled first.
    public func schedule(after delay: Duration, handler: @escaping @MainActor () -> Void) -> Timer {
        let timer = makeTimer(handler: handler)
        arm(timer, after: delay)
        return timer
    }

    /// A timer that calls `handler` on the main thread each time it comes due; not armed
    /// (``Timer/isDone``) until ``arm(_:after:)``.
    public func makeTimer(handler: @escaping @MainActor () -> Void) -> Timer {
        let timer = Timer(deadline: 0, handler: handler)
        timer.isDone = true
        return timer
    }

    /// Arms `timer` to fire `delay` from now (on `CLOCK_MONOTONIC`), once: whether it fired,
    /// was cancelled or still waits (then it waits for the new deadline instead).
    public func arm(_ timer: Timer, after delay: Duration) {
        arm(timer, afterNanoseconds: Self.nanoseconds(of: delay))
    }

    /// Arms `timer` as ``arm(_:after:)`` does, `nanoseconds` from now: for the timers armed at
    /// every key (key repeat, the text-input batch), whose delays are converted once.
    /// `Duration`'s arithmetic is 128-bit, some 15 lines of the standard library's code a key
    /// would fetch cold (docs/performance.md, "Less code in both wake-ups").
    public func arm(_ timer: Timer, afterNanoseconds nanoseconds: UInt64) {
        if !timer.isDone { timer.cancel() }  // waiting: moved, not listed twice
        timer.deadline = Self.now() &+ nanoseconds
        timer.isDone = false
        timer.armingCount &+= 1
        timers.append(timer)
        if !isRunning { attachSource(to: timer) }
    }

    /// `duration` in whole nanoseconds, 0 for a negative one: a delay for
    /// ``arm(_:afterNanoseconds:)``, converted once.
    public nonisolated static func nanoseconds(of duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// Runs `body` at the end of this turn of the loop: after the handlers of what woke it
    /// (descriptors, timers) and the main queue's work, before it sleeps again; in order,
    /// and work added meanwhile runs in the same turn. Before ``run()`` (tests, programs
    /// with their own main-queue driver) it is `DispatchQueue.main.async`.
    ///
    /// What a frame does once per turn (its display pass, flushing the requests it made)
    /// goes here rather than to `DispatchQueue.main.async`: each of those writes libdispatch's
    /// eventfd, and the loop then polls and reads it again before sleeping (three system calls
    /// per block, and one more write when a block is queued while the main queue drains).
    public func performAtEndOfTurn(_ body: @escaping @MainActor () -> Void) {
        guard isRunning else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
            return
        }
        endOfTurnWork.append(body)
    }

    /// Runs the loop on the main thread for the rest of the process (in place of
    /// `RunLoop.main.run()` or `dispatchMain()`); the process ends with `exit`.
    public func run() -> Never {
        precondition(Thread.isMainThread, "MainLoop.run() must be called on the main thread")
        isRunning = true
        // Windows queue their display passes at the end of this loop's turns.
        EndOfTurn.scheduler = { body in MainLoop.shared.performAtEndOfTurn(body) }
        // Take the watches and timers over from libdispatch.
        for watch in watches {
            watch.source?.cancel()
            watch.source = nil
        }
        for timer in timers {
            timer.source?.cancel()
            timer.source = nil
        }
        let queueDescriptor = damask_main_queue_descriptor()
        // Work queued before the loop started has signalled the eventfd already; drain once
        // anyway so that nothing waits for a wake-up that came before the loop watched it.
        damask_main_queue_drain()
        var entries: [pollfd] = []
        while true {
            entries.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: queueDescriptor, events: Int16(POLLIN), revents: 0))
            let polled = watches
            for watch in polled {
                entries.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0))
            }
            let result = sleep(on: &entries)
            if result < 0, errno != EINTR {
                StandardError.write("damask: poll failed: \(String(cString: strerror(errno)))\n")
                exit(1)
            }
            fireDueTimers()
            if result > 0 {
                for (index, watch) in polled.enumerated() where !watch.isCancelled {
                    let events = entries[index + 1].revents
                    if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { watch.handler() }
                    // A descriptor closed under the watch is the watcher's bug, not a busy loop.
                    if events & Int16(POLLNVAL) != 0 { watch.cancel() }
                }
            }
            if result > 0, entries[0].revents != 0 {
                damask_main_queue_drain()
            }
            runEndOfTurnWork()
        }
    }

    // MARK: - Internals

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Waits in `poll` until a descriptor is ready or the earliest timer is due (rounded
    /// up to the millisecond); returns `poll`'s result (0 for a timeout).
    private func sleep(on entries: inout [pollfd]) -> Int32 {
        // Look first without sleeping: a ready descriptor costs no context switch.
        let ready = poll(&entries, nfds_t(entries.count), 0)
        if ready != 0 || !endOfTurnWork.isEmpty { return ready }
        var timeout: Int32 = -1
        if let deadline = earliestDeadline() {
            let now = Self.now()
            if deadline <= now { return 0 }
            timeout = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
        }
        sleeps.add(1, ordering: .relaxed)
        return poll(&entries, nfds_t(entries.count), timeout)
    }

    /// Runs the work queued for the end of this turn, including work it queues, for up to
    /// ``endOfTurnRounds`` rounds: work that keeps queueing more (a view invalidating itself
    /// in every pass) must not starve the descriptors; what is left runs after a look at
    /// them without sleeping (``sleep(on:)``).
    private func runEndOfTurnWork() {
        var rounds = 0
        while !endOfTurnWork.isEmpty, rounds < Self.endOfTurnRounds {
            rounds += 1
            assert(runningWork.isEmpty, "end-of-turn work runs one round at a time")
            swap(&runningWork, &endOfTurnWork)  // work queued by this round goes to the other buffer
            for body in runningWork { body() }
            runningWork.removeAll(keepingCapacity: true)
        }
    }

    /// How many rounds of end-of-turn work (work queued by the round before) one turn runs.
    static let endOfTurnRounds = 8

    /// The earliest deadline of a timer not done, if any (a loop, no array built: this runs
    /// before every sleep).
    private func earliestDeadline() -> UInt64? {
        var earliest: UInt64?
        for timer in timers where !timer.isDone && timer.deadline < (earliest ?? .max) {
            earliest = timer.deadline
        }
        return earliest
    }

    /// Runs the handlers of the timers whose deadline has passed, earliest first. Runs after
    /// every wake-up, so with no timer due it reads the clock once (none when there are no
    /// timers) and builds nothing.
    private func fireDueTimers() {
        guard !timers.isEmpty else { return }
        let now = Self.now()
        guard let earliest = earliestDeadline(), earliest <= now else { return }
        let due = timers.filter { !$0.isDone && $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        // A handler may arm a timer of the list again, for later: it then waits.
        for timer in due where !timer.isDone && timer.deadline <= now {
            timer.isDone = true
            remove(timer)
            timer.handler()
        }
    }

    // Loops, not `removeAll(where:)`: a key press arms and cancels a timer (CONTRIBUTING.md,
    // closures on hot paths).
    private func remove(_ watch: Watch) {
        var index = watches.startIndex
        while index < watches.endIndex {
            if watches[index] === watch { watches.remove(at: index) } else { index += 1 }
        }
    }

    private func remove(_ timer: Timer) {
        var index = timers.startIndex
        while index < timers.endIndex {
            if timers[index] === timer { timers.remove(at: index) } else { index += 1 }
        }
    }

    /// Serves `watch` with a main-queue read source until ``run()`` takes it over.
    private func attachSource(to watch: Watch) {
        let source = DispatchSource.makeReadSource(fileDescriptor: watch.descriptor, queue: .main)
        source.setEventHandler { [weak watch] in
            MainActor.assumeIsolated {
                guard let watch, !watch.isCancelled, watch.source != nil else { return }
                watch.handler()
            }
        }
        source.resume()
        watch.source = source
    }

    /// Serves `timer` with a main-queue timer source until ``run()`` takes it over.
    private func attachSource(to timer: Timer) {
        let source = DispatchSource.makeTimerSource(queue: .main)
        let now = Self.now()
        let wait = timer.deadline > now ? timer.deadline - now : 0
        source.schedule(deadline: .now() + .nanoseconds(Int(wait)), leeway: .milliseconds(1))
        let arming = timer.armingCount
        source.setEventHandler { [weak timer] in
            MainActor.assumeIsolated {
                // Only this arming's source fires it: one cancelled by arming again may
                // still have its handler queued.
                guard let timer, !timer.isDone, timer.source != nil, timer.armingCount == arming else { return }
                timer.isDone = true
                timer.source?.cancel()
                timer.source = nil
                MainLoop.shared.remove(timer)
                timer.handler()
            }
        }
        source.resume()
        timer.source = source
    }
}

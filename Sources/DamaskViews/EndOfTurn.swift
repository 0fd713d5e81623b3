import Dispatch

/// Where work "at the end of this main-queue turn" goes: a window's display pass is queued
/// here, so that every change of the turn lands in one pass.
///
/// By default `DispatchQueue.main.async`. A main loop that runs its own turns (DamaskWayland's
/// `MainLoop`, from its `run()`) installs ``scheduler`` so that such work runs after the
/// turn's events without going through libdispatch's eventfd (a write, then a poll and a
/// read before the loop sleeps: system calls for every typed key). Whatever is installed must
/// run each block once, on the main actor, after the code that queued it has returned, and
/// in the order queued. Main-actor isolated.
@MainActor public enum EndOfTurn {
    /// Queues a block for the end of the turn.
    @exclusivity(unchecked) public static var scheduler: (@escaping @MainActor () -> Void) -> Void = { body in
        DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }

    /// Runs `body` at the end of this turn (through ``scheduler``).
    public static func perform(_ body: @escaping @MainActor () -> Void) {
        scheduler(body)
    }
}

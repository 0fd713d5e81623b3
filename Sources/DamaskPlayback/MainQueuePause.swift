import Dispatch
import Synchronization

/// A wait for the script player that leaves no thread behind: a main-queue timer
/// (`DispatchQueue.main.asyncAfter`) resumes it, or the cancellation of the waiting task.
///
/// `Task.sleep` schedules its wake-up on Swift's global executor, whose first use starts
/// libdispatch's worker pool; a thread of that pool then wakes once a second for the rest of
/// the process. A `wait 30s` in a script made the demo wake every second while it played,
/// where the window itself sleeps (`DemoIdleTests` pins it). A main-queue timer is served by
/// libdispatch's manager thread, which wakes only to arm and to fire it; under
/// `MainLoop.run()` the main thread then runs the continuation like any main-queue work.
enum MainQueuePause {
    /// Returns after `duration`, or as soon as the calling task is cancelled.
    @MainActor static func pause(for duration: Duration) async {
        let (seconds, attoseconds) = duration.components
        let delay = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        let resumer = Resumer()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                resumer.install(continuation)
                DispatchQueue.main.asyncAfter(deadline: .now() + delay) { resumer.resume() }
            }
        } onCancel: {
            resumer.resume()
        }
    }

    /// Resumes its continuation exactly once, whichever comes first: the timer, the
    /// cancellation (from any thread), or a cancellation that came before the continuation
    /// was installed. Owns the continuation until it resumes it.
    private final class Resumer: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Void, Never>?
            var isDone = false
        }

        private let state = Mutex(State())

        /// Keeps `continuation` to resume later, or resumes it now if the wait already ended.
        func install(_ continuation: CheckedContinuation<Void, Never>) {
            let endedAlready = state.withLock { state -> Bool in
                if state.isDone { return true }
                state.continuation = continuation
                return false
            }
            if endedAlready { continuation.resume() }
        }

        /// Ends the wait; later calls do nothing.
        func resume() {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isDone = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}

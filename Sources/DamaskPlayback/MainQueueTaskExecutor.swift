import Dispatch

/// A task executor that runs its jobs on the main queue, so that a main-actor task which
/// prefers it (`Task(executorPreference: MainQueueTaskExecutor.shared) { … }`) never wakes a
/// thread of Swift's global executor.
///
/// With this toolchain on Linux, a main-actor task that resumes from a suspension (a
/// continuation resumed from the main queue, `Task.yield()`) is first enqueued on the global
/// executor and hops back to the main actor from a libdispatch worker thread. The first such
/// worker starts libdispatch's workqueue monitor, a one-second timer on its manager thread
/// that is never cancelled: a demo that had played a script (`--play … --stay`) then woke
/// once a second for the rest of its life. The script player suspends at every wait; with
/// this preference those resumptions are main-queue work, served by the main thread's loop
/// like any other. Stateless; one shared instance.
public final class MainQueueTaskExecutor: TaskExecutor {
    /// The executor.
    public static let shared = MainQueueTaskExecutor()

    private init() {}

    /// Runs `job` on the main queue, with this executor as its task executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(on: MainQueueTaskExecutor.shared.asUnownedTaskExecutor())
        }
    }
}

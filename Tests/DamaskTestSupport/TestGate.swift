/// The process-wide turn that ``ExclusiveTrait`` tests take: one holder at a time, the
/// waiters admitted first come, first served.
///
/// An actor, so any task may enter and leave; waiting suspends the task.
public actor TestGate {
    /// The one gate of the test process.
    public static let shared = TestGate()

    /// Whether the current task (or the task it descends from) holds the turn.
    @TaskLocal public static var isHeldByCurrentTask = false

    private var isTaken = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits for the turn and takes it.
    public func enter() async {
        guard isTaken else {
            isTaken = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Gives the turn to the next waiter, or frees it.
    public func leave() {
        if waiters.isEmpty {
            isTaken = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

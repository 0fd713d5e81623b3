import Testing

/// The process-wide gate that ``ExclusiveTrait`` and ``SharedTrait`` tests pass: a
/// readers-writer lock over the process's shared state. Any number of shared holders at a
/// time, or one exclusive holder; waiters are admitted first come, first served (a waiting
/// exclusive test holds back the shared tests that arrive after it, so it is never starved).
///
/// An actor, so any task may enter and leave; waiting suspends the task.
public actor TestGate {
    /// How a test holds the gate.
    public enum Mode: Sendable {
        /// Alongside other shared holders, never alongside an exclusive one.
        case shared
        /// Alone.
        case exclusive
    }

    /// A gate of its own (the test process uses ``shared``).
    public init() {}

    /// The one gate of the test process.
    public static let shared = TestGate()

    /// How the current task (or the task it descends from) holds the gate; nil when it
    /// does not.
    @TaskLocal public static var currentHold: Mode?

    /// Whether the current task (or the task it descends from) holds the gate exclusively.
    public static var isHeldByCurrentTask: Bool { currentHold == .exclusive }

    /// How many tasks hold the gate shared now.
    private var sharedHolders = 0
    /// Whether a task holds the gate exclusively now.
    private var isHeldExclusively = false
    private var waiters: [(mode: Mode, continuation: CheckedContinuation<Void, Never>)] = []

    /// How many tasks wait for their turn now.
    public var waiterCount: Int { waiters.count }

    /// Waits for the turn and takes it (an exclusive turn by default).
    public func enter(_ mode: Mode = .exclusive) async {
        if waiters.isEmpty, canAdmit(mode) {
            admit(mode)
            return
        }
        await withCheckedContinuation { waiters.append((mode, $0)) }
    }

    /// Gives up a turn taken with `mode`, and admits the waiters that may now enter.
    public func leave(_ mode: Mode = .exclusive) {
        switch mode {
        case .exclusive:
            precondition(isHeldExclusively, "TestGate.leave(.exclusive) without an exclusive holder")
            isHeldExclusively = false
        case .shared:
            precondition(sharedHolders > 0, "TestGate.leave(.shared) without a shared holder")
            sharedHolders -= 1
        }
        while let next = waiters.first, canAdmit(next.mode) {
            waiters.removeFirst()
            admit(next.mode)
            next.continuation.resume()
        }
    }

    private func canAdmit(_ mode: Mode) -> Bool {
        switch mode {
        case .exclusive: !isHeldExclusively && sharedHolders == 0
        case .shared: !isHeldExclusively
        }
    }

    private func admit(_ mode: Mode) {
        switch mode {
        case .exclusive: isHeldExclusively = true
        case .shared: sharedHolders += 1
        }
        assert(!isHeldExclusively || sharedHolders == 0, "TestGate: an exclusive holder beside shared ones")
    }
}

extension TestGate {
    /// Which scope of a test a gate trait holds the gate for.
    ///
    /// Swift Testing starts a test case's `.timeLimit` clock before it applies the case's
    /// scoping traits, but applies a test function's own scope (`testCase == nil`) outside
    /// every time limit. So the gate is taken at the function's scope: the wait for the turn —
    /// minutes, when quick tests queue behind exclusive compositor tests in a parallel run —
    /// is not counted against the test's time limit, and the limit measures only the test.
    /// A suite's scope never holds the gate (its tests would wait for it for ever, and it
    /// would hold the turn for the whole suite).
    public enum Scope: Equatable, Sendable {
        /// The test function's scope, around all its cases: takes the gate.
        case function
        /// One case of a parameterized exclusive test: its cases take turns (Swift Testing
        /// runs the cases of one function in parallel unless the suite is `.serialized`).
        case parameterizedCase
    }

    /// The scope a gate trait in `mode` provides for `test` (and `testCase`), or nil.
    public static func scope(_ mode: Mode, for test: Test, testCase: Test.Case?) -> Scope? {
        if test.isSuite { return nil }
        guard testCase != nil else { return .function }
        return mode == .exclusive && test.isParameterized ? .parameterizedCase : nil
    }

    /// The lock the cases of the current parameterized exclusive test take turns on; nil
    /// outside such a test.
    @TaskLocal static var caseTurns: TestGate?

    /// Runs `function` in the scope a gate trait in `mode` provides for `test`.
    nonisolated func provideScope(
        _ mode: Mode, for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        switch TestGate.scope(mode, for: test, testCase: testCase) {
        case .function:
            try await hold(mode, for: test) {
                guard mode == .exclusive, test.isParameterized else { return try await function() }
                try await TestGate.$caseTurns.withValue(TestGate()) { try await function() }
            }
        case .parameterizedCase:
            guard let turns = TestGate.caseTurns else { return try await function() }
            await turns.enter(.exclusive)
            // Without the lock in scope, a second gate trait on the same test (the suite's
            // and the function's own) passes through instead of waiting for itself.
            do { try await TestGate.$caseTurns.withValue(nil) { try await function() } } catch {
                await turns.leave(.exclusive)
                throw error
            }
            await turns.leave(.exclusive)
        case nil:
            try await function()
        }
    }

    /// Runs `function` holding the gate in `mode`: at once when the current task already
    /// holds it at least as strongly, else after waiting for the turn.
    nonisolated func hold(
        _ mode: Mode, for test: Test, performing function: @Sendable () async throws -> Void
    ) async throws {
        switch (TestGate.currentHold, mode) {
        case (.exclusive, _), (.shared, .shared):
            try await function()
            return
        case (.shared, .exclusive):
            preconditionFailure(
                "\(test.sourceLocation): an exclusive test inside a shared one's scope cannot take the turn")
        case (nil, _):
            break
        }
        await enter(mode)
        do {
            try await TestGate.$currentHold.withValue(mode) { try await function() }
        } catch {
            await leave(mode)
            throw error
        }
        await leave(mode)
    }
}

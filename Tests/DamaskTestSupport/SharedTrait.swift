import Testing

/// A trait whose tests run in parallel with each other but never while an
/// ``ExclusiveTrait`` test runs: the shared side of ``TestGate``.
///
/// For tests that touch no process-wide state themselves but whose state (windows, open
/// transactions) an exclusive test must not meet — for instance DamaskViews tests whose
/// windows an exclusive test's `Transaction.flush()` or `WindowRegistry` walk would reach.
///
/// On a suite it applies to every test inside (recursively). A shared test cannot contain
/// an exclusive one (the turn cannot be upgraded): give each suite one of the two traits,
/// not its parent.
public struct SharedTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Scopes each test function, outside its time limit, never a whole suite (see
    /// ``TestGate/Scope``).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        TestGate.scope(.shared, for: test, testCase: testCase) == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestGate.shared.provideScope(.shared, for: test, testCase: testCase, performing: function)
    }
}

extension Trait where Self == SharedTrait {
    /// Runs the test (every test of the suite) in parallel with other shared tests, never
    /// beside an exclusive one.
    public static var shared: Self { Self() }
}

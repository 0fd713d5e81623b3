import Testing

/// A trait whose tests run one at a time across the whole test process, whichever suite
/// or test target they are in.
///
/// Swift Testing runs every test target in one process and, by default, runs tests in
/// parallel; `.serialized` orders only the tests of one suite. Tests that share
/// process-wide state (the main queue's display cycle, the open ``Transaction``, byte
/// counters) or that start compositors and time their answers (two Westons and their
/// clients slow each other past any bound on a two-core machine) carry `.exclusive` and
/// so never overlap — neither with each other nor with ``SharedTrait`` tests — while the
/// rest still run in parallel. Waiting for the turn suspends
/// the test's task (no thread is blocked).
///
/// On a suite it applies to every test inside (recursively); a test inside an exclusive
/// test's scope (nested suites carrying the trait too) does not wait for itself.
public struct ExclusiveTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Scopes each test function, outside its time limit, never a whole suite (see
    /// ``TestGate/Scope``).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        TestGate.scope(.exclusive, for: test, testCase: testCase) == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestGate.shared.provideScope(.exclusive, for: test, testCase: testCase, performing: function)
    }
}

extension Trait where Self == ExclusiveTrait {
    /// Runs the test (every test of the suite) alone among the process's gated tests (``ExclusiveTrait``
    /// and ``SharedTrait``).
    public static var exclusive: Self { Self() }
}

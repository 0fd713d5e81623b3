import DamaskTestSupport
import Testing

/// The gate the `.exclusive` and `.shared` traits pass: where it is taken, so a test's
/// `.timeLimit` does not count the wait for the turn, and how turns are given.
@Suite("Test gate", .timeLimit(.minutes(1)))
struct TestGateTests {
    @Test("a test function's own scope takes the gate; a case of it does not take it again")
    func functionScopeTakesTheGate() throws {
        let test = try #require(Test.current)
        #expect(TestGate.scope(.exclusive, for: test, testCase: nil) == .function)
        #expect(TestGate.scope(.shared, for: test, testCase: nil) == .function)
        #expect(TestGate.scope(.exclusive, for: test, testCase: Test.Case.current) == nil)
        #expect(TestGate.scope(.shared, for: test, testCase: Test.Case.current) == nil)
    }

    @Test("the cases of a parameterized exclusive test take turns; shared cases do not", arguments: [1, 2])
    func parameterizedCasesTakeTurns(_ argument: Int) throws {
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        #expect(TestGate.scope(.exclusive, for: test, testCase: testCase) == .parameterizedCase)
        #expect(TestGate.scope(.shared, for: test, testCase: testCase) == nil)
    }

    @Test("an exclusive test holds the gate alone inside its time limit", .exclusive)
    func exclusiveTestHoldsTheGate() {
        #expect(TestGate.currentHold == .exclusive)
    }

    @Test("a shared test holds the gate shared", .shared)
    func sharedTestHoldsTheGate() {
        #expect(TestGate.currentHold == .shared)
    }

    @Test("an exclusive turn waits for the shared holders, and later shared comers wait for it")
    func exclusiveWaitsForSharedHoldersInOrder() async {
        let gate = TestGate()
        let order = OrderLog()
        await gate.enter(.shared)
        let exclusive = Task {
            await gate.enter(.exclusive)
            await order.append("exclusive")
            await gate.leave(.exclusive)
        }
        // The exclusive comer is queued before the late shared comer enters the queue.
        while await gate.waiterCount == 0 { await Task.yield() }
        let lateShared = Task {
            await gate.enter(.shared)
            await order.append("late shared")
            await gate.leave(.shared)
        }
        while await gate.waiterCount < 2 { await Task.yield() }
        await order.append("first shared leaves")
        await gate.leave(.shared)
        await exclusive.value
        await lateShared.value
        #expect(await order.entries == ["first shared leaves", "exclusive", "late shared"])
    }
}

/// The order in which concurrent tasks reached a point.
private actor OrderLog {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}

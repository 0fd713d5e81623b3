import Dispatch
import Foundation
import Testing

@testable import DamaskWayland

/// ``MainLoop`` timers armed again (``MainLoop/arm(_:after:)``), served by main-queue sources
/// as before ``MainLoop/run()``: a key press arms the same timer each time.
@Suite("Main loop timers", .serialized, .timeLimit(.minutes(5))) @MainActor
struct MainLoopTimerTests {
    /// Lets the main queue run for `milliseconds`.
    func wait(_ milliseconds: Int) async {
        try? await Task.sleep(for: .milliseconds(milliseconds))
    }

    @Test("A timer made but not armed never fires, and reads as done")
    func unarmedTimerStaysQuiet() async {
        var fired = 0
        let timer = MainLoop.shared.makeTimer { fired += 1 }
        #expect(timer.isDone)
        await wait(60)
        #expect(fired == 0)
    }

    @Test("A timer fires once per arming, armed again after it fired or was cancelled")
    func timerFiresOncePerArming() async {
        var fired = 0
        let timer = MainLoop.shared.makeTimer { fired += 1 }
        MainLoop.shared.arm(timer, after: .milliseconds(5))
        #expect(!timer.isDone)
        for _ in 0..<300 where fired == 0 { await wait(10) }
        #expect(fired == 1)
        #expect(timer.isDone)
        MainLoop.shared.arm(timer, after: .milliseconds(5))
        for _ in 0..<300 where fired == 1 { await wait(10) }
        #expect(fired == 2)
        MainLoop.shared.arm(timer, after: .milliseconds(20))
        timer.cancel()
        #expect(timer.isDone)
        await wait(80)
        #expect(fired == 2, "a cancelled arming fired")
        MainLoop.shared.arm(timer, after: .milliseconds(5))
        for _ in 0..<300 where fired == 2 { await wait(10) }
        await wait(40)
        #expect(fired == 3)
    }

    @Test("A delay in nanoseconds arms as its Duration does; negative durations convert to zero")
    func nanosecondDelaysMatchDurations() async {
        #expect(MainLoop.nanoseconds(of: .milliseconds(20)) == 20_000_000)
        #expect(MainLoop.nanoseconds(of: .seconds(1.5)) == 1_500_000_000)
        #expect(MainLoop.nanoseconds(of: .nanoseconds(7)) == 7)
        #expect(MainLoop.nanoseconds(of: .milliseconds(-5)) == 0)
        var firedAt: UInt64?
        let timer = MainLoop.shared.makeTimer { firedAt = DispatchTime.now().uptimeNanoseconds }
        let start = DispatchTime.now().uptimeNanoseconds
        MainLoop.shared.arm(timer, afterNanoseconds: 60_000_000)
        #expect(!timer.isDone)
        for _ in 0..<300 where firedAt == nil { await wait(10) }
        let after = Double((firedAt ?? start) - start) / 1e6
        #expect(firedAt != nil && after >= 60 - 2, "fired after \(after) ms, before its 60 ms")
        #expect(timer.isDone)
    }

    @Test("Arming a waiting timer moves its deadline: it fires once, at the later time")
    func rearmingAWaitingTimerMovesIt() async {
        var firedAt: [UInt64] = []
        let timer = MainLoop.shared.makeTimer { firedAt.append(DispatchTime.now().uptimeNanoseconds) }
        MainLoop.shared.arm(timer, after: .milliseconds(30))
        let start = DispatchTime.now().uptimeNanoseconds
        MainLoop.shared.arm(timer, after: .milliseconds(150))
        for _ in 0..<500 where firedAt.isEmpty { await wait(10) }
        await wait(200)
        #expect(firedAt.count == 1, "fired \(firedAt.count) times")
        let after = Double((firedAt.first ?? start) - start) / 1e6
        #expect(after >= 150 - 2, "fired after \(after) ms, before the moved deadline")
    }
}

import DamaskTestSupport
import Dispatch
import Foundation
import Testing

@testable import DamaskWayland

/// The key-repeat state machine, with real timers and short delays.
@Suite("Key repeat", .serialized, .exclusive, .timeLimit(.minutes(5))) @MainActor
struct KeyRepeaterTests {
    /// Lets the main queue run for `milliseconds`; returns the time actually slept.
    func wait(_ milliseconds: Int) async -> Double {
        let start = DispatchTime.now()
        try? await Task.sleep(for: .milliseconds(milliseconds))
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    /// A repeater whose repeats are counted per keycode.
    func makeRepeater(rate: Int32, delay: Int32) -> (KeyRepeater, () -> [UInt32]) {
        let repeater = KeyRepeater(rate: rate, delay: delay)
        var fired: [UInt32] = []
        repeater.onRepeat = { fired.append($0) }
        return (repeater, { fired })
    }

    @Test("A held key repeats after the delay, no faster than the rate")
    func heldKeyRepeatsAtRate() async {
        let (repeater, fired) = makeRepeater(rate: 100, delay: 30)
        let start = DispatchTime.now()
        repeater.keyPressed(38, repeats: true)
        #expect(fired().isEmpty)
        // Other main-actor work may delay the timer (never speed it up): wait for three
        // repeats, then check they did not come faster than the rate allows.
        for _ in 0..<200 where fired().count < 3 { _ = await wait(10) }
        let count = fired().count
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        #expect(count >= 3, "only \(count) repeats in \(elapsed) ms")
        #expect(elapsed >= 30 + 2 * 10 - 2, "\(count) repeats after only \(elapsed) ms")
        #expect(Double(count) <= (elapsed - 30) / 10 + 1, "\(count) repeats in \(elapsed) ms")
        #expect(Set(fired()) == [38])
        repeater.stop()
    }

    @Test("Nothing repeats before the delay has passed")
    func noRepeatBeforeDelay() async {
        let repeater = KeyRepeater(rate: 100, delay: 400)
        let start = DispatchTime.now()
        var firedAt: [Double] = []
        repeater.onRepeat = { _ in
            firedAt.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        repeater.keyPressed(38, repeats: true)
        #expect(repeater.activeKey == 38)
        // A loaded machine may delay the first repeat, never bring it forward: wait for it,
        // then check when it came.
        for _ in 0..<500 where firedAt.isEmpty { _ = await wait(10) }
        let first = firedAt.first
        #expect(first != nil, "no repeat within 5 s")
        #expect((first ?? 0) >= 400 - 1, "the first repeat came after \(first ?? 0) ms, before the 400 ms delay")
        repeater.stop()
    }

    @Test("Releasing the key stops the repeat at once")
    func releaseStops() async {
        let (repeater, fired) = makeRepeater(rate: 200, delay: 10)
        repeater.keyPressed(38, repeats: true)
        for _ in 0..<200 where fired().isEmpty { _ = await wait(10) }
        repeater.keyReleased(38)
        let countAtRelease = fired().count
        #expect(countAtRelease > 0)
        _ = await wait(60)
        #expect(fired().count == countAtRelease)
        #expect(repeater.activeKey == nil)
    }

    @Test("Releasing another key does not stop the repeat")
    func otherReleaseKeepsRepeating() async {
        let (repeater, fired) = makeRepeater(rate: 200, delay: 10)
        repeater.keyPressed(38, repeats: true)
        repeater.keyReleased(50)
        for _ in 0..<200 where fired().isEmpty { _ = await wait(10) }
        #expect(repeater.activeKey == 38)
        #expect(!fired().isEmpty)
        repeater.stop()
    }

    @Test("A newer key takes over the repeat; a non-repeating key (modifier) leaves it alone")
    func newerKeyTakesOver() async {
        let (repeater, fired) = makeRepeater(rate: 200, delay: 10)
        repeater.keyPressed(38, repeats: true)
        repeater.keyPressed(56, repeats: true)
        repeater.keyPressed(50, repeats: false)
        #expect(repeater.activeKey == 56)
        for _ in 0..<200 where fired().isEmpty { _ = await wait(10) }
        #expect(Set(fired()) == [56])
        repeater.keyReleased(38)
        #expect(repeater.activeKey == 56)
        repeater.stop()
    }

    @Test("Focus loss or a keymap change (stop) ends the repeat")
    func stopEndsRepeat() async {
        let (repeater, fired) = makeRepeater(rate: 200, delay: 10)
        repeater.keyPressed(38, repeats: true)
        repeater.stop()
        _ = await wait(50)
        #expect(fired().isEmpty)
        #expect(repeater.activeKey == nil)
    }

    @Test("A rate of 0 disables repeat, also for a key already held")
    func zeroRateDisables() async {
        let (repeater, fired) = makeRepeater(rate: 200, delay: 10)
        repeater.keyPressed(38, repeats: true)
        repeater.setRate(0, delay: 10)
        #expect(repeater.activeKey == nil)
        repeater.keyPressed(39, repeats: true)
        _ = await wait(50)
        #expect(fired().isEmpty)
    }

    @Test("New repeat info applies to the key being held")
    func newRateAppliesToHeldKey() async {
        let (repeater, fired) = makeRepeater(rate: 1, delay: 1000)
        repeater.keyPressed(38, repeats: true)
        repeater.setRate(200, delay: 10)
        for _ in 0..<200 where fired().count < 2 { _ = await wait(10) }
        #expect(fired().count >= 2)
        #expect(repeater.rate == 200 && repeater.delay == 10)
        repeater.stop()
    }
}

/// Repeat timing straight off the wire is clamped before it arms a timer.
@MainActor
@Suite("Key repeat limits", .exclusive, .timeLimit(.minutes(5)))
struct KeyRepeaterLimitTests {
    @Test("repeat_info INT32_MAX is clamped to the maximum rate; a huge delay to the maximum delay; negatives to 0")
    func hostileRepeatInfoIsClamped() {
        let repeater = KeyRepeater(rate: .max, delay: .max)
        #expect(repeater.rate == KeyRepeater.maximumRate)
        #expect(repeater.delay == KeyRepeater.maximumDelay)
        repeater.setRate(.min, delay: .min)
        #expect(repeater.rate == 0 && repeater.delay == 0)
        repeater.setRate(.max, delay: 5)
        #expect(repeater.rate == KeyRepeater.maximumRate && repeater.delay == 5)
    }
}

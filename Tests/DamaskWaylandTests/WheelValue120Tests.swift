import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// How `wl_pointer` version 8's `axis_value120` becomes scroll events: the fraction for
/// pixel-precise views, whole detents from a remainder carried between frames.
@Suite("High-resolution wheel steps", .shared, .timeLimit(.minutes(1)))
struct WheelValue120Tests {
    let surface = 0xA0

    /// An assembler whose pointer is over `surface`.
    func entered() -> PointerEventAssembler {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surface, at: CGPoint(x: 4, y: 5))
        _ = assembler.frame(modifiers: [])
        return assembler
    }

    /// One wheel frame of `value` 120ths on one axis, as a version 8 compositor sends it
    /// (source, value120, the distance in points at 10 per detent, frame).
    func wheelFrame(_ assembler: inout PointerEventAssembler, _ value: Int, horizontal: Bool = false) -> ScrollEvent? {
        assembler.axisSource(.wheel)
        assembler.axisValue120(horizontal: horizontal, value: value)
        assembler.axis(horizontal: horizontal, value: CGFloat(value) / 12, time: 1)
        guard case .scroll(let event) = assembler.frame(modifiers: []).first?.event else { return nil }
        return event
    }

    @Test("Eight events of 15 (1/8 detent) make exactly one discrete step, in the eighth frame; each carries its fraction")
    func eighthsMakeOneDetent() throws {
        var assembler = entered()
        var discrete: [Int] = []
        var steps: [Int] = []
        for _ in 0..<8 {
            let event = try #require(wheelFrame(&assembler, 15))
            discrete.append(event.discreteY)
            steps.append(event.steps120Y)
            #expect(event.discreteX == 0 && event.steps120X == 0)
        }
        #expect(discrete == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(steps == Array(repeating: 15, count: 8), "a pixel-precise view gets each fraction")
        #expect(assembler.remainder120.y == 0)
        // Sixteen more: two more detents, none early.
        let more = (0..<16).compactMap { _ in wheelFrame(&assembler, 15)?.discreteY }
        #expect(more == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1])
    }

    @Test("Uneven fractions carry their remainder: 50 + 50 + 50 is one detent with 30 left over")
    func unevenFractionsCarry() throws {
        var assembler = entered()
        let detents = try (0..<3).map { _ in try #require(wheelFrame(&assembler, 50)).discreteY }
        #expect(detents == [0, 0, 1])
        #expect(assembler.remainder120.y == 30)
        // 90 more completes the second detent exactly.
        #expect(wheelFrame(&assembler, 90)?.discreteY == 1)
        #expect(assembler.remainder120.y == 0)
    }

    @Test("A frame of several detents and a fraction gives the whole detents and keeps the fraction")
    func largeFrame() throws {
        var assembler = entered()
        let event = try #require(wheelFrame(&assembler, -300))
        #expect(event.discreteY == -2)
        #expect(event.steps120Y == -300)
        #expect(assembler.remainder120.y == -60)
        #expect(wheelFrame(&assembler, -60)?.discreteY == -1)
    }

    @Test("Turning the wheel back drops the remainder of the other direction (as wlroots does for clients before version 8)")
    func signChangeResets() throws {
        var assembler = entered()
        for _ in 0..<7 { _ = wheelFrame(&assembler, 15) }
        #expect(assembler.remainder120.y == 105)
        // Back by one eighth: not the completion of the forward detent, and no step back yet.
        let back = try #require(wheelFrame(&assembler, -15))
        #expect(back.discreteY == 0)
        #expect(back.steps120Y == -15, "the fraction still scrolls a pixel-precise view back")
        #expect(assembler.remainder120.y == -15)
        // A reversal needs a whole detent of its own: seven more eighths back complete it.
        let detents = (0..<7).compactMap { _ in wheelFrame(&assembler, -15)?.discreteY }
        #expect(detents == [0, 0, 0, 0, 0, 0, -1])
        #expect(assembler.remainder120.y == 0)
    }

    @Test("The axes carry their remainders apart")
    func axesAreIndependent() throws {
        var assembler = entered()
        for _ in 0..<4 {
            _ = wheelFrame(&assembler, 30)
            _ = wheelFrame(&assembler, -40, horizontal: true)
        }
        #expect(assembler.remainder120 == .init(x: -40, y: 0))
        #expect(wheelFrame(&assembler, -80, horizontal: true)?.discreteX == -1)
    }

    @Test("Leaving the surface drops the remainder: a detent is not completed on the next surface")
    func leaveResets() throws {
        var assembler = entered()
        for _ in 0..<7 { _ = wheelFrame(&assembler, 15) }
        assembler.leave()
        _ = assembler.frame(modifiers: [])
        #expect(assembler.remainder120.y == 0)
        assembler.enter(surface: 0xB0, at: .zero)
        _ = assembler.frame(modifiers: [])
        #expect(wheelFrame(&assembler, 15)?.discreteY == 0)
    }

    @Test("A frame with both axis_discrete and axis_value120 counts the detent once, from value120, in either order")
    func mixedFrame() throws {
        for discreteFirst in [true, false] {
            var assembler = entered()
            assembler.axisSource(.wheel)
            if discreteFirst { assembler.axisDiscrete(horizontal: false, steps: 1) }
            assembler.axisValue120(horizontal: false, value: 120)
            if !discreteFirst { assembler.axisDiscrete(horizontal: false, steps: 1) }
            guard case .scroll(let event) = assembler.frame(modifiers: []).first?.event else {
                Issue.record("no scroll event")
                continue
            }
            #expect(event.discreteY == 1, "discrete first: \(discreteFirst)")
            #expect(event.steps120Y == 120, "discrete first: \(discreteFirst)")
        }
    }

    @Test("Before version 8, axis_discrete works as it did: whole detents, × 120, no remainder touched")
    func version7Discrete() throws {
        var assembler = entered()
        _ = wheelFrame(&assembler, 60)
        assembler.axisSource(.wheel)
        assembler.axisDiscrete(horizontal: false, steps: -2)
        assembler.axis(horizontal: false, value: -20, time: 2)
        guard case .scroll(let event) = assembler.frame(modifiers: []).first?.event else {
            Issue.record("no scroll event")
            return
        }
        #expect(event == ScrollEvent(
            location: CGPoint(x: 4, y: 5), deltaY: -20, discreteY: -2, source: .wheel, timestamp: 2))
        #expect(event.steps120Y == -240)
        #expect(assembler.remainder120.y == 60, "a discrete frame leaves the high-resolution remainder alone")
    }
}

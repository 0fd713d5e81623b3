import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// How `wl_pointer` pieces are grouped by `frame` into view events.
@Suite("Pointer frame grouping", .exclusive, .timeLimit(.minutes(5)))
struct PointerFrameTests {
    let surfaceA = 0xA0
    let surfaceB = 0xB0

    func kinds(_ routed: [PointerEventAssembler.Routed]) -> [String] {
        routed.map { item in
            switch item.event {
            case .pointer(let event): return "\(item.surface == surfaceA ? "A" : "B") \(event.kind)"
            case .scroll: return "\(item.surface == surfaceA ? "A" : "B") scroll"
            default: return "other"
            }
        }
    }

    @Test("Nothing is dispatched before the frame event")
    func nothingBeforeFrame() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: CGPoint(x: 1, y: 2))
        assembler.motion(to: CGPoint(x: 3, y: 4), time: 1)
        #expect(assembler.hasPendingEvents)
        #expect(assembler.focus == nil)
        let events = assembler.frame(modifiers: [])
        #expect(kinds(events) == ["A entered", "A moved"])
        #expect(!assembler.hasPendingEvents)
    }

    @Test("Several motions in one frame become one move to the last location")
    func motionsCoalesce() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: .zero)
        _ = assembler.frame(modifiers: [])
        assembler.motion(to: CGPoint(x: 5, y: 5), time: 10)
        assembler.motion(to: CGPoint(x: 6, y: 7), time: 11)
        assembler.motion(to: CGPoint(x: 8, y: 9), time: 12)
        let events = assembler.frame(modifiers: [.shift])
        #expect(events.count == 1)
        #expect(events.first?.event == .pointer(PointerEvent(kind: .moved, location: CGPoint(x: 8, y: 9), modifiers: [.shift], timestamp: 12)))
    }

    @Test("Axis pieces of one frame become one scroll event, after the button changes")
    func axisPiecesBecomeOneScroll() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: CGPoint(x: 10, y: 10))
        _ = assembler.frame(modifiers: [])
        assembler.axis(horizontal: false, value: 10, time: 20)
        assembler.axisDiscrete(horizontal: false, steps: 1)
        assembler.axis(horizontal: true, value: -2.5, time: 20)
        assembler.button(.left, pressed: true, time: 20)
        let events = assembler.frame(modifiers: [])
        #expect(kinds(events) == ["A down", "A scroll"])
        #expect(events.last?.event == .scroll(ScrollEvent(
            location: CGPoint(x: 10, y: 10), deltaX: -2.5, deltaY: 10, discreteX: 0, discreteY: 1, timestamp: 20)))
    }

    @Test("An axis stop alone yields a scroll of zero distance (end of a kinetic gesture)")
    func axisStopAlone() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: .zero)
        _ = assembler.frame(modifiers: [])
        assembler.axisStop(time: 30)
        let events = assembler.frame(modifiers: [])
        #expect(events.first?.event == .scroll(ScrollEvent(location: .zero, endsGesture: true, timestamp: 30)))
    }

    @Test("axis_value120 keeps fractions of a detent; whole detents count as discrete steps too")
    func value120AndSource() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: CGPoint(x: 4, y: 5))
        _ = assembler.frame(modifiers: [])
        assembler.axisSource(.wheel)
        assembler.axisValue120(horizontal: false, value: 30)
        assembler.axis(horizontal: false, value: 2.5, time: 40)
        var events = assembler.frame(modifiers: [])
        #expect(events.first?.event == .scroll(ScrollEvent(
            location: CGPoint(x: 4, y: 5), deltaY: 2.5, discreteY: 0, steps120Y: 30, source: .wheel, timestamp: 40)))
        assembler.axisSource(.wheel)
        assembler.axisValue120(horizontal: true, value: -240)
        assembler.axis(horizontal: true, value: -20, time: 50)
        events = assembler.frame(modifiers: [])
        #expect(events.first?.event == .scroll(ScrollEvent(
            location: CGPoint(x: 4, y: 5), deltaX: -20, discreteX: -2, steps120X: -240, source: .wheel, timestamp: 50)))
        // A compositor before version 8: axis_discrete gives whole detents × 120.
        assembler.axisDiscrete(horizontal: false, steps: 3)
        assembler.axis(horizontal: false, value: 30, time: 60)
        events = assembler.frame(modifiers: [])
        if case .scroll(let scroll) = events.first?.event {
            #expect(scroll.steps120Y == 360)
            #expect(scroll.source == .unknown, "the source is per frame")
        } else {
            Issue.record("no scroll event: \(events)")
        }
    }

    @Test("Leaving one surface and entering another in one frame keeps that order")
    func leaveThenEnter() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: .zero)
        _ = assembler.frame(modifiers: [])
        assembler.leave()
        assembler.enter(surface: surfaceB, at: CGPoint(x: 4, y: 4))
        let events = assembler.frame(modifiers: [])
        #expect(kinds(events) == ["A exited", "B entered"])
        #expect(assembler.focus == surfaceB)
    }

    @Test("A release of a button that is not held is dropped")
    func strayReleaseDropped() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: .zero)
        assembler.button(.right, pressed: false, time: 1)
        #expect(kinds(assembler.frame(modifiers: [])) == ["A entered"])
    }

    @Test("Events without a focused surface are dropped")
    func noFocusNoEvents() {
        var assembler = PointerEventAssembler()
        assembler.motion(to: CGPoint(x: 1, y: 1), time: 1)
        assembler.button(.left, pressed: true, time: 1)
        #expect(assembler.frame(modifiers: []).isEmpty)
    }

    @Test("Two quick presses at one place count as a double click; slow, far or other buttons do not")
    func clickCounting() {
        var counter = ClickCounter()
        #expect(counter.press(.left, at: .zero, time: 1000) == 1)
        #expect(counter.press(.left, at: CGPoint(x: 1, y: 1), time: 1200) == 2)
        #expect(counter.press(.left, at: CGPoint(x: 1, y: 1), time: 1300) == 3)
        #expect(counter.press(.left, at: CGPoint(x: 1, y: 1), time: 2000) == 1)
        #expect(counter.press(.left, at: CGPoint(x: 30, y: 1), time: 2100) == 1)
        #expect(counter.press(.right, at: CGPoint(x: 30, y: 1), time: 2200) == 1)
    }

    @Test("Press click counts reach the pointer events; releases carry no count")
    func clickCountInEvents() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: CGPoint(x: 5, y: 5))
        assembler.button(.left, pressed: true, time: 100)
        assembler.button(.left, pressed: false, time: 150)
        assembler.button(.left, pressed: true, time: 250)
        let events = assembler.frame(modifiers: [])
        let counts = events.compactMap { item -> Int? in
            if case .pointer(let event) = item.event, event.kind != .entered { return event.clickCount }
            return nil
        }
        #expect(counts == [1, 0, 2])
    }

    @Test("A compositor grab releases the held buttons once; the late real release is dropped")
    func grabReleasesButtons() {
        var assembler = PointerEventAssembler()
        assembler.enter(surface: surfaceA, at: CGPoint(x: 5, y: 5))
        assembler.button(.left, pressed: true, time: 100)
        _ = assembler.frame(modifiers: [])
        let released = assembler.releaseAllButtons(modifiers: [])
        #expect(kinds(released) == ["A up"])
        #expect(assembler.pressedButtons.isEmpty)
        assembler.button(.left, pressed: false, time: 300)
        #expect(assembler.frame(modifiers: []).isEmpty)
    }

    @Test("Linux button codes map to mouse buttons")
    func buttonCodes() {
        #expect(MouseButton(linuxCode: 0x110) == .left)
        #expect(MouseButton(linuxCode: 0x111) == .right)
        #expect(MouseButton(linuxCode: 0x112) == .middle)
        #expect(MouseButton(linuxCode: 0x113) == .other(0x113))
    }
}

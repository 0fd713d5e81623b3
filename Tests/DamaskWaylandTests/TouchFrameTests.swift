import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// How `wl_touch` events are grouped by `frame` and routed to the surface of each finger.
@Suite("Touch frame grouping", .exclusive, .timeLimit(.minutes(5)))
struct TouchFrameTests {
    let surfaceA = 0xA0
    let surfaceB = 0xB0

    @Test("Events wait for the frame; motion and up go to the surface the finger went down on")
    func routedToDownSurface() {
        var touch = TouchEventAssembler()
        touch.down(id: 1, surface: surfaceA, at: CGPoint(x: 1, y: 1), time: 10)
        touch.down(id: 2, surface: surfaceB, at: CGPoint(x: 5, y: 5), time: 10)
        let began = touch.frame()
        #expect(began.map(\.surface) == [surfaceA, surfaceB])
        #expect(began.map(\.event.phase) == [.began, .began])
        touch.motion(id: 2, to: CGPoint(x: 6, y: 6), time: 20)
        touch.up(id: 1, time: 20)
        let next = touch.frame()
        #expect(next == [
            .init(surface: surfaceB, event: TouchEvent(phase: .moved, id: 2, location: CGPoint(x: 6, y: 6), timestamp: 20)),
            .init(surface: surfaceA, event: TouchEvent(phase: .ended, id: 1, location: CGPoint(x: 1, y: 1), timestamp: 20)),
        ])
        #expect(touch.activeTouchCount == 1)
    }

    @Test("Several motions of one finger in a frame become one move to the last location")
    func motionsCoalesce() {
        var touch = TouchEventAssembler()
        touch.down(id: 3, surface: surfaceA, at: .zero, time: 1)
        _ = touch.frame()
        touch.motion(id: 3, to: CGPoint(x: 1, y: 0), time: 2)
        touch.motion(id: 3, to: CGPoint(x: 2, y: 0), time: 3)
        let events = touch.frame()
        #expect(events.count == 1)
        #expect(events.first?.event.location == CGPoint(x: 2, y: 0))
    }

    @Test("A cancel cancels every finger down and drops the frame's pending events")
    func cancelCancelsAll() {
        var touch = TouchEventAssembler()
        touch.down(id: 1, surface: surfaceA, at: .zero, time: 1)
        touch.down(id: 2, surface: surfaceA, at: CGPoint(x: 3, y: 3), time: 1)
        _ = touch.frame()
        touch.motion(id: 1, to: CGPoint(x: 9, y: 9), time: 2)
        let cancelled = touch.cancel()
        #expect(cancelled.map(\.event.phase) == [.cancelled, .cancelled])
        #expect(cancelled.map(\.event.id) == [1, 2])
        #expect(touch.frame().isEmpty)
        #expect(touch.activeTouchCount == 0)
    }

    @Test("Motion and up for unknown fingers are ignored; a destroyed surface is forgotten")
    func unknownAndForgotten() {
        var touch = TouchEventAssembler()
        touch.motion(id: 7, to: .zero, time: 1)
        touch.up(id: 7, time: 1)
        #expect(touch.frame().isEmpty)
        touch.down(id: 1, surface: surfaceA, at: .zero, time: 1)
        touch.forget(surface: surfaceA)
        #expect(touch.frame().isEmpty)
        #expect(touch.activeTouchCount == 0)
    }
}

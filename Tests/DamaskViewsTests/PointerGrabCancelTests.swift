import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The implicit grab cannot outlive the pointer: a leave, a new enter and the loss of
/// keyboard focus forget the held buttons (the compositor may keep the release, as a move
/// or resize does), and a cancelled touch is forgotten.
extension ViewsTests {
    @Suite("Pointer grab cancellation", .shared, .timeLimit(.minutes(5))) @MainActor struct PointerGrabCancel {
        /// Records presses, releases, moves and cancellations.
        final class PressRecorder: View {
            var log: [String] = []
            override func pointerDown(_ event: PointerEvent) { log.append("down") }
            override func pointerUp(_ event: PointerEvent) { log.append("up") }
            override func pointerMoved(_ event: PointerEvent) { log.append("moved") }
            override func pointerCancelled(_ event: PointerEvent) { log.append("cancelled") }
            override func touchesBegan(_ event: TouchEvent) { log.append("began \(event.id)") }
            override func touchesMoved(_ event: TouchEvent) { log.append("touchmoved \(event.id)") }
            override func touchesCancelled(_ event: TouchEvent) { log.append("touchcancelled \(event.id)") }
        }

        func pointer(_ kind: PointerEvent.Kind, _ x: CGFloat, _ y: CGFloat) -> Event {
            .pointer(PointerEvent(kind: kind, location: CGPoint(x: x, y: y), button: kind == .down || kind == .up ? .left : nil))
        }

        /// Two recorders side by side in a window: a at 0…20, b at 40…60.
        func twoViews() -> (Harness, PressRecorder, PressRecorder) {
            let h = Harness()
            let a = PressRecorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            let b = PressRecorder(frame: CGRect(x: 40, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.root.addSubview(b)
            return (h, a, b)
        }

        @Test("A leave during a press cancels the grab: the next press goes where it lands", arguments: [
            "leave", "enter", "focus loss",
        ])
        func lostReleaseDoesNotStickTheGrab(_ interruption: String) {
            let (h, a, b) = twoViews()
            h.window.dispatch(pointer(.down, 5, 5))
            switch interruption {
            case "leave": h.window.dispatch(pointer(.exited, 5, 5))
            case "enter": h.window.dispatch(pointer(.entered, 45, 5))
            default: h.window.dispatch(.keyboardFocus(false))
            }
            // The release went to the compositor (a move or resize took the pointer).
            h.window.dispatch(pointer(.down, 45, 5))
            h.window.dispatch(pointer(.up, 45, 5))
            #expect(a.log == ["down", "cancelled"])
            #expect(b.log.filter { $0 != "moved" } == ["down", "up"])
            #expect(!h.window.hasPointerGrab)
        }

        @Test("Ten lost releases in a row leave no press behind")
        func repeatedLostReleases() {
            let (h, a, b) = twoViews()
            for _ in 0..<10 {
                h.window.dispatch(pointer(.entered, 5, 5))
                h.window.dispatch(pointer(.down, 5, 5))
                h.window.dispatch(pointer(.exited, 5, 5))
            }
            h.window.dispatch(pointer(.entered, 45, 5))
            h.window.dispatch(pointer(.down, 45, 5))
            h.window.dispatch(pointer(.up, 45, 5))
            #expect(a.log.filter { $0 == "cancelled" }.count == 10)
            #expect(b.log.filter { $0 != "moved" } == ["down", "up"])
        }

        @Test("A leave without a held button cancels nothing")
        func leaveWithoutPressCancelsNothing() {
            let (h, a, _) = twoViews()
            h.window.dispatch(pointer(.down, 5, 5))
            h.window.dispatch(pointer(.up, 5, 5))
            h.window.dispatch(pointer(.exited, 5, 5))
            #expect(a.log == ["down", "up"])
        }

        @Test("A cancelled touch is forgotten: its later moves do not reach the view")
        func cancelledTouchIsForgotten() {
            let (h, a, _) = twoViews()
            h.window.dispatch(.touch(TouchEvent(phase: .began, id: 1, location: CGPoint(x: 5, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .cancelled, id: 1, location: CGPoint(x: 5, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .moved, id: 1, location: CGPoint(x: 45, y: 5))))
            #expect(a.log == ["began 1", "touchcancelled 1"])
        }
    }
}

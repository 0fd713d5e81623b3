import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Hit testing, the responder chain, the implicit grab, hover, touches and key focus.
extension ViewsTests {
    @Suite("Event dispatch", .shared, .timeLimit(.minutes(5))) @MainActor struct EventDispatch {
        /// Records every event it receives, optionally passing them on.
        final class Recorder: View {
            var log: [String] = []
            var passesOn = false
            var acceptsFocus = false
            var endsFocusOnPressOutside = false
            override var canBecomeFirstResponder: Bool { acceptsFocus }
            override var resignsOnPressOutside: Bool { endsFocusOnPressOutside }
            override func pointerDown(_ event: PointerEvent) {
                let point = event.location(in: self)
                log.append("down \(Int(point.x)),\(Int(point.y))")
                if passesOn { super.pointerDown(event) }
            }
            override func pointerUp(_ event: PointerEvent) { log.append("up") }
            override func pointerMoved(_ event: PointerEvent) { log.append("moved") }
            override func pointerEntered(_ event: PointerEvent) { log.append("entered") }
            override func pointerExited(_ event: PointerEvent) { log.append("exited") }
            override func scrollWheel(_ event: ScrollEvent) { log.append("scroll \(event.discreteY)") }
            override func keyDown(_ event: KeyEvent) { log.append("key \(event.text)") }
            override func keyUp(_ event: KeyEvent) { log.append("keyup") }
            override func touchesBegan(_ event: TouchEvent) { log.append("began \(event.id)") }
            override func touchesMoved(_ event: TouchEvent) { log.append("touchmoved \(event.id)") }
            override func touchesEnded(_ event: TouchEvent) { log.append("ended \(event.id)") }
        }

        func pointer(_ kind: PointerEvent.Kind, _ x: CGFloat, _ y: CGFloat) -> Event {
            .pointer(PointerEvent(kind: kind, location: CGPoint(x: x, y: y), button: kind == .down || kind == .up ? .left : nil))
        }

        @Test("Hit testing walks subviews front to back and converts coordinates")
        func hitTestingPrefersFrontmostAndConverts() {
            let h = Harness()
            let back = Recorder(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
            let front = Recorder(frame: CGRect(x: 20, y: 20, width: 20, height: 20))
            h.root.addSubview(back)
            back.addSubview(front)
            #expect(h.window.hitTest(CGPoint(x: 25, y: 25)) === front)
            #expect(h.window.hitTest(CGPoint(x: 10, y: 10)) === back)
            h.window.dispatch(pointer(.down, 25, 26))
            #expect(front.log == ["down 5,6"])
            back.sendSubviewToBack(front)  // still the only subview: still in front of back
            front.transform = CGAffineTransform(scaleX: 2, y: 2)  // now covers 10..<50
            #expect(h.window.hitTest(CGPoint(x: 12, y: 12)) === front)
        }

        @Test("A pressed view receives the moves and the release (implicit grab)")
        func pressedViewKeepsTheImplicitGrab() {
            let h = Harness()
            let a = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            let b = Recorder(frame: CGRect(x: 40, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.root.addSubview(b)
            h.window.dispatch(pointer(.down, 5, 5))
            h.window.dispatch(pointer(.moved, 45, 5))
            h.window.dispatch(pointer(.up, 45, 5))
            #expect(a.log == ["down 5,5", "moved", "up"])
            #expect(b.log == ["entered"])
            h.window.dispatch(pointer(.moved, 46, 5))
            #expect(b.log == ["entered", "moved"])
        }

        @Test("Hover sends entered and exited as the pointer crosses views")
        func hoverSendsEnteredAndExited() {
            let h = Harness()
            let a = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.window.dispatch(pointer(.entered, 5, 5))
            h.window.dispatch(pointer(.moved, 6, 5))
            h.window.dispatch(pointer(.moved, 30, 5))
            h.window.dispatch(pointer(.moved, 7, 5))
            h.window.dispatch(pointer(.exited, 7, 5))
            #expect(a.log == ["entered", "moved", "moved", "exited", "entered", "moved", "exited"])
        }

        @Test("Scroll events go to the view under the pointer")
        func scrollGoesToViewUnderPointer() {
            let h = Harness()
            let a = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.window.dispatch(.scroll(ScrollEvent(location: CGPoint(x: 5, y: 5), deltaY: 10, discreteY: 1)))
            h.window.dispatch(.scroll(ScrollEvent(location: CGPoint(x: 50, y: 5), deltaY: 10, discreteY: 2)))
            #expect(a.log == ["scroll 1"])
        }

        @Test("Keys go to the first responder, which only accepting views become")
        func keysGoToTheFirstResponder() {
            let h = Harness()
            let field = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            let label = Recorder(frame: CGRect(x: 30, y: 0, width: 20, height: 20))
            h.root.addSubview(field)
            h.root.addSubview(label)
            #expect(!label.becomeFirstResponder())
            field.acceptsFocus = true
            #expect(field.becomeFirstResponder())
            #expect(h.window.firstResponder === field)
            #expect(field.isFirstResponder)
            h.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0x61, text: "a")))
            h.window.dispatch(.key(KeyEvent(phase: .up, keysym: 0x61)))
            #expect(field.log == ["key a", "keyup"])
            #expect(label.log.isEmpty)
            field.removeFromSuperview()
            #expect(h.window.firstResponder == nil)
        }

        @Test("A view outside any window cannot become first responder")
        func detachedViewCannotBecomeFirstResponder() {
            let view = Recorder(frame: .zero)
            view.acceptsFocus = true
            #expect(!view.becomeFirstResponder())
        }

        @Test("Keyboard focus events set isKeyWindow")
        func keyboardFocusSetsKeyWindow() {
            let h = Harness()
            h.window.dispatch(.keyboardFocus(true))
            #expect(h.window.isKeyWindow)
            h.window.dispatch(.keyboardFocus(false))
            #expect(!h.window.isKeyWindow)
        }

        @Test("A touch stays with the view it began on")
        func touchStaysWithItsView() {
            let h = Harness()
            let a = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            let b = Recorder(frame: CGRect(x: 40, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.root.addSubview(b)
            h.window.dispatch(.touch(TouchEvent(phase: .began, id: 1, location: CGPoint(x: 5, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .began, id: 2, location: CGPoint(x: 45, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .moved, id: 1, location: CGPoint(x: 45, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .ended, id: 1, location: CGPoint(x: 45, y: 5))))
            h.window.dispatch(.touch(TouchEvent(phase: .ended, id: 2, location: CGPoint(x: 45, y: 5))))
            #expect(a.log == ["began 1", "touchmoved 1", "ended 1"])
            #expect(b.log == ["began 2", "ended 2"])
        }

        @Test("Removing the grabbing view ends the grab")
        func removingGrabbingViewEndsGrab() {
            let h = Harness()
            let a = Recorder(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(a)
            h.window.dispatch(pointer(.down, 5, 5))
            a.removeFromSuperview()
            h.window.dispatch(pointer(.moved, 6, 6))
            #expect(a.log == ["down 5,5"])
        }
    }
}

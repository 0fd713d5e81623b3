import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A window always has a responder for its shortcuts: the default first responder.
extension ViewsTests {
    @Suite("Default first responder", .shared, .timeLimit(.minutes(5))) @MainActor struct DefaultResponder {
        typealias Recorder = EventDispatch.Recorder

        func key(_ text: String) -> Event {
            .key(KeyEvent(phase: .down, keysym: UInt32(text.unicodeScalars.first?.value ?? 0), text: text))
        }

        func press(_ x: CGFloat, _ y: CGFloat) -> [Event] {
            [
                .pointer(PointerEvent(kind: .down, location: CGPoint(x: x, y: y), button: .left)),
                .pointer(PointerEvent(kind: .up, location: CGPoint(x: x, y: y), button: .left)),
            ]
        }

        @Test("When the first responder resigns, keys go to the default first responder")
        func resignHandsKeysBack() {
            let h = Harness()
            let shortcuts = Recorder(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
            let field = Recorder(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            field.acceptsFocus = true
            h.root.addSubview(shortcuts)
            shortcuts.addSubview(field)
            h.window.defaultFirstResponder = shortcuts
            #expect(field.becomeFirstResponder())
            h.window.dispatch(key("a"))
            #expect(field.resignFirstResponder())
            #expect(h.window.firstResponder == nil)
            h.window.dispatch(key("3"))
            #expect(field.log == ["key a"])
            #expect(shortcuts.log == ["key 3"])
        }

        @Test("A press outside every focusable view resigns a first responder that asks for it; a press in it does not")
        func pressOutsideResigns() {
            let h = Harness()
            let shortcuts = Recorder(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
            shortcuts.acceptsFocus = true  // the root takes focus too, yet does not keep the field's
            let field = Recorder(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            field.acceptsFocus = true
            field.endsFocusOnPressOutside = true
            let button = Recorder(frame: CGRect(x: 60, y: 10, width: 30, height: 20))
            h.root.addSubview(shortcuts)
            shortcuts.addSubview(field)
            shortcuts.addSubview(button)
            h.window.defaultFirstResponder = shortcuts
            #expect(field.becomeFirstResponder())
            for event in press(20, 20) { h.window.dispatch(event) }
            #expect(field.isFirstResponder, "a press in the field keeps it focused")
            for event in press(70, 20) { h.window.dispatch(event) }
            #expect(!field.isFirstResponder, "a press on a button that takes no focus ends editing")
            #expect(Array(button.log.prefix(2)) == ["down 10,10", "up"], "the button still gets its press")
            #expect(field.becomeFirstResponder())
            for event in press(5, 70) { h.window.dispatch(event) }
            #expect(!field.isFirstResponder, "a press on the background ends editing")
            h.window.dispatch(key("s"))
            #expect(shortcuts.log.last == "key s")
        }

        @Test("A first responder that does not ask to resign on outside presses keeps its keys after a click elsewhere (UIKit)")
        func pressOutsideKeepsFocusByDefault() {
            let h = Harness()
            let field = Recorder(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            field.acceptsFocus = true
            let button = Recorder(frame: CGRect(x: 60, y: 10, width: 30, height: 20))
            h.root.addSubview(field)
            h.root.addSubview(button)
            #expect(field.becomeFirstResponder())
            for event in press(70, 20) { h.window.dispatch(event) }
            #expect(field.isFirstResponder)
            h.window.dispatch(key("a"))
            #expect(field.log.last == "key a")
            #expect(Array(button.log.prefix(2)) == ["down 10,10", "up"])
        }

        @Test("A default first responder outside the window gets no keys: the window does")
        func detachedDefaultIsIgnored() {
            let h = Harness()
            let detached = Recorder(frame: .zero)
            h.window.defaultFirstResponder = detached
            h.window.dispatch(key("x"))
            #expect(detached.log.isEmpty)
        }
    }
}

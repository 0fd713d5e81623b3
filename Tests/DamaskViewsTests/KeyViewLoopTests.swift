import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The key-view loop: which views Tab visits and in which order, and the focus ring's
/// damage.
extension ViewsTests {
    @Suite("Key-view loop", .shared, .timeLimit(.minutes(5))) @MainActor struct KeyViewLoop {
        /// A focusable view that records the keys it receives.
        final class Control: View {
            var keys: [UInt32] = []
            override var canBecomeFocused: Bool { true }
            override func keyDown(_ event: KeyEvent) { keys.append(event.keysym) }
        }

        /// A container that visits its children right to left.
        final class ReversedContainer: View {
            override var focusOrderedSubviews: [View] { View.readingOrder(subviews).reversed() }
        }

        func tab(_ window: Window, shift: Bool = false) {
            window.dispatch(.key(KeyEvent(phase: .down, keysym: 0xFF09, modifiers: shift ? [.shift] : [])))
            window.dispatch(.key(KeyEvent(phase: .up, keysym: 0xFF09, modifiers: shift ? [.shift] : [])))
        }

        @Test("Reading order: rows top to bottom, left to right within a row; hidden views are skipped")
        func readingOrder() {
            let h = Harness()
            let b = Control(frame: CGRect(x: 50, y: 10, width: 20, height: 10))
            let a = Control(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
            let c = Control(frame: CGRect(x: 10, y: 40, width: 20, height: 10))
            let hidden = Control(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
            hidden.isHidden = true
            for view in [b, c, a, hidden] { h.root.addSubview(view) }
            #expect(h.root.keyViewLoop.map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
        }

        @Test("A container orders its children; a focusable container comes before them")
        func containerOrder() {
            let h = Harness()
            let container = ReversedContainer(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            let left = Control(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            let right = Control(frame: CGRect(x: 50, y: 0, width: 20, height: 20))
            container.addSubview(left)
            container.addSubview(right)
            h.root.addSubview(container)
            #expect(h.root.keyViewLoop.map(ObjectIdentifier.init) == [right, left].map(ObjectIdentifier.init))
        }

        @Test("Tab and Shift+Tab cycle through the loop; the focused view gets the other keys first")
        func tabCycles() {
            let h = Harness()
            let a = Control(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
            let b = Control(frame: CGRect(x: 50, y: 10, width: 20, height: 10))
            h.root.addSubview(a)
            h.root.addSubview(b)
            tab(h.window)
            #expect(h.window.focusedView === a)
            tab(h.window)
            #expect(h.window.focusedView === b)
            tab(h.window)
            #expect(h.window.focusedView === a)
            tab(h.window, shift: true)
            #expect(h.window.focusedView === b)
            h.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0x20)))
            #expect(b.keys == [0x20] && a.keys.isEmpty, "Tab itself never reaches a view")
        }

        @Test("Focus that left the loop is remembered: the next Tab goes on after the view that had it")
        func anchorAfterResign() {
            let h = Harness()
            let a = Control(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
            let b = Control(frame: CGRect(x: 50, y: 10, width: 20, height: 10))
            h.root.addSubview(a)
            h.root.addSubview(b)
            h.window.focus(a)
            a.resignFirstResponder()
            #expect(h.window.focusedView == nil)
            tab(h.window)
            #expect(h.window.focusedView === b)
        }

        @Test("A click elsewhere takes focus from a keyboard-focused control")
        func clickClearsKeyboardFocus() {
            let h = Harness()
            let a = Control(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
            h.root.addSubview(a)
            tab(h.window)
            #expect(a.isFocused)
            h.window.dispatch(.pointer(PointerEvent(kind: .down, location: CGPoint(x: 80, y: 60), button: .left)))
            h.window.dispatch(.pointer(PointerEvent(kind: .up, location: CGPoint(x: 80, y: 60), button: .left)))
            #expect(!a.isFocused && h.window.focusedView == nil)
        }

        @Test("The focus ring's damage is exactly its strips: the old ring's and the new ring's")
        func ringDamageIsExact() async {
            let h = Harness()
            let a = Control(frame: CGRect(x: 10, y: 10, width: 20, height: 10))
            let b = Control(frame: CGRect(x: 50, y: 40, width: 30, height: 20))
            a.backgroundColor = .blue
            b.backgroundColor = .blue
            h.root.addSubview(a)
            h.root.addSubview(b)
            await h.settle()
            tab(h.window)
            await h.step()
            // Around a (10…30 × 10…20), 2 points out, 2 thick: 6…34 × 6…24.
            let ringA = Region(rects: [
                CGRect(x: 6, y: 6, width: 28, height: 2), CGRect(x: 6, y: 22, width: 28, height: 2),
                CGRect(x: 6, y: 8, width: 2, height: 14), CGRect(x: 32, y: 8, width: 2, height: 14),
            ])
            #expect(h.lastDamage == ringA, "\(h.lastDamage.rects)")
            let ring = h.screenColor(6, 6)
            #expect(ring.map { abs($0.red - 0.18) < 0.01 && abs($0.green - 0.44) < 0.01 && abs($0.blue - 0.95) < 0.01 } == true,
                "\(String(describing: ring))")
            #expect(h.screenColor(12, 12) == .blue, "the control's inside is not covered")
            tab(h.window)
            await h.step()
            let ringB = Region(rects: [
                CGRect(x: 46, y: 36, width: 38, height: 2), CGRect(x: 46, y: 62, width: 38, height: 2),
                CGRect(x: 46, y: 38, width: 2, height: 24), CGRect(x: 82, y: 38, width: 2, height: 24),
            ])
            #expect(h.lastDamage == ringA.union(ringB), "\(h.lastDamage.rects)")
        }
    }
}

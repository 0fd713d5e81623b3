import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Control", .timeLimit(.minutes(5))) @MainActor struct ControlTests {
        @Test("a press released inside sends touchDown, touchUpInside and the primary action, in order")
        func clickSendsEventsInOrder() {
            let harness = ControlHarness()
            let control = Control(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            harness.root.addSubview(control)
            var events: [String] = []
            control.addAction(for: .touchDown) { _ in events.append("down") }
            control.addAction(for: .touchUpInside) { _ in events.append("up-inside") }
            control.addAction(for: .primaryActionTriggered) { _ in events.append("primary") }
            harness.press(at: CGPoint(x: 20, y: 20))
            #expect(control.isHighlighted)
            harness.release(at: CGPoint(x: 20, y: 20))
            #expect(!control.isHighlighted)
            #expect(events == ["down", "up-inside", "primary"])
        }

        @Test("a press dragged out and released outside sends drag exit and touchUpOutside, no action")
        func dragOutCancelsTheAction() {
            let harness = ControlHarness()
            let control = Control(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            harness.root.addSubview(control)
            var events: [String] = []
            control.addAction(for: .allEvents) { _ in events.append("any") }
            control.addAction(for: .touchDragExit) { _ in events.append("exit") }
            control.addAction(for: .touchUpOutside) { _ in events.append("up-outside") }
            control.addAction(for: .primaryActionTriggered) { _ in events.append("primary") }
            harness.press(at: CGPoint(x: 20, y: 20))
            harness.move(to: CGPoint(x: 90, y: 70))
            #expect(!control.isHighlighted && control.isTracking)
            harness.release(at: CGPoint(x: 90, y: 70))
            #expect(!events.contains("primary"))
            #expect(events.filter { $0 != "any" } == ["exit", "up-outside"])
        }

        @Test("a target is held weakly and its action is dropped once it has gone")
        func targetIsWeak() {
            final class Counter {
                var count = 0
                func hit(_ control: Control) { count += 1 }
            }
            let control = Control(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            var counter: Counter? = Counter()
            weak let weakCounter = counter
            control.addTarget(counter!, action: Counter.hit, for: .primaryActionTriggered)
            control.sendActions(for: .primaryActionTriggered)
            #expect(counter?.count == 1)
            counter = nil
            #expect(weakCounter == nil)
            control.sendActions(for: .primaryActionTriggered)
            #expect(control.allControlEvents.isEmpty)
        }

        @Test("a disabled control takes no press, no focus, and says so to assistive technologies")
        func disabledTakesNoInput() {
            let harness = ControlHarness()
            let control = Control(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            harness.root.addSubview(control)
            var fired = 0
            control.addAction(for: .allEvents) { _ in fired += 1 }
            control.isEnabled = false
            harness.press(at: CGPoint(x: 20, y: 20))
            harness.release(at: CGPoint(x: 20, y: 20))
            #expect(fired == 0)
            #expect(!control.canBecomeFocused)
            #expect(control.state.contains(.disabled))
            #expect(control.accessibilityTraits.contains(.notEnabled))
            #expect(!control.accessibilityActivate())
        }

        @Test("Space on a focused control triggers its primary action once, not on repeat")
        func spaceTriggers() {
            let harness = ControlHarness()
            let control = Control(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            harness.root.addSubview(control)
            var fired = 0
            control.addAction(for: .primaryActionTriggered) { _ in fired += 1 }
            #expect(harness.window.focus(control))
            #expect(control.state.contains(.focused))
            harness.key(0x20)
            harness.key(0x20, isRepeat: true)
            harness.key(0xFF0D)
            #expect(fired == 2)
        }
    }
}

extension ControlsTests.ControlTests {
    @Test("removeTarget removes only that target's actions; nil removes every action for the events")
    func removeTarget() {
        final class Counter {
            var count = 0
            func hit(_ control: Control) { count += 1 }
        }
        let control = Control(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let first = Counter(), second = Counter()
        var closures = 0
        control.addTarget(first, action: Counter.hit, for: .valueChanged)
        control.addTarget(second, action: Counter.hit, for: .valueChanged)
        control.addAction(identifier: .init("log"), for: .valueChanged) { _ in closures += 1 }
        control.removeTarget(first, for: .valueChanged)
        control.sendActions(for: .valueChanged)
        #expect(first.count == 0 && second.count == 1 && closures == 1)
        control.removeAction(identifiedBy: .init("log"), for: .valueChanged)
        control.sendActions(for: .valueChanged)
        #expect(second.count == 2 && closures == 1)
        control.removeTarget(nil, for: .valueChanged)
        control.sendActions(for: .valueChanged)
        #expect(second.count == 2)
        #expect(control.allControlEvents.isEmpty)
    }

    @Test("an action that removes its own target while another target has gone leaves every other action registered")
    func actionRemovingItselfKeepsTheOthers() {
        @MainActor final class OneShot {
            var count = 0
            func fire(_ control: Control) {
                count += 1
                control.removeTarget(self, for: .valueChanged)
            }
        }
        final class Counter {
            var count = 0
            func hit(_ control: Control) { count += 1 }
        }
        let control = Control(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let oneShot = OneShot()
        var gone: Counter? = Counter()
        weak let weakGone = gone
        var closures = 0
        control.addTarget(oneShot, action: OneShot.fire, for: .valueChanged)
        control.addTarget(gone!, action: Counter.hit, for: .valueChanged)
        control.addAction(for: .valueChanged) { _ in closures += 1 }
        gone = nil
        #expect(weakGone == nil)
        // The one-shot target removes itself before the gone target is found: the gone
        // one must be dropped, not whatever sits at its old position (the closure).
        control.sendActions(for: .valueChanged)
        #expect(oneShot.count == 1 && closures == 1)
        control.sendActions(for: .valueChanged)
        #expect(oneShot.count == 1, "removed by its own action")
        #expect(closures == 2, "the closure is still registered")
        #expect(control.allControlEvents == .valueChanged)
    }
}

import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Records every accessibility notification posted while registered.
@MainActor final class NotificationRecorder: AccessibilityObserver {
    private(set) var posted: [AccessibilityNotification] = []

    init() { AccessibilityCenter.addObserver(self) }

    func stop() { AccessibilityCenter.removeObserver(self) }

    func accessibilityNotificationPosted(_ notification: AccessibilityNotification) {
        posted.append(notification)
    }

    /// Short names of what was posted, with the node's label where there is one.
    var names: [String] {
        posted.map { notification in
            switch notification {
            case .screenChanged: "screenChanged"
            case .layoutChanged: "layoutChanged"
            case .announcement(let text): "announcement(\(text))"
            case .valueChanged(let node): "valueChanged(\(node.accessibilityLabel ?? "?"))"
            case .selectionChanged(let node): "selectionChanged(\(node.accessibilityLabel ?? "?"))"
            case .textChanged(let node): "textChanged(\(node.accessibilityLabel ?? "?"))"
            case .childrenChanged(let node): "childrenChanged(\(node.accessibilityLabel ?? "?"))"
            case .frameChanged(let node): "frameChanged(\(node.accessibilityLabel ?? "?"))"
            case .focusChanged(_, let focus): "focusChanged(\(focus?.accessibilityLabel ?? "nil"))"
            case .propertyChanged(let node, let property): "propertyChanged(\(node.accessibilityLabel ?? "?"), \(property))"
            }
        }
    }
}

/// A button-like view with defaults given by overriding, as a control class does.
final class PressableView: View {
    var title = "Press"
    private(set) var presses = 0
    var level = 0

    override var isAccessibilityElement: Bool {
        get { true }
        set {}
    }
    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? title }
        set { super.accessibilityLabel = newValue }
    }
    override var accessibilityTraits: AccessibilityTraits {
        get { super.accessibilityTraits.union(.button) }
        set { super.accessibilityTraits = newValue }
    }
    override func accessibilityActivate() -> Bool {
        presses += 1
        return true
    }
    override func accessibilityIncrement() { level += 1 }
    override func accessibilityDecrement() { level -= 1 }
}

/// A view in the key-view loop that is an accessibility element.
final class TabStopView: View {
    override var canBecomeFocused: Bool { true }
    override var isAccessibilityElement: Bool {
        get { true }
        set {}
    }
}

extension ViewsTests {
    @Suite("Accessibility API", .exclusive, .timeLimit(.minutes(5))) @MainActor struct AccessibilityAPI {
        @Test("A plain view is a container with no label, no traits and no action")
        func plainViewDefaults() {
            let view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            #expect(!view.isAccessibilityElement)
            #expect(view.accessibilityLabel == nil)
            #expect(view.accessibilityTraits.isEmpty)
            #expect(!view.accessibilityActivate())
            #expect(view.accessibilityContainerType == .none)
        }

        @Test("accessibilityFrame is the view's bounds in window coordinates, through offsets and bounds origins")
        func frameIsInWindowCoordinates() {
            let harness = Harness(width: 200, height: 150)
            let outer = View(frame: CGRect(x: 20, y: 30, width: 100, height: 80))
            outer.bounds.origin = CGPoint(x: 5, y: 0)
            let inner = View(frame: CGRect(x: 10, y: 12, width: 40, height: 20))
            harness.root.addSubview(outer)
            outer.addSubview(inner)
            #expect(outer.accessibilityFrame == CGRect(x: 20, y: 30, width: 100, height: 80))
            #expect(inner.accessibilityFrame == CGRect(x: 25, y: 42, width: 40, height: 20))
            let element = AccessibilityElement(accessibilityContainer: inner)
            element.accessibilityFrameInContainerSpace = CGRect(x: 1, y: 2, width: 3, height: 4)
            #expect(element.accessibilityFrame == CGRect(x: 26, y: 44, width: 3, height: 4))
            #expect(element.accessibilityWindow === harness.window)
        }

        @Test("Children: visible subviews in order, accessibilityElements when set, none for an element")
        func childrenOrder() {
            let container = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let a = PressableView(), b = PressableView(), hidden = PressableView()
            a.title = "A"
            b.title = "B"
            hidden.isHidden = true
            [a, hidden, b].forEach(container.addSubview)
            #expect(container.accessibilityChildren.map { $0.accessibilityLabel } == ["A", "B"])
            container.accessibilityElements = [b, a]
            #expect(container.accessibilityChildren.map { $0.accessibilityLabel } == ["B", "A"])
            a.addSubview(View())
            #expect(a.accessibilityChildren.isEmpty, "an element's subviews are not visited")
        }

        @Test("Containers holding no element are left out of the visible tree")
        func emptyContainersAreInvisible() {
            let root = View()
            let decoration = View()
            decoration.addSubview(View())
            let group = View()
            group.addSubview(PressableView())
            root.addSubview(decoration)
            root.addSubview(group)
            #expect(!decoration.isAccessibilityVisible)
            #expect(group.isAccessibilityVisible)
            #expect(root.accessibilityVisibleChildren.count == 1)
            #expect(root.accessibilityVisibleChildren.first === group)
            group.accessibilityElementsHidden = true
            #expect(root.accessibilityVisibleChildren.isEmpty)
        }

        @Test("A subclass's overrides give defaults that a set value replaces")
        func overriddenDefaults() {
            let button = PressableView()
            #expect(button.accessibilityLabel == "Press")
            #expect(button.accessibilityTraits == .button)
            button.accessibilityLabel = "Start"
            button.accessibilityTraits = .selected
            #expect(button.accessibilityLabel == "Start")
            #expect(button.accessibilityTraits == [.button, .selected])
            #expect(button.accessibilityActivate())
            button.accessibilityIncrement()
            button.accessibilityIncrement()
            button.accessibilityDecrement()
            #expect(button.presses == 1)
            #expect(button.level == 1)
        }

        @Test("An element's activation runs its closure; without one it reports no action")
        func elementActivation() {
            let element = AccessibilityElement(accessibilityContainer: nil)
            #expect(!element.accessibilityActivate())
            var ran = 0
            element.onActivate = { ran += 1 }
            element.onIncrement = { ran += 10 }
            #expect(element.accessibilityActivate())
            element.accessibilityIncrement()
            element.accessibilityDecrement()
            #expect(ran == 11)
        }

        @Test("Tree changes, frames, labels, values and focus are posted while observed")
        func toolkitPostsChanges() {
            let harness = Harness(width: 200, height: 150)
            let recorder = NotificationRecorder()
            defer { recorder.stop() }
            let field = FocusableView()
            field.accessibilityLabel = "Field"
            harness.root.accessibilityLabel = "Root"
            harness.root.addSubview(field)
            field.frame = CGRect(x: 1, y: 2, width: 30, height: 10)
            field.accessibilityValue = "abc"
            field.accessibilityValue = "abc"  // unchanged: nothing posted
            #expect(field.becomeFirstResponder())
            field.isHidden = true
            field.removeFromSuperview()
            AccessibilityNotification.announcement("Saved").post()
            #expect(recorder.names == [
                "propertyChanged(Field, label)", "propertyChanged(Root, label)", "childrenChanged(Root)",
                "frameChanged(Field)", "valueChanged(Field)", "focusChanged(Field)",
                "propertyChanged(Field, visibility)", "childrenChanged(Root)", "childrenChanged(Root)",
                "announcement(Saved)",
            ])
        }

        @Test("Tab and Shift+Tab move accessibility focus with keyboard focus")
        func tabMovesAccessibilityFocus() {
            let harness = Harness(width: 200, height: 150)
            let first = TabStopView(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
            let second = TabStopView(frame: CGRect(x: 60, y: 10, width: 40, height: 20))
            first.accessibilityLabel = "First"
            second.accessibilityLabel = "Second"
            harness.root.addSubview(first)
            harness.root.addSubview(second)
            let recorder = NotificationRecorder()
            defer { recorder.stop() }
            func tab(shift: Bool) {
                let modifiers: ModifierFlags = shift ? [.shift] : []
                harness.window.dispatch(.key(KeyEvent(phase: .down, keysym: 0xFF09, modifiers: modifiers)))
                harness.window.dispatch(.key(KeyEvent(phase: .up, keysym: 0xFF09, modifiers: modifiers)))
            }
            tab(shift: false)
            tab(shift: false)
            tab(shift: true)
            // Each move passes through no focus (the old view resigns first); the bridge
            // reports that as the old element's `focused` state turning off, as GTK does.
            let focusNames = recorder.names.filter { $0.hasPrefix("focusChanged") }
            #expect(focusNames == [
                "focusChanged(First)", "focusChanged(nil)", "focusChanged(Second)", "focusChanged(nil)",
                "focusChanged(First)",
            ])
            #expect(harness.window.focusedView === first)
        }

        @Test("Nothing is delivered once the observer is removed, and none is registered by default")
        func unobservedPostsNothing() {
            #expect(!AccessibilityCenter.isObserved)
            let recorder = NotificationRecorder()
            #expect(AccessibilityCenter.isObserved)
            recorder.stop()
            #expect(!AccessibilityCenter.isObserved)
            let view = View()
            view.addSubview(View())
            view.accessibilityLabel = "x"
            #expect(recorder.posted.isEmpty)
        }

        @Test("Traits are distinct bits and combine as a set")
        func traitsAreDistinct() {
            let all: [AccessibilityTraits] = [
                .button, .link, .header, .staticText, .image, .selected, .notEnabled, .adjustable,
                .updatesFrequently, .searchField, .keyboardKey, .summaryElement, .allowsDirectInteraction,
                .tabBar, .playsSound, .startsMediaSession, .causesPageTurn, .textEntry, .progressIndicator,
                .busy, .listItem, .animation,
            ]
            #expect(Set(all.map(\.rawValue)).count == all.count)
            #expect(all.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
            #expect(AccessibilityTraits.none.isEmpty)
        }
    }
}

/// A view that takes keyboard focus.
final class FocusableView: View {
    override var canBecomeFirstResponder: Bool { true }
}

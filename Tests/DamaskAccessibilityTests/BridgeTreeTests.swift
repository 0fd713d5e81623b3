import DamaskControls
import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskAccessibility

/// A push button as a control class gives it: element, button trait, its title as label.
final class TestButton: View {
    var title = "OK"
    private(set) var clicks = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        isAccessibilityElement = true
        accessibilityTraits = .button
    }

    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? title }
        set { super.accessibilityLabel = newValue }
    }

    override func accessibilityActivate() -> Bool {
        clicks += 1
        return true
    }
}

/// A one-line text field's accessibility, over a plain string.
final class TestField: View, AccessibilityTextProviding {
    var text = ""
    var selected = 0..<0

    override init(frame: CGRect) {
        super.init(frame: frame)
        isAccessibilityElement = true
        accessibilityTraits = .textEntry
        accessibilityLabel = "Name"
    }

    override var canBecomeFirstResponder: Bool { true }
    var accessibilityText: String { text }
    var accessibilitySelectedRange: Range<Int> { selected }
    var isAccessibilityTextEditable: Bool { true }
    func setAccessibilitySelectedRange(_ range: Range<Int>) { selected = range }

    func replaceAccessibilityText(in range: Range<Int>, with new: String) -> Bool {
        var characters = Array(text)
        characters.replaceSubrange(range, with: Array(new))
        text = String(characters)
        selected = (range.lowerBound + new.count)..<(range.lowerBound + new.count)
        return true
    }
}

/// A progress bar's number.
final class TestBar: View, AccessibilityValueProviding {
    var fraction = 0.4
    var accessibilityNumericValue: Double { fraction * 100 }
    var accessibilityValueRange: ClosedRange<Double> { 0...100 }
}

/// How the bridge reads a live view tree (no D-Bus: the questions an AT asks, answered).
@Suite("AT-SPI bridge: the tree", .serialized, .exclusive, .timeLimit(.minutes(5))) @MainActor struct BridgeTreeTests {
    let window: Window
    let button = TestButton(frame: CGRect(x: 10, y: 20, width: 80, height: 30))
    let field = TestField(frame: CGRect(x: 10, y: 60, width: 200, height: 30))
    let bar = TestBar(frame: CGRect(x: 10, y: 100, width: 200, height: 10))
    let list = View(frame: CGRect(x: 220, y: 0, width: 100, height: 200))
    let decoration = View(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
    let rows: [AccessibilityElement]
    let bridge = AccessibilityBridge(applicationName: "tests", environment: [:])
    var selections: [Int] = []

    init() {
        window = Window(surface: MemorySurface(size: CGSize(width: 400, height: 300)))
        window.title = "Tests"
        bar.isAccessibilityElement = true
        bar.accessibilityTraits = .progressIndicator
        bar.accessibilityLabel = "Progress"
        list.accessibilityContainerType = .list
        list.accessibilityLabel = "Rows"
        var made: [AccessibilityElement] = []
        for index in 0..<3 {
            let row = AccessibilityElement(accessibilityContainer: list)
            row.accessibilityLabel = "Row \(index)"
            row.accessibilityFrameInContainerSpace = CGRect(x: 0, y: CGFloat(index) * 40, width: 100, height: 40)
            row.accessibilityTraits = index == 1 ? .selected : []
            made.append(row)
        }
        rows = made
        list.accessibilityElements = made
        for view in [button, field, bar, list, decoration] { window.contentView.addSubview(view) }
    }

    func roles(_ node: AtspiNode) -> [String] { bridge.children(of: node).map { bridge.role(of: $0).name } }

    @Test("The application lists its window as a frame named by its title; the content view is a panel of the elements")
    func topOfTheTree() {
        let windows = bridge.children(of: .application)
        #expect(windows.contains { $0.isSame(as: .window(window)) })
        #expect(bridge.role(of: .window(window)) == .frame)
        #expect(bridge.name(of: .window(window)) == "Tests")
        let content = bridge.children(of: .window(window))
        #expect(content.count == 1)
        #expect(content.first.map { bridge.role(of: $0) } == .panel)
        #expect(roles(.element(window.contentView)) == ["push button", "entry", "progress bar", "list"], "the empty decoration is left out")
        #expect(bridge.parent(of: .element(window.contentView))?.isSame(as: .window(window)) == true)
    }

    @Test("A list's elements are list items, the selected one selected, with a press action that activates them")
    func listRows() {
        #expect(roles(.element(list)) == ["list item", "list item", "list item"])
        let second = AtspiNode.element(rows[1])
        #expect(bridge.states(of: second).isSuperset(of: [.selected, .selectable, .showing, .enabled]))
        #expect(!bridge.states(of: .element(rows[0])).contains(.selected))
        #expect(bridge.interfaces(of: .element(list)).contains("org.a11y.atspi.Selection"))
        #expect(bridge.selectedChildren(of: .element(list)).count == 1)
        var activated = false
        rows[2].onActivate = { activated = true }
        #expect(bridge.actions(of: rows[2]).map(\.name) == ["press"])
        #expect(rows[2].accessibilityActivate() && activated)
        #expect(bridge.parent(of: second)?.isSame(as: .element(list)) == true)
        #expect(bridge.indexInParent(second) == 1)
    }

    @Test("Extents are window coordinates, elements' through their container; hit testing finds the deepest node")
    func geometry() {
        #expect(bridge.extents(of: .element(button)) == [10, 20, 80, 30])
        #expect(bridge.extents(of: .element(rows[2])) == [220, 80, 100, 40])
        #expect(bridge.extents(of: .element(rows[2]), relativeToParent: true) == [0, 80, 100, 40])
        let hit = bridge.node(at: CGPoint(x: 230, y: 50), in: .window(window))
        #expect(hit?.isSame(as: .element(rows[1])) == true)
        #expect(bridge.node(at: CGPoint(x: 390, y: 290), in: .window(window))?.isSame(as: .element(window.contentView)) == true)
    }

    @Test("States and interfaces follow traits and protocols: button, editable entry with focus, progress value")
    func statesAndInterfaces() {
        #expect(bridge.interfaces(of: .element(button)).contains("org.a11y.atspi.Action"))
        #expect(bridge.name(of: .element(button)) == "OK")
        button.accessibilityTraits.insert(.notEnabled)
        #expect(!bridge.states(of: .element(button)).contains(.enabled))
        #expect(bridge.interfaces(of: .element(field)) .contains("org.a11y.atspi.EditableText"))
        #expect(bridge.states(of: .element(field)).isSuperset(of: [.editable, .focusable, .singleLine]))
        #expect(field.becomeFirstResponder())
        #expect(bridge.states(of: .element(field)).contains(.focused))
        #expect(bridge.interfaces(of: .element(bar)).contains("org.a11y.atspi.Value"))
        #expect(!bridge.interfaces(of: .element(bar)).contains("org.a11y.atspi.Action"))
        field.isHidden = true
        #expect(!roles(.element(window.contentView)).contains("entry"), "hidden views leave the tree")
    }

    @Test("Text and EditableText: ranges with -1, words, insert and delete by characters")
    func text() {
        field.text = "héllo wörld"
        let node = AtspiNode.element(field)
        #expect(bridge.text("GetText", [.int32(0), .int32(-1)], node) == [.string("héllo wörld")])
        #expect(bridge.text("GetText", [.int32(6), .int32(99)], node) == [.string("wörld")])
        #expect(bridge.text("GetTextAtOffset", [.int32(2), .uint32(1)], node) == [.string("héllo "), .int32(0), .int32(6)])
        #expect(bridge.text("GetCharacterAtOffset", [.int32(1)], node) == [.int32(0xE9)])
        #expect(bridge.editableText("InsertText", [.int32(5), .string(","), .int32(1)], node) == [.boolean(true)])
        #expect(field.text == "héllo, wörld")
        #expect(bridge.editableText("DeleteText", [.int32(0), .int32(7)], node) == [.boolean(true)])
        #expect(field.text == "wörld")
        _ = bridge.text("SetSelection", [.int32(0), .int32(1), .int32(3)], node)
        #expect(field.selected == 1..<3)
        #expect(bridge.text("GetSelection", [.int32(0)], node) == [.int32(1), .int32(3)])
    }
}

extension BridgeTreeTests {
    @Test("A Switch is a checkable toggle button, checked while on, with a press action; a slider and a progress view offer Value")
    func switchAndValues() {
        let toggle = Switch(isOn: false)
        toggle.accessibilityLabel = "Wi-Fi"
        let slider = Slider(value: 0.25)
        let progress = ProgressView(progress: 0.5)
        for view in [toggle, slider, progress] as [View] { window.contentView.addSubview(view) }
        let node = AtspiNode.element(toggle)
        #expect(bridge.role(of: node) == .toggleButton)
        #expect(bridge.role(of: node).name == "toggle button")
        #expect(bridge.states(of: node).contains(.checkable))
        #expect(!bridge.states(of: node).contains(.checked))
        #expect(bridge.actions(of: toggle).map(\.name) == ["press"])
        #expect(toggle.accessibilityActivate())
        #expect(toggle.isOn)
        #expect(bridge.states(of: node).isSuperset(of: [.checkable, .checked]))
        #expect(!bridge.states(of: node).contains(.selected), "a switch that is on is checked, not selected")
        #expect(AtspiState.words([.checked, .checkable]) == [1 << 4, 1 << 9], "ATSPI_STATE_CHECKED 4, ATSPI_STATE_CHECKABLE 41")
        #expect(bridge.role(of: .element(slider)) == .slider)
        #expect(bridge.interfaces(of: .element(slider)).contains("org.a11y.atspi.Value"))
        #expect(bridge.role(of: .element(progress)) == .progressBar)
        #expect(bridge.interfaces(of: .element(progress)).contains("org.a11y.atspi.Value"))
    }
}

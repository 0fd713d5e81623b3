import DamaskViews
import Foundation

/// How the bridge reads the tree: children, parents, roles, names and states of nodes, all
/// from the live views at the moment of the question.
extension AccessibilityBridge {
    /// The windows listed under the application: every open window.
    var windows: [Window] { AccessibilityCenter.windows }

    func children(of node: AtspiNode) -> [AtspiNode] {
        switch node {
        case .application:
            return windows.map { .window($0) }
        case .window(let window):
            let content = window.contentView
            return content.isAccessibilityVisible ? [.element(content)] : []
        case .element(let element):
            return element.accessibilityVisibleChildren.map { .element($0) }
        }
    }

    /// The node's children, remembering this node as their parent (as the AT saw it).
    func listedChildren(of node: AtspiNode) -> [AtspiNode] {
        let list = children(of: node)
        if let parent = node.object {
            for child in list {
                guard let object = child.object else { continue }
                objects.entry(for: object, isWindow: isWindow(child)).listedParent = parent
            }
            let entry = objects.entry(for: parent, isWindow: isWindow(node))
            entry.reportedChildren = list.compactMap { $0.object.map(ObjectIdentifier.init) }
        }
        return list
    }

    func isWindow(_ node: AtspiNode) -> Bool {
        if case .window = node { return true }
        return false
    }

    func parent(of node: AtspiNode) -> AtspiNode? {
        switch node {
        case .application: return nil
        case .window: return .application
        case .element(let element):
            if let entry = objects.existingEntry(for: element), let listed = entry.listedParent {
                if let window = listed as? Window { return .window(window) }
                if let accessible = listed as? any Accessible { return .element(accessible) }
            }
            if let view = element as? View, let window = view.window, window.contentView === view { return .window(window) }
            var candidate = element.accessibilityParent
            while let current = candidate {  // the first ancestor the AT sees
                if current.isAccessibilityVisible { return .element(current) }
                if let view = current as? View, let window = view.window, window.contentView === view {
                    return .window(window)
                }
                candidate = current.accessibilityParent
            }
            return element.accessibilityWindow.map { .window($0) }
        }
    }

    func indexInParent(_ node: AtspiNode) -> Int32 {
        guard let parent = parent(of: node) else { return -1 }
        return Int32(children(of: parent).firstIndex { $0.isSame(as: node) } ?? -1)
    }

    func role(of node: AtspiNode) -> AtspiRole {
        switch node {
        case .application: return .application
        case .window: return .frame
        case .element(let element):
            let parentIsList: Bool =
                if case .element(let parent)? = parent(of: node) { parent.accessibilityContainerType == .list } else { false }
            return AtspiRole(of: element, parentIsList: parentIsList)
        }
    }

    func name(of node: AtspiNode) -> String {
        switch node {
        case .application: applicationName
        case .window(let window): window.title
        case .element(let element): element.accessibilityLabel ?? ""
        }
    }

    func description(of node: AtspiNode) -> String {
        node.accessible?.accessibilityHint ?? ""
    }

    func states(of node: AtspiNode) -> Set<AtspiState> {
        switch node {
        case .application:
            return []
        case .window(let window):
            var states: Set<AtspiState> = [.enabled, .sensitive, .visible, .showing, .resizable]
            if window.isKeyWindow { states.insert(.active) }
            return states
        case .element(let element):
            let traits = element.accessibilityTraits
            var states: Set<AtspiState> = [.visible]
            if element.accessibilityWindow != nil, !isHiddenInWindow(element) { states.insert(.showing) }
            if !traits.contains(.notEnabled) { states.formUnion([.enabled, .sensitive]) }
            if traits.contains(.busy) { states.insert(.busy) }
            if traits.contains(.toggleButton) {
                // A switch is checked when on, never "selected" (GTK's toggle buttons alike).
                states.insert(.checkable)
                if traits.contains(.selected) { states.insert(.checked) }
            } else if traits.contains(.selected) {
                states.insert(.selected)
            }
            if role(of: node) == .listItem { states.insert(.selectable) }
            if let view = element as? View {
                if view.canBecomeFirstResponder { states.insert(.focusable) }
                if view.isFirstResponder { states.insert(.focused) }
            }
            if traits.contains(.progressIndicator) || traits.contains(.adjustable) { states.insert(.horizontal) }
            if let text = element as? any AccessibilityTextProviding {
                states.formUnion([text.isAccessibilityTextMultiline ? .multiLine : .singleLine, .selectableText])
                states.insert(text.isAccessibilityTextEditable ? .editable : .readOnly)
            }
            return states
        }
    }

    private func isHiddenInWindow(_ element: any Accessible) -> Bool {
        var view = element as? View ?? (element.accessibilityParent as? View)
        while let current = view {
            if current.isHidden { return true }
            view = current.superview
        }
        return false
    }

    /// The AT-SPI interfaces `node` implements.
    func interfaces(of node: AtspiNode) -> [String] {
        var names = ["org.a11y.atspi.Accessible"]
        switch node {
        case .application:
            names.append("org.a11y.atspi.Application")
        case .window:
            names.append("org.a11y.atspi.Component")
        case .element(let element):
            names.append("org.a11y.atspi.Component")
            if !actions(of: element).isEmpty { names.append("org.a11y.atspi.Action") }
            if element is any AccessibilityValueProviding { names.append("org.a11y.atspi.Value") }
            if let text = element as? any AccessibilityTextProviding {
                names.append("org.a11y.atspi.Text")
                if text.isAccessibilityTextEditable { names.append("org.a11y.atspi.EditableText") }
            }
            if element.accessibilityContainerType == .list { names.append("org.a11y.atspi.Selection") }
        }
        return names
    }

    /// The actions an element offers: name, description.
    func actions(of element: any Accessible) -> [(name: String, description: String)] {
        let traits = element.accessibilityTraits
        var list: [(String, String)] = []
        let activates =
            traits.contains(.button) || traits.contains(.link) || traits.contains(.listItem)
            || traits.contains(.keyboardKey)
            || (element as? AccessibilityElement)?.onActivate != nil
        if element.isAccessibilityElement, activates { list.append(("press", element.accessibilityHint ?? "Activates the element")) }
        if element.isAccessibilityElement, traits.contains(.adjustable) {
            list.append(("increment", "Increases the value"))
            list.append(("decrement", "Decreases the value"))
        }
        return list
    }

    /// The node's extents in window coordinates (x, y, width, height), rounded out.
    func extents(of node: AtspiNode, relativeToParent: Bool = false) -> [Int32] {
        let frame: CGRect
        switch node {
        case .application: return [0, 0, 0, 0]
        case .window(let window): frame = window.bounds
        case .element(let element): frame = element.accessibilityFrame
        }
        var rect = frame.integral
        if relativeToParent, let parent = parent(of: node), case .element = parent {
            let origin = parent.accessible?.accessibilityFrame.integral.origin ?? .zero
            rect = rect.offsetBy(dx: -origin.x, dy: -origin.y)
        }
        return [Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height)]
    }

    /// The deepest node under `point` (window coordinates) inside `node`.
    func node(at point: CGPoint, in node: AtspiNode) -> AtspiNode? {
        for child in children(of: node).reversed() {
            let box = extents(of: child)
            let rect = CGRect(x: CGFloat(box[0]), y: CGFloat(box[1]), width: CGFloat(box[2]), height: CGFloat(box[3]))
            if rect.contains(point) { return self.node(at: point, in: child) ?? child }
        }
        return nil
    }

    /// `(so)` for `node` on this connection.
    func reference(_ node: AtspiNode) -> DBusValue {
        .reference(bus?.uniqueName ?? "", objects.path(of: node))
    }

    /// The null reference AT-SPI uses for "none".
    var nullReference: DBusValue { .reference("", "/org/a11y/atspi/null") }
}

import DamaskViews
import Foundation

/// Turns the toolkit's notifications into AT-SPI events, only for what the AT has seen: a
/// children-changed event for a node whose children it listed, bounds-changed for one it
/// was given, text-changed for a text it read or was told about.
extension AccessibilityBridge {
    public func accessibilityNotificationPosted(_ notification: AccessibilityNotification) {
        guard bus != nil else { return }
        switch notification {
        case .childrenChanged(let node):
            childrenMayHaveChanged(from: node)
        case .frameChanged(let node):
            boundsMayHaveChanged(node)
        case .focusChanged(_, let focus):
            focusDidChange(to: focus)
        case .valueChanged(let node):
            guard objects.existingEntry(for: node) != nil else { return }
            let value: DBusValue =
                if let number = node as? any AccessibilityValueProviding { .double(number.accessibilityNumericValue) }
                else { .string(node.accessibilityValue ?? "") }
            emit(.element(node), "PropertyChange", "accessible-value", 0, 0, value)
        case .textChanged(let node):
            textDidChange(node)
        case .selectionChanged(let node):
            selectionDidChange(node)
        case .propertyChanged(let node, let property):
            propertyDidChange(node, property)
        case .announcement(let text):
            let source: AtspiNode = windows.first.map { .window($0) } ?? .application
            emit(source, "Announcement", "", 1, 0, .string(text))  // 1: polite
        case .layoutChanged(let focus), .screenChanged(let focus):
            for entry in objects.entries where entry.reportedChildren != nil {
                if let object = entry.object as? any Accessible { childrenMayHaveChanged(from: object) }
            }
            if let focus { emitFocus(.element(focus)) }
        }
    }

    /// Emits `Object:<member>` from `node` (AT-SPI's `siiva{sv}` event body).
    func emit(
        _ node: AtspiNode, _ member: String, _ detail: String, _ detail1: Int32, _ detail2: Int32, _ value: DBusValue,
        interface: String = "org.a11y.atspi.Event.Object"
    ) {
        bus?.emitSignal(
            objects.path(of: node), interface, member,
            [.string(detail), .int32(detail1), .int32(detail2), .variant(value), .dictionary([])])
    }

    private func childrenMayHaveChanged(from node: any Accessible) {
        var candidate: (any Accessible)? = node
        while let current = candidate {  // the node and every ancestor whose children the AT listed
            if let entry = objects.existingEntry(for: current), entry.reportedChildren != nil {
                diffChildren(of: .element(current), entry)
            }
            if let view = current as? View, let window = view.window, window.contentView === view {
                if let entry = objects.existingEntry(for: window), entry.reportedChildren != nil {
                    diffChildren(of: .window(window), entry)
                }
            }
            candidate = current.accessibilityParent
        }
    }

    private func diffChildren(of node: AtspiNode, _ entry: AtspiObjectTable.Entry) {
        let old = entry.reportedChildren ?? []
        let list = listedChildren(of: node)
        let new = list.compactMap { $0.object.map(ObjectIdentifier.init) }
        guard old != new else { return }
        for (index, identifier) in old.enumerated().reversed() where !new.contains(identifier) {
            let path = objects.entries.first { $0.object.map(ObjectIdentifier.init) == identifier }?.path
            emit(node, "ChildrenChanged", "remove", Int32(index), 0, .reference(bus?.uniqueName ?? "", path ?? "/org/a11y/atspi/null"))
        }
        for (index, child) in list.enumerated() where !old.contains(new[index]) {
            emit(node, "ChildrenChanged", "add", Int32(index), 0, reference(child))
        }
    }

    private func boundsMayHaveChanged(_ node: any Accessible) {
        guard let entry = objects.existingEntry(for: node), entry.reportedExtents != nil || entry.listedParent != nil else { return }
        let box = extents(of: .element(node))
        guard box != entry.reportedExtents else { return }
        entry.reportedExtents = box
        emit(.element(node), "BoundsChanged", "", 0, 0, .structure(box.map { .int32($0) }))
    }

    private func focusDidChange(to focus: (any Accessible)?) {
        if let old = focusedObject as? any Accessible, old !== focus {
            emit(.element(old), "StateChanged", "focused", 0, 0, .int32(0))
        }
        focusedObject = focus
        // A container that takes keys for its shortcuts (damask-demo's root view) is no
        // place for a screen reader's focus: only elements get focus events.
        guard let focus, focus.isAccessibilityElement else { return }
        emitFocus(.element(focus))
    }

    private func emitFocus(_ node: AtspiNode) {
        emit(node, "StateChanged", "focused", 1, 0, .int32(0))
        emit(node, "Focus", "", 0, 0, .int32(0), interface: "org.a11y.atspi.Event.Focus")
    }

    private func textDidChange(_ node: any Accessible) {
        // A text the AT never learnt of has nothing to be told (its first read is whole).
        guard let provider = node as? any AccessibilityTextProviding, let entry = objects.existingEntry(for: node) else { return }
        let new = Array(provider.accessibilityText)
        let old = Array(entry.reportedText ?? "")
        entry.reportedText = provider.accessibilityText
        guard old != new else { return }
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let removed = old[prefix..<(old.count - suffix)], inserted = new[prefix..<(new.count - suffix)]
        if !removed.isEmpty {
            emit(.element(node), "TextChanged", "delete", Int32(prefix), Int32(removed.count), .string(String(removed)))
        }
        if !inserted.isEmpty {
            emit(.element(node), "TextChanged", "insert", Int32(prefix), Int32(inserted.count), .string(String(inserted)))
        }
    }

    private func selectionDidChange(_ node: any Accessible) {
        if let provider = node as? any AccessibilityTextProviding {
            let range = provider.accessibilitySelectedRange
            emit(.element(node), "TextCaretMoved", "", Int32(range.upperBound), 0, .int32(0))
            if !range.isEmpty { emit(.element(node), "TextSelectionChanged", "", 0, 0, .int32(0)) }
        } else if node.accessibilityContainerType == .list {
            emit(.element(node), "SelectionChanged", "", 0, 0, .int32(0))
        }
    }

    private func propertyDidChange(_ node: any Accessible, _ property: AccessibilityProperty) {
        guard objects.existingEntry(for: node) != nil else { return }
        switch property {
        case .label:
            emit(.element(node), "PropertyChange", "accessible-name", 0, 0, .string(node.accessibilityLabel ?? ""))
        case .hint:
            emit(.element(node), "PropertyChange", "accessible-description", 0, 0, .string(node.accessibilityHint ?? ""))
        case .traits(let old):
            let new = node.accessibilityTraits
            let changes: [(AccessibilityTraits, AtspiState, Bool)] = [
                // A toggle button's selection is its checked state.
                (.selected, new.contains(.toggleButton) ? .checked : .selected, new.contains(.selected)),
                (.busy, .busy, new.contains(.busy)),
                (.notEnabled, .enabled, !new.contains(.notEnabled)),
            ]
            for (trait, state, isOn) in changes where old.contains(trait) != new.contains(trait) {
                emit(.element(node), "StateChanged", state.eventName, isOn ? 1 : 0, 0, .int32(0))
            }
        case .visibility:
            let showing = (node as? View).map { !$0.isHidden } ?? true
            emit(.element(node), "StateChanged", "showing", showing ? 1 : 0, 0, .int32(0))
        }
    }
}

import DamaskViews
import Foundation

/// The AT-SPI methods and properties: each call is answered from the live tree.
extension AccessibilityBridge {
    /// Answers a method call on the accessibility bus; returns whether it was one of ours.
    func handle(_ message: DBusIncomingMessage) -> Bool {
        guard message.type == 1, let bus else { return false }  // DBUS_MESSAGE_TYPE_METHOD_CALL
        if message.path == "/org/a11y/atspi/cache", message.member == "GetItems" {
            // The old cache interface libatspi still asks for: the tree is read on demand.
            bus.reply(to: message, [.array(element: "((so)(so)(so)iiassusau)", [])])
            return true
        }
        guard message.path.hasPrefix(AtspiObjectTable.prefix) else { return false }
        guard let node = objects.node(at: message.path) else {
            bus.replyError(to: message, "org.freedesktop.DBus.Error.UnknownObject", "\(message.path) is gone")
            return true
        }
        let arguments = message.arguments
        let answer: [DBusValue]?
        switch message.interface {
        case "org.freedesktop.DBus.Properties":
            answer = properties(message.member, arguments, node)
        case "org.a11y.atspi.Accessible": answer = accessible(message.member, arguments, node)
        case "org.a11y.atspi.Component": answer = component(message.member, arguments, node)
        case "org.a11y.atspi.Action": answer = action(message.member, arguments, node)
        case "org.a11y.atspi.Text": answer = text(message.member, arguments, node)
        case "org.a11y.atspi.EditableText": answer = editableText(message.member, arguments, node)
        case "org.a11y.atspi.Selection": answer = selection(message.member, arguments, node)
        case "org.a11y.atspi.Application": answer = application(message.member, arguments)
        case "org.freedesktop.DBus.Introspectable":
            answer = message.member == "Introspect" ? [.string("<node/>")] : nil
        default: answer = nil
        }
        if let answer {
            bus.reply(to: message, answer)
        } else {
            bus.replyError(
                to: message, "org.freedesktop.DBus.Error.UnknownMethod",
                "\(message.interface).\(message.member) is not supported on \(message.path)")
        }
        return true
    }

    private func int(_ arguments: [DBusValue], _ index: Int) -> Int {
        index < arguments.count ? Int(arguments[index].int32Value ?? 0) : 0
    }

    // MARK: Properties

    private func properties(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        let interface = arguments.first?.stringValue ?? ""
        switch member {
        case "Get":
            guard arguments.count > 1, let name = arguments[1].stringValue,
                let value = propertyValues(interface, node).first(where: { $0.0 == name })?.1
            else { return nil }
            return [.variant(value)]
        case "GetAll":
            return [.dictionary(propertyValues(interface, node))]
        case "Set":
            guard arguments.count > 2, let name = arguments[1].stringValue else { return nil }
            if interface == "org.a11y.atspi.Application", name == "Id" {
                applicationID = arguments[2].int32Value ?? 0
                return []
            }
            if interface == "org.a11y.atspi.Value", name == "CurrentValue",
                let value = node.accessible as? any AccessibilityValueProviding, let number = arguments[2].doubleValue
            {
                _ = value.setAccessibilityNumericValue(number)
                return []
            }
            return nil
        default:
            return nil
        }
    }

    private func propertyValues(_ interface: String, _ node: AtspiNode) -> [(String, DBusValue)] {
        switch interface {
        case "org.a11y.atspi.Accessible":
            let parentReference = parent(of: node).map(reference) ?? nullReference
            return [
                ("Name", .string(name(of: node))),
                ("Description", .string(description(of: node))),
                ("Parent", node.isSame(as: .application) ? nullReference : parentReference),
                ("ChildCount", .int32(Int32(children(of: node).count))),
                ("Locale", .string(locale)),
                ("AccessibleId", .string(node.accessible?.accessibilityIdentifier ?? "")),
                ("HelpText", .string(node.accessible?.accessibilityHint ?? "")),
            ]
        case "org.a11y.atspi.Application":
            return [
                ("ToolkitName", .string("Damask")),
                ("Version", .string("1")),
                ("AtspiVersion", .string("2.1")),
                ("Id", .int32(applicationID)),
            ]
        case "org.a11y.atspi.Action":
            return [("NActions", .int32(Int32(node.accessible.map(actions(of:))?.count ?? 0)))]
        case "org.a11y.atspi.Value":
            guard let value = node.accessible as? any AccessibilityValueProviding else { return [] }
            return [
                ("MinimumValue", .double(value.accessibilityValueRange.lowerBound)),
                ("MaximumValue", .double(value.accessibilityValueRange.upperBound)),
                ("MinimumIncrement", .double(value.accessibilityValueStep)),
                ("CurrentValue", .double(value.accessibilityNumericValue)),
                ("Text", .string(node.accessible?.accessibilityValue ?? "")),
            ]
        case "org.a11y.atspi.Text":
            guard let text = node.accessible as? any AccessibilityTextProviding else { return [] }
            return [
                ("CharacterCount", .int32(Int32(text.accessibilityText.count))),
                ("CaretOffset", .int32(Int32(text.accessibilitySelectedRange.upperBound))),
            ]
        case "org.a11y.atspi.Selection":
            return [("NSelectedChildren", .int32(Int32(selectedChildren(of: node).count)))]
        default:
            return []
        }
    }

    private var locale: String {
        ProcessInfo.processInfo.environment["LANG"].map { String($0.prefix { $0 != "." }) } ?? "C"
    }

    // MARK: Accessible

    private func accessible(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        switch member {
        case "GetChildAtIndex":
            let list = listedChildren(of: node)
            let index = int(arguments, 0)
            return [list.indices.contains(index) ? reference(list[index]) : nullReference]
        case "GetChildren":
            return [.array(element: "(so)", listedChildren(of: node).map(reference))]
        case "GetIndexInParent": return [.int32(indexInParent(node))]
        case "GetRelationSet": return [.array(element: "(ua(so))", [])]
        case "GetRole": return [.uint32(role(of: node).rawValue)]
        case "GetRoleName", "GetLocalizedRoleName": return [.string(role(of: node).name)]
        case "GetState": return [.array(element: "u", AtspiState.words(states(of: node)).map { .uint32($0) })]
        case "GetAttributes": return [attributes(of: node)]
        case "GetApplication": return [reference(.application)]
        case "GetInterfaces": return [.array(element: "s", interfaces(of: node).map { .string($0) })]
        default: return nil
        }
    }

    private func attributes(of node: AtspiNode) -> DBusValue {
        var pairs: [(String, DBusValue)] = [("toolkit", .string("Damask"))]
        if let element = node.accessible {
            if let identifier = element.accessibilityIdentifier { pairs.append(("id", .string(identifier))) }
            if let value = element.accessibilityValue { pairs.append(("value", .string(value))) }
            if element.accessibilityTraits.contains(.updatesFrequently) { pairs.append(("live", .string("polite"))) }
            if element.accessibilityTraits.contains(.header) { pairs.append(("level", .string("1"))) }
            if let view = element as? View { pairs.append(("class", .string(String(describing: type(of: view))))) }
        }
        return .dictionary(pairs, valueSignature: "s")
    }

    // MARK: Component

    private func component(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        let coordinates = arguments.last?.uint32Value ?? 0  // 0 screen, 1 window, 2 parent
        switch member {
        case "GetExtents":
            return [.structure(extents(of: node, relativeToParent: coordinates == 2).map { .int32($0) })]
        case "GetPosition":
            return extents(of: node, relativeToParent: coordinates == 2).prefix(2).map { .int32($0) }
        case "GetSize":
            return extents(of: node).suffix(2).map { .int32($0) }
        case "Contains":
            let box = extents(of: node, relativeToParent: coordinates == 2)
            let (x, y) = (Int32(int(arguments, 0)), Int32(int(arguments, 1)))
            return [.boolean(x >= box[0] && y >= box[1] && x < box[0] + box[2] && y < box[1] + box[3])]
        case "GetAccessibleAtPoint":
            var point = CGPoint(x: int(arguments, 0), y: int(arguments, 1))
            if coordinates == 2 {
                let box = extents(of: node)
                point.x += CGFloat(box[0])
                point.y += CGFloat(box[1])
            }
            return [self.node(at: point, in: node).map(reference) ?? nullReference]
        case "GetLayer": return [.uint32(isWindow(node) ? 7 : 3)]  // ATSPI_LAYER_WINDOW, _WIDGET
        case "GetMDIZOrder": return [.int16(0)]
        case "GetAlpha": return [.double(1)]
        case "GrabFocus":
            guard let view = node.accessible as? View else { return [.boolean(false)] }
            return [.boolean(view.becomeFirstResponder())]
        default: return nil
        }
    }

    // MARK: Action

    private func action(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        guard let element = node.accessible else { return nil }
        let list = actions(of: element)
        let index = int(arguments, 0)
        let chosen = list.indices.contains(index) ? list[index] : nil
        switch member {
        case "GetName", "GetLocalizedName": return [.string(chosen?.name ?? "")]
        case "GetDescription": return [.string(chosen?.description ?? "")]
        case "GetKeyBinding": return [.string("")]
        case "GetActions":
            return [.array(element: "(sss)", list.map { .structure([.string($0.name), .string($0.description), .string("")]) })]
        case "DoAction":
            guard let chosen else { return [.boolean(false)] }
            // Performed after the reply, so the AT is not kept waiting for what it starts.
            Task { @MainActor in
                switch chosen.name {
                case "increment": element.accessibilityIncrement()
                case "decrement": element.accessibilityDecrement()
                default: _ = element.accessibilityActivate()
                }
            }
            return [.boolean(true)]
        default: return nil
        }
    }

    // MARK: Selection

    func selectedChildren(of node: AtspiNode) -> [AtspiNode] {
        children(of: node).filter { $0.accessible?.accessibilityTraits.contains(.selected) ?? false }
    }

    private func selection(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        let list = children(of: node)
        let index = int(arguments, 0)
        switch member {
        case "GetSelectedChild":
            let selected = selectedChildren(of: node)
            return [selected.indices.contains(index) ? reference(selected[index]) : nullReference]
        case "SelectChild":
            guard list.indices.contains(index), let child = list[index].accessible else { return [.boolean(false)] }
            return [.boolean(child.accessibilityActivate())]
        case "IsChildSelected":
            return [.boolean(list.indices.contains(index) && (list[index].accessible?.accessibilityTraits.contains(.selected) ?? false))]
        case "DeselectSelectedChild", "DeselectChild", "SelectAll", "ClearSelection":
            return [.boolean(false)]  // a single-selection list: one row is always selected
        default: return nil
        }
    }

    // MARK: Application

    private func application(_ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        switch member {
        case "GetLocale": return [.string(locale)]
        default: return nil
        }
    }
}

import DamaskViews

/// One object the bridge exports: the application (the tree's root), a window, or a view
/// or element of a window. Main-actor.
@MainActor enum AtspiNode {
    case application
    case window(Window)
    case element(any Accessible)

    /// The object behind the node, for identity (nil for the application).
    var object: AnyObject? {
        switch self {
        case .application: nil
        case .window(let window): window
        case .element(let element): element
        }
    }

    /// The accessible behind the node, if it is a view or element.
    var accessible: (any Accessible)? {
        if case .element(let element) = self { return element }
        return nil
    }

    func isSame(as other: AtspiNode) -> Bool {
        switch (self, other) {
        case (.application, .application): true
        default: object != nil && object === other.object
        }
    }
}

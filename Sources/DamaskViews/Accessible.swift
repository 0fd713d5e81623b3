import Foundation

/// Something an assistive technology can see: a ``View`` or an ``AccessibilityElement``
/// (the parts of a view that draws several things, such as a list's rows). UIKit spreads
/// this over `NSObject`'s informal accessibility protocol; here it is one protocol, which
/// both kinds adopt and the AT-SPI bridge reads. Main-actor.
///
/// The accessibility tree: a node's children are ``accessibilityChildren`` (a container's
/// ``View/accessibilityElements`` when set, else its visible subviews); a node that is an
/// element (``isAccessibilityElement``) is read as one thing, its subviews are not visited.
@MainActor public protocol Accessible: AnyObject {
    /// Whether this node is one element to assistive technologies, rather than a container
    /// of elements.
    var isAccessibilityElement: Bool { get }
    /// The element's short name ("Start", "Text").
    var accessibilityLabel: String? { get }
    /// The element's value as text ("40 %", a field's text).
    var accessibilityValue: String? { get }
    /// What activating the element does, when the label does not say it.
    var accessibilityHint: String? { get }
    /// A name for tests and tools that stays put when the label is translated.
    var accessibilityIdentifier: String? { get }
    /// The element's kind and state.
    var accessibilityTraits: AccessibilityTraits { get }
    /// How the children of this container belong together.
    var accessibilityContainerType: AccessibilityContainerType { get }
    /// Whether this node and its subtree are hidden from assistive technologies.
    var accessibilityElementsHidden: Bool { get }
    /// The node's rect in its window's coordinates (points). Wayland tells a client nothing
    /// about where its window is on screen, so window coordinates are all there is.
    var accessibilityFrame: CGRect { get }
    /// The node this one belongs to: a view's superview, an element's container.
    var accessibilityParent: (any Accessible)? { get }
    /// The window showing this node.
    var accessibilityWindow: Window? { get }
    /// The nodes inside this one, in reading order (empty for an element).
    var accessibilityChildren: [any Accessible] { get }
    /// Performs the element's default action (a button's click) for an assistive
    /// technology; returns whether there was one.
    func accessibilityActivate() -> Bool
    /// Moves an ``AccessibilityTraits/adjustable`` element's value one step up.
    func accessibilityIncrement()
    /// Moves an ``AccessibilityTraits/adjustable`` element's value one step down.
    func accessibilityDecrement()
}

extension Accessible {
    /// Whether the node is shown to assistive technologies: an element, or a container
    /// with at least one such node inside (containers of nothing are left out of the tree).
    public var isAccessibilityVisible: Bool {
        guard !accessibilityElementsHidden else { return false }
        if isAccessibilityElement { return true }
        return accessibilityChildren.contains { $0.isAccessibilityVisible }
    }

    /// The children an assistive technology sees: ``accessibilityChildren`` without those
    /// that are not ``isAccessibilityVisible``. Empty for an element.
    public var accessibilityVisibleChildren: [any Accessible] {
        guard !isAccessibilityElement else { return [] }
        return accessibilityChildren.filter { $0.isAccessibilityVisible }
    }
}

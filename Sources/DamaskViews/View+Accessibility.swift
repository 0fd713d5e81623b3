import Foundation

/// The derived parts of a view's accessibility: where it is, what it belongs to, what is in
/// it, and the hooks through which the view tells observers about changes.
///
/// The stored properties (``View/isAccessibilityElement``, ``View/accessibilityLabel``, …)
/// are in `View.swift`, because subclasses override them (a button's label is its title);
/// Swift lets a subclass override only what the class body declares.
extension View: Accessible {
    /// The view's bounds in its window's coordinates (the bounding box when transformed).
    public var accessibilityFrame: CGRect { convert(bounds, to: nil) }

    /// The superview (the content view has none: the bridge puts its window above it).
    public var accessibilityParent: (any Accessible)? { superview }

    /// The window showing the view.
    public var accessibilityWindow: Window? { window }

    /// ``accessibilityElements`` when set; else the subviews that are not hidden, in
    /// ``subviews`` order (back to front, as added). An element has none.
    public var accessibilityChildren: [any Accessible] {
        guard !isAccessibilityElement else { return [] }
        if let accessibilityElements { return accessibilityElements }
        return subviews.filter { !$0.isHidden && $0.alpha >= 0.01 }
    }

    /// Whether this view is the first responder of its window.
    public var isAccessibilityFocused: Bool { isFirstResponder }

    func accessibilityChildrenDidChange() {
        guard AccessibilityCenter.isObserved else { return }
        AccessibilityNotification.childrenChanged(self).post()
    }

    /// Posts ``AccessibilityNotification/frameChanged(_:)`` for a view in a window (one
    /// outside every window is not in any tree an assistive technology sees).
    func accessibilityFrameDidChange() {
        guard AccessibilityCenter.isObserved, window != nil else { return }
        AccessibilityNotification.frameChanged(self).post()
    }

    func accessibilityVisibilityDidChange() {
        guard AccessibilityCenter.isObserved else { return }
        AccessibilityNotification.propertyChanged(self, .visibility).post()
        superview?.accessibilityChildrenDidChange()
    }
}

/// Something assistive technologies should hear about (UIKit's `UIAccessibility.post
/// (notification:argument:)`), posted with ``post()``.
///
/// Apps post the first group when their content changes in a way the toolkit cannot see;
/// the toolkit posts the second group itself (a subview added, a frame changed, the first
/// responder changed, a view's label set). Posting costs one check while nothing observes
/// (no assistive technology): ``AccessibilityCenter`` has no observer then. Main-actor.
public enum AccessibilityNotification {
    // MARK: Posted by apps

    /// A large part of the window changed (a new scene); `focus` is the node an assistive
    /// technology should move to, if any.
    case screenChanged(focus: (any Accessible)?)
    /// Some elements appeared, moved or disappeared; `focus` as for ``screenChanged(focus:)``.
    case layoutChanged(focus: (any Accessible)?)
    /// A message for the user to hear now ("Saved").
    case announcement(String)
    /// The node's value changed (``Accessible/accessibilityValue``, or a
    /// ``AccessibilityValueProviding`` number).
    case valueChanged(any Accessible)
    /// The node's selection changed: a text's caret or selected range
    /// (``AccessibilityTextProviding``), or which child of a list is selected.
    case selectionChanged(any Accessible)
    /// The text of an ``AccessibilityTextProviding`` node changed.
    case textChanged(any Accessible)

    // MARK: Posted by the toolkit

    /// A view's subviews or accessibility elements were added, removed or reordered.
    case childrenChanged(any Accessible)
    /// A view's frame changed.
    case frameChanged(any Accessible)
    /// The window's first responder changed; `focus` is the new one when it is accessible.
    case focusChanged(window: Window, focus: (any Accessible)?)
    /// A property of a node other than its value changed.
    case propertyChanged(any Accessible, AccessibilityProperty)

    /// Delivers the notification to every ``AccessibilityObserver`` (none: nothing happens).
    @MainActor public func post() {
        AccessibilityCenter.deliver(self)
    }
}

/// Which property a ``AccessibilityNotification/propertyChanged(_:_:)`` is about.
public enum AccessibilityProperty: Equatable, Sendable {
    /// ``Accessible/accessibilityLabel``.
    case label
    /// ``Accessible/accessibilityHint``.
    case hint
    /// ``Accessible/accessibilityTraits``; `old` is the value before the change.
    case traits(old: AccessibilityTraits)
    /// Whether the node is hidden (``View/isHidden`` or
    /// ``Accessible/accessibilityElementsHidden``).
    case visibility
}

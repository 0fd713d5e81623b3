import Foundation

/// An accessible part of a view that is not a view itself: a row a list draws, a cell of a
/// grid (UIKit's `UIAccessibilityElement`). Main-actor.
///
/// The element's container (a view, held weakly) lists it in its
/// ``View/accessibilityElements``. Its frame is given in the container's coordinates
/// (``accessibilityFrameInContainerSpace``) so it follows the container when that moves.
/// Activation, increment and decrement run the closures set here, or a subclass's
/// overrides.
@MainActor open class AccessibilityElement: Accessible {
    /// The view or element that lists this element (weak).
    public weak var accessibilityContainer: (any Accessible & AnyObject)?
    open var isAccessibilityElement = true
    open var accessibilityLabel: String? {
        didSet { if accessibilityLabel != oldValue { AccessibilityNotification.propertyChanged(self, .label).post() } }
    }
    open var accessibilityValue: String? {
        didSet { if accessibilityValue != oldValue { AccessibilityNotification.valueChanged(self).post() } }
    }
    open var accessibilityHint: String?
    open var accessibilityIdentifier: String?
    open var accessibilityTraits: AccessibilityTraits = [] {
        didSet {
            if accessibilityTraits != oldValue {
                AccessibilityNotification.propertyChanged(self, .traits(old: oldValue)).post()
            }
        }
    }
    open var accessibilityContainerType = AccessibilityContainerType.none
    open var accessibilityElementsHidden = false
    /// The element's rect in its container's coordinates.
    open var accessibilityFrameInContainerSpace = CGRect.zero
    /// Elements inside this one (nil: none).
    open var accessibilityElements: [any Accessible]?
    /// What ``accessibilityActivate()`` runs; `nil`: the element has no default action.
    public var onActivate: (@MainActor () -> Void)?
    /// What ``accessibilityIncrement()`` runs.
    public var onIncrement: (@MainActor () -> Void)?
    /// What ``accessibilityDecrement()`` runs.
    public var onDecrement: (@MainActor () -> Void)?

    /// Creates an element inside `container`.
    public init(accessibilityContainer container: (any Accessible & AnyObject)?) {
        accessibilityContainer = container
    }

    /// The frame in window coordinates: the container-space frame moved by the container's
    /// window frame.
    open var accessibilityFrame: CGRect {
        guard let container = accessibilityContainer else { return accessibilityFrameInContainerSpace }
        let origin = container.accessibilityFrame.origin
        return accessibilityFrameInContainerSpace.offsetBy(dx: origin.x, dy: origin.y)
    }

    public var accessibilityParent: (any Accessible)? { accessibilityContainer }
    public var accessibilityWindow: Window? { accessibilityContainer?.accessibilityWindow }
    public var accessibilityChildren: [any Accessible] { accessibilityElements ?? [] }

    open func accessibilityActivate() -> Bool {
        guard let onActivate else { return false }
        onActivate()
        return true
    }

    open func accessibilityIncrement() { onIncrement?() }
    open func accessibilityDecrement() { onDecrement?() }
}

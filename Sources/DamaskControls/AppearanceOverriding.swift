import DamaskViews

/// A view that can draw itself and its subtree in an appearance of its own, whatever
/// ``Appearance/current`` is (UIKit's `overrideUserInterfaceStyle`): ``Control``,
/// ``Label``, ``StackView`` and ``AppearanceView``. Main-actor.
@MainActor public protocol AppearanceOverriding: View {
    /// The appearance of this view and its subviews; nil: the nearest overriding
    /// superview's, or ``Appearance/current``.
    var overrideAppearance: Appearance? { get set }
}

extension View {
    /// The appearance this view draws in: the nearest ``AppearanceOverriding/overrideAppearance``
    /// on it or a superview, else ``Appearance/current``.
    public var effectiveAppearance: Appearance {
        var view: View? = self
        while let current = view {
            if let overriding = current as? any AppearanceOverriding, let appearance = overriding.overrideAppearance {
                return appearance
            }
            view = current.superview
        }
        return Appearance.current
    }

    /// Tells every view in this subtree that follows the appearance to redraw (after an
    /// override changed).
    func propagateAppearanceChange() {
        if let follower = self as? any AppearanceFollowing { follower.appearanceDidChange() }
        for subview in subviews { subview.propagateAppearanceChange() }
    }
}

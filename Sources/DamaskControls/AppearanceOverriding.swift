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
            if let appearance = current.ownOverrideAppearance { return appearance }
            view = current.superview
        }
        return Appearance.current
    }

    /// The appearance this view itself overrides with (``AppearanceOverriding``), if any.
    ///
    /// Asked of each view up the tree whenever a control is edited or drawn (three times a
    /// typed key in the demo), so it avoids the runtime's conformance look-up, a search of
    /// its conformance cache (some 30 lines of the runtime's code, fetched cold at each key:
    /// docs/performance.md, "Listeners without libffi"): a control answers through a class
    /// cast, and a class seen not to conform is remembered (``nonOverridingClasses``).
    var ownOverrideAppearance: Appearance? {
        if let control = self as? Control { return control.overrideAppearance }
        let type = ObjectIdentifier(Swift.type(of: self))
        for known in View.nonOverridingClasses where known == type { return nil }  // a loop: per key
        guard let overriding = self as? any AppearanceOverriding else {
            if View.nonOverridingClasses.count < View.nonOverridingClassLimit { View.nonOverridingClasses.append(type) }
            return nil
        }
        return overriding.overrideAppearance
    }

    /// Classes of views found not to conform to ``AppearanceOverriding`` (a class's
    /// conformances never change, and class metadata lives as long as the process), up to
    /// ``nonOverridingClassLimit``; a class beyond it is looked up every time.
    private static var nonOverridingClasses: [ObjectIdentifier] = []
    private static let nonOverridingClassLimit = 64

    /// Tells every view in this subtree that follows the appearance to redraw (after an
    /// override changed).
    func propagateAppearanceChange() {
        if let follower = self as? any AppearanceFollowing { follower.appearanceDidChange() }
        for subview in subviews { subview.propagateAppearanceChange() }
    }
}

import DamaskViews

/// Who follows ``Appearance/current``: the controls alive (held weakly) and the handlers
/// registered through ``Appearance/observe(_:)``. Process-wide, main-actor; empty while no
/// control exists.
@MainActor final class AppearanceRegistry {
    /// The one registry.
    static let shared = AppearanceRegistry()

    /// A weak reference to a control that redraws on a change.
    private struct WeakControl {
        weak var control: (any AppearanceFollowing)?
    }

    /// The controls registered, in the order they were made (a control is registered once,
    /// by its initializer). An array, not a table keyed by identity: registering is an
    /// append, with no hashing and no copy, since a screen of controls registers each one.
    private var controls: [WeakControl] = []
    private var handlers: [Int: @MainActor (Appearance) -> Void] = [:]
    private var nextKey = 0

    /// The table's size after the last pruning: it is pruned again when it doubles, so
    /// entries of controls that went away cost amortized O(1) and never pile up.
    private var prunedCount = 0

    /// Registers `control` (until it goes away). Called once per control, by its initializer.
    func register(_ control: some AppearanceFollowing) {
        controls.append(WeakControl(control: control))
        if controls.count > 2 * prunedCount + 64 {
            controls.removeAll { $0.control == nil }  // in place
            prunedCount = controls.count
        }
    }

    func add(_ handler: @escaping @MainActor (Appearance) -> Void) -> AppearanceObservation {
        nextKey += 1
        handlers[nextKey] = handler
        return AppearanceObservation(key: nextKey)
    }

    func remove(_ key: Int) {
        handlers[key] = nil
    }

    /// The number of controls that follow the appearance (for tests).
    var controlCount: Int { controls.count { $0.control != nil } }
    /// The number of entries in the table, gone controls included (for tests).
    var entryCount: Int { controls.count }

    func appearanceDidChange(to appearance: Appearance) {
        controls.removeAll { $0.control == nil }
        prunedCount = controls.count
        for entry in controls {
            // A view inside an override keeps its appearance.
            guard let control = entry.control, (control as? View)?.hasOverrideAbove != true else { continue }
            control.appearanceDidChange()
        }
        for key in handlers.keys.sorted() { handlers[key]?(appearance) }
    }
}

extension View {
    /// Whether this view or a superview overrides the appearance.
    var hasOverrideAbove: Bool {
        var view: View? = self
        while let current = view {
            if current.ownOverrideAppearance != nil { return true }
            view = current.superview
        }
        return false
    }
}

/// A view that redraws itself when ``Appearance/current`` changes.
@MainActor protocol AppearanceFollowing: AnyObject {
    /// Called once per change of ``Appearance/current``.
    func appearanceDidChange()
}

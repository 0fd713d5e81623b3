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

    private var controls: [ObjectIdentifier: WeakControl] = [:]
    private var handlers: [Int: @MainActor (Appearance) -> Void] = [:]
    private var nextKey = 0

    /// The table's size after the last pruning: it is pruned again when it doubles, so
    /// entries of controls that went away cost amortized O(1) and never pile up.
    private var prunedCount = 0

    /// Registers `control` (until it goes away).
    func register(_ control: some AppearanceFollowing) {
        controls[ObjectIdentifier(control)] = WeakControl(control: control)
        if controls.count > 2 * prunedCount + 64 {
            controls = controls.filter { $0.value.control != nil }
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
    var controlCount: Int { controls.values.filter { $0.control != nil }.count }
    /// The number of entries in the table, gone controls included (for tests).
    var entryCount: Int { controls.count }

    func appearanceDidChange(to appearance: Appearance) {
        controls = controls.filter { $0.value.control != nil }
        for entry in controls.values {
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
            if let overriding = current as? any AppearanceOverriding, overriding.overrideAppearance != nil { return true }
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

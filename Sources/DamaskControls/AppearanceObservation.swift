/// A registration for appearance changes (``Appearance/observe(_:)``): the handler runs
/// while this token is alive; releasing it (or calling ``cancel()``) ends the registration.
/// Main-actor.
@MainActor public final class AppearanceObservation {
    /// The key of the handler in the registry.
    let key: Int

    init(key: Int) {
        self.key = key
    }

    /// Ends the registration now.
    public func cancel() {
        AppearanceRegistry.shared.remove(key)
    }

    isolated deinit {
        AppearanceRegistry.shared.remove(key)
    }
}

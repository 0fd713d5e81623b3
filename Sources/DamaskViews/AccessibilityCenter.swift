/// Where accessibility notifications go: the observers registered now (held weakly).
/// Process-wide, main-actor isolated, like the window registry: an assistive technology
/// sees the whole application.
///
/// While nothing observes, ``AccessibilityNotification/post()`` is one array check and the
/// toolkit's own hooks (subviews added, frames set) cost no more; so an app pays nothing
/// for accessibility while no assistive technology runs.
@MainActor public enum AccessibilityCenter {
    @exclusivity(unchecked) private static var observers: [WeakObserver] = []

    /// Whether any observer is registered.
    public static var isObserved: Bool { !observers.isEmpty }

    /// Registers `observer` (held weakly) until ``removeObserver(_:)``.
    public static func addObserver(_ observer: any AccessibilityObserver) {
        observers.removeAll { $0.observer == nil || $0.observer === observer }
        observers.append(WeakObserver(observer: observer))
    }

    /// Stops delivering to `observer`.
    public static func removeObserver(_ observer: any AccessibilityObserver) {
        observers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// The windows alive now, oldest first: the top of the accessibility tree.
    public static var windows: [Window] { WindowRegistry.openWindows }

    static func deliver(_ notification: AccessibilityNotification) {
        guard !observers.isEmpty else { return }
        for entry in observers {
            entry.observer?.accessibilityNotificationPosted(notification)
        }
    }

    private struct WeakObserver {
        weak var observer: (any AccessibilityObserver)?
    }
}

/// The windows alive in the process, held weakly: what ``Transaction`` commits and
/// flushes reach. Main-actor isolated.
@MainActor enum WindowRegistry {
    private static var entries: [WeakWindow] = []

    /// The windows alive now, oldest first.
    static var openWindows: [Window] {
        entries.removeAll { $0.window == nil }
        return entries.compactMap(\.window)
    }

    /// Adds `window` (held weakly).
    static func register(_ window: Window) {
        entries.removeAll { $0.window == nil }
        entries.append(WeakWindow(window: window))
    }

    private struct WeakWindow {
        weak var window: Window?
    }
}

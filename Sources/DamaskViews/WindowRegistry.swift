/// The windows alive in the process: what ``Transaction`` commits and flushes reach. Not
/// counted: a window registers in `init` and unregisters in `deinit` (a weak reference
/// would give every window a side table). Main-actor isolated.
@MainActor enum WindowRegistry {
    private static var entries: [UncountedWindow] = []

    /// The windows alive now, oldest first.
    static var openWindows: [Window] { entries.map(\.window) }

    /// Adds `window`, from its `init`.
    static func register(_ window: Window) {
        assert(!entries.contains { $0.window === window }, "a window registers once")
        entries.append(UncountedWindow(window: window))
    }

    /// Removes `window`, from its `deinit`.
    static func unregister(_ window: Window) {
        entries.removeAll { $0.window === window }
    }
}

/// Groups changes so that they reach the screen in one commit (Core Animation's
/// `CATransaction`, reduced to batching).
///
/// Every turn of the main loop is an implicit transaction: whatever changes in it is
/// presented together by the display pass queued at the end of the turn. An explicit
/// transaction (``begin()`` … ``commit()``, nestable) holds back the display passes of the
/// windows changed while it is open, even across `await`s, until the outermost
/// ``commit()``; a window nothing touched meanwhile goes on presenting (another window's
/// animation, or a window of an unrelated task). ``flush()`` presents every window's
/// pending changes at once. Main-actor isolated.
@MainActor public enum Transaction {
    /// How many explicit transactions are open.
    public private(set) static var depth = 0

    /// The windows changed while the outermost transaction is open (held weakly: a window
    /// closed meanwhile simply drops out).
    private static var heldWindows: [WeakWindow] = []

    private struct WeakWindow {
        weak var window: Window?
    }

    /// Whether an explicit transaction is open (display passes wait for its commit).
    public static var isOpen: Bool { depth > 0 }

    /// Opens a transaction (they nest).
    public static func begin() {
        depth += 1
    }

    /// Closes the innermost transaction; closing the outermost one schedules the held
    /// changes for the next display pass.
    public static func commit() {
        precondition(depth > 0, "Transaction.commit() without begin()")
        depth -= 1
        if depth == 0 {
            let held = heldWindows.compactMap(\.window)
            heldWindows.removeAll()
            for window in held { window.transactionDidCommit() }
        }
    }

    /// Adds `window` to the open transaction: its passes wait for the outermost commit.
    /// Called by the window when something in it changes while a transaction is open.
    static func hold(_ window: Window) {
        guard isOpen, !isHolding(window) else { return }
        heldWindows.append(WeakWindow(window: window))
    }

    /// Whether the open transaction holds back `window`'s passes.
    static func isHolding(_ window: Window) -> Bool {
        isOpen && heldWindows.contains { $0.window === window }
    }

    /// Runs `body` inside a transaction.
    public static func perform<Result>(_ body: () throws -> Result) rethrows -> Result {
        begin()
        defer { commit() }
        return try body()
    }

    /// Presents every window's pending changes now, without waiting for a frame callback.
    public static func flush() {
        for window in Window.openWindows { window.flush() }
    }
}

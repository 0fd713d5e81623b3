/// Groups changes so that they reach the screen in one commit (Core Animation's
/// `CATransaction`, reduced to batching).
///
/// Every turn of the main loop is an implicit transaction: whatever changes in it is
/// presented together by the display pass queued at the end of the turn. An explicit
/// transaction (``begin()`` … ``commit()``, nestable) holds display passes back, even
/// across `await`s, until the outermost ``commit()``. ``flush()`` presents every window's
/// pending changes at once. Main-actor isolated.
@MainActor public enum Transaction {
    /// How many explicit transactions are open.
    public private(set) static var depth = 0

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
            for window in Window.openWindows { window.transactionDidCommit() }
        }
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

/// The draws a window's next commit reports: how many layers drew since the last commit,
/// and which one when exactly one did. The one owner of that state, with every point that
/// ends it named.
///
/// Draws recorded between passes (a view's `displayIfNeeded()` called by the app) belong
/// to the next commit, as do those of a pass that waits for a free buffer (it runs again).
/// A pass that presented nothing ends its draws: they changed no pixel on screen, so the
/// next commit's report does not count them. Owned by its window; main-actor isolated.
@MainActor struct PassDraws {
    /// How many draws were recorded.
    private(set) var count = 0
    /// The layer that drew when exactly one draw was recorded: the presenter first tries
    /// to repaint by copying its opaque contents (``OpaqueContentsRepaint``).
    private(set) var onlyLayer: Layer?

    /// Records a draw of `layer`.
    mutating func record(_ layer: Layer) {
        count += 1
        onlyLayer = count == 1 ? layer : nil
        assert(count > 1 || onlyLayer === layer, "the only drawn layer is the one that drew")
    }

    /// The pass found nothing to present: its draws end here.
    mutating func passPresentedNothing() {
        self = PassDraws()
    }

    /// The pass waits for a free buffer: the draws stay for the retry, which plans its
    /// repaint whole (the buffer it gets may have missed more than one layer's change).
    mutating func passWaitsForBuffer() {
        onlyLayer = nil
    }

    /// The draws of the commit being made; starts counting afresh.
    mutating func takeForCommit() -> PassDraws {
        defer { self = PassDraws() }
        return self
    }
}

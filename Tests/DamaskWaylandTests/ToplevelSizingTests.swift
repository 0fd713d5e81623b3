import DamaskWayland
import Foundation
import Testing

/// The size rules of an xdg_toplevel, without a compositor.
@Suite("Toplevel sizing rules", .timeLimit(.minutes(5)))
struct ToplevelSizingTests {
    @Test("A 0×0 configure after maximized restores the floating size, not the maximized one")
    func zeroConfigureRestoresFloatingSize() {
        var sizing = ToplevelSizing(initialSize: CGSize(width: 800, height: 632))
        let first = sizing.windowSize(proposedWidth: 0, height: 0, states: [.activated], current: CGSize(width: 800, height: 632))
        #expect(first == CGSize(width: 800, height: 632))
        let maximized = sizing.windowSize(
            proposedWidth: 1400, height: 868, states: [.maximized, .activated], current: first)
        #expect(maximized == CGSize(width: 1400, height: 868))
        let restored = sizing.windowSize(proposedWidth: 0, height: 0, states: [.activated], current: maximized)
        #expect(restored == CGSize(width: 800, height: 632))
    }

    @Test("Back to floating, the floating size returns even when the compositor proposes more (mutter 43 adds the shadow); a smaller proposal is kept")
    func restoreCapsByProposal() {
        var sizing = ToplevelSizing(initialSize: CGSize(width: 200, height: 182), minimumSize: CGSize(width: 120, height: 72))
        _ = sizing.windowSize(proposedWidth: 200, height: 182, states: [.activated], current: CGSize(width: 200, height: 182))
        _ = sizing.windowSize(proposedWidth: 800, height: 600, states: [.maximized, .activated], current: CGSize(width: 200, height: 182))
        let restored = sizing.windowSize(proposedWidth: 212, height: 182, states: [.activated], current: CGSize(width: 800, height: 600))
        #expect(restored == CGSize(width: 200, height: 182))
        // After the restore a proposal is an ordinary suggestion again (an interactive resize).
        #expect(sizing.windowSize(proposedWidth: 260, height: 190, states: [.activated, .resizing], current: restored)
            == CGSize(width: 260, height: 190))
        // Tiled, then floating with a proposal smaller than the floating size: it fits there.
        _ = sizing.windowSize(proposedWidth: 400, height: 600, states: [.tiledLeft, .tiledTop, .tiledBottom], current: CGSize(width: 260, height: 190))
        #expect(sizing.windowSize(proposedWidth: 240, height: 0, states: [], current: CGSize(width: 400, height: 600))
            == CGSize(width: 240, height: 190))
    }

    @Test("An interactive resize is remembered as the floating size and kept within the limits")
    func resizeWithinLimits() {
        var sizing = ToplevelSizing(
            initialSize: CGSize(width: 300, height: 200), minimumSize: CGSize(width: 120, height: 72),
            maximumSize: CGSize(width: 1000, height: 0))
        let small = sizing.windowSize(proposedWidth: 50, height: 30, states: [.resizing], current: CGSize(width: 300, height: 200))
        #expect(small == CGSize(width: 120, height: 72))
        let large = sizing.windowSize(proposedWidth: 5000, height: 3000, states: [.resizing], current: small)
        #expect(large == CGSize(width: 1000, height: 3000))
        _ = sizing.windowSize(proposedWidth: 640, height: 480, states: [], current: large)
        _ = sizing.windowSize(proposedWidth: 1920, height: 1080, states: [.fullscreen], current: CGSize(width: 640, height: 480))
        #expect(sizing.windowSize(proposedWidth: 0, height: 0, states: [], current: CGSize(width: 1920, height: 1080))
            == CGSize(width: 640, height: 480))
    }

    @Test("Maximized and fullscreen sizes are obeyed even below the minimum; 0 keeps the current axis")
    func constrainedSizesObeyed() {
        var sizing = ToplevelSizing(initialSize: CGSize(width: 300, height: 200), minimumSize: CGSize(width: 400, height: 300))
        #expect(sizing.windowSize(proposedWidth: 350, height: 250, states: [.maximized], current: CGSize(width: 400, height: 300))
            == CGSize(width: 350, height: 250))
        #expect(sizing.windowSize(proposedWidth: 0, height: 700, states: [.fullscreen], current: CGSize(width: 500, height: 300))
            == CGSize(width: 500, height: 700))
        // The initial size was below the minimum: floating means at least the minimum.
        #expect(sizing.floatingSize == CGSize(width: 400, height: 300))
    }

    @Test("A tiled size is an upper bound; the minimum holds where it fits")
    func tiledSizeIsUpperBound() {
        var sizing = ToplevelSizing(initialSize: CGSize(width: 800, height: 600), minimumSize: CGSize(width: 200, height: 100))
        #expect(sizing.windowSize(proposedWidth: 700, height: 0, states: [.tiledLeft, .tiledTop, .tiledBottom], current: CGSize(width: 800, height: 600))
            == CGSize(width: 700, height: 600))
        #expect(sizing.windowSize(proposedWidth: 150, height: 50, states: [.tiledLeft], current: CGSize(width: 700, height: 600))
            == CGSize(width: 150, height: 50))
        #expect(sizing.windowSize(proposedWidth: 0, height: 0, states: [], current: CGSize(width: 150, height: 50))
            == CGSize(width: 800, height: 600))
    }

    @Test("Raising the minimum grows a floating window; a maximized one is left alone")
    func limitsChangeResizesFloatingOnly() {
        var sizing = ToplevelSizing(initialSize: CGSize(width: 200, height: 100))
        sizing.minimumSize = CGSize(width: 300, height: 50)
        #expect(sizing.sizeAfterLimitsChanged(states: [], current: CGSize(width: 200, height: 100)) == CGSize(width: 300, height: 100))
        #expect(sizing.sizeAfterLimitsChanged(states: [.maximized], current: CGSize(width: 200, height: 100)) == nil)
        #expect(sizing.sizeAfterLimitsChanged(states: [], current: CGSize(width: 300, height: 100)) == nil)
    }
}

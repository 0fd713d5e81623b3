import DamaskControls
import DamaskTestSupport
import Foundation
import Testing

/// A window on an in-memory surface whose frame callbacks the test answers.
@MainActor struct ControlsHarness {
    let surface: MemorySurface
    let window: Window

    init(width: CGFloat, height: CGFloat, scale: CGFloat = 1) {
        surface = MemorySurface(size: CGSize(width: width, height: height), scale: scale)
        window = Window(surface: surface)
        window.flashesDamage = false
    }

    /// The window's content view.
    var root: View { window.contentView }

    /// The damage of the last commit.
    var lastDamage: Region { surface.commits.last?.damage ?? Region() }

    /// Runs the pending pass now and answers its frame callback: whatever was changed
    /// before is on screen when this returns.
    func present() {
        window.flush()
        surface.fireFrame()
    }

    /// A wheel event over `point`: `steps120` high-resolution steps down (120 per detent).
    func wheel(_ steps120: Int, at point: CGPoint, time: UInt32 = 0) {
        window.dispatch(.scroll(ScrollEvent(
            location: point, deltaY: CGFloat(steps120) / 12, discreteY: steps120 / 120,
            steps120Y: steps120, source: .wheel, timestamp: time)))
    }

    /// A key press and release of `keysym`.
    func press(_ keysym: UInt32) {
        window.dispatch(.key(KeyEvent(phase: .down, keysym: keysym)))
        window.dispatch(.key(KeyEvent(phase: .up, keysym: keysym)))
    }
}

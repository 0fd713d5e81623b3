import DamaskViews
import Foundation

/// Sits between a surface and its window, counting frame callbacks on the way.
///
/// Holds the window strongly (the surface holds this delegate weakly: the caller keeps it).
/// Main-actor isolated.
@MainActor final class FrameCountingDelegate: SurfaceDelegate {
    /// The window every call is forwarded to.
    let window: Window
    /// Frame callbacks seen so far.
    private(set) var frames = 0

    /// Wraps `window` and installs itself as its surface's delegate.
    init(window: Window) {
        self.window = window
        window.surface.delegate = self
    }

    /// Forwards to the window.
    func surface(_ surface: any Surface, didResizeTo size: CGSize, scale: CGFloat) {
        window.surface(surface, didResizeTo: size, scale: scale)
    }

    /// Counts the callback and forwards it to the window.
    func surfaceFrameDidFire(_ surface: any Surface, timestamp: UInt32) {
        frames += 1
        window.surfaceFrameDidFire(surface, timestamp: timestamp)
    }

    /// Forwards to the window.
    func surfaceBufferDidBecomeAvailable(_ surface: any Surface) {
        window.surfaceBufferDidBecomeAvailable(surface)
    }

    /// Forwards to the window.
    func surfaceDidRequestClose(_ surface: any Surface) {
        window.surfaceDidRequestClose(surface)
    }
}

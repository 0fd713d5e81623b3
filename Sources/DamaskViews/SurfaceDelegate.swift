import Foundation

/// What a ``Surface`` tells its owner (normally a ``Window``). Main-actor isolated.
@MainActor public protocol SurfaceDelegate: AnyObject {
    /// The surface changed its logical size or its scale.
    func surface(_ surface: any Surface, didResizeTo size: CGSize, scale: CGFloat)
    /// The frame callback requested with ``Surface/requestFrame()`` fired; `timestamp` is
    /// in milliseconds.
    func surfaceFrameDidFire(_ surface: any Surface, timestamp: UInt32)
    /// A busy buffer was released, so ``Surface/dequeueBuffer()`` may succeed again.
    func surfaceBufferDidBecomeAvailable(_ surface: any Surface)
    /// The user asked to close the window.
    func surfaceDidRequestClose(_ surface: any Surface)
    /// An input event arrived for the surface (a ``Window`` dispatches it to its views).
    func surface(_ surface: any Surface, didReceive event: Event)
}

extension SurfaceDelegate {
    /// Ignores the event: a delegate that only draws needs no input.
    public func surface(_ surface: any Surface, didReceive event: Event) {}
}

import DamaskGraphics
import Foundation

/// One buffer a ``Surface`` hands out for the window to paint into.
///
/// The pixels (``bitmap``) belong to the surface: a shm mapping for Wayland, plain memory
/// for ``MemorySurface``. The window may write them only between
/// ``Surface/dequeueBuffer()`` and ``Surface/present(_:damage:requestingFrame:)``. Main-actor isolated.
@MainActor public final class SurfaceBuffer {
    /// The pixels, sized to the surface's pixel size; memory owned by the surface.
    public let bitmap: Bitmap
    /// The pixels (buffer coordinates) that are not up to date with the last presented
    /// frame; the window repaints them the next time it paints into this buffer.
    @exclusivity(unchecked) public var missedDamage: Region
    /// `true` from ``Surface/present(_:damage:requestingFrame:)`` until the surface releases the buffer.
    @exclusivity(unchecked) public internal(set) var isBusy: Bool = false
    /// A number identifying the buffer within its surface (for logs and tests).
    public let identifier: Int
    /// What owns the pixel memory behind ``bitmap``, kept alive by the buffer: a Wayland
    /// surface's shm mapping and `wl_buffer`; nil when the bitmap owns its memory.
    public let backing: AnyObject?
    /// Set when the surface resized while the buffer was busy: destroy it on release.
    @exclusivity(unchecked) var isStale = false
    /// The context the window repaints this buffer through, created on first use and kept
    /// (its state reset per repaint) so that a frame does not create a context and a pixman
    /// image. Owned by the buffer; it keeps ``bitmap`` alive, not the surface's memory.
    lazy var graphicsContext = GraphicsContext(bitmap: bitmap)

    /// Wraps `bitmap` (whose memory `backing`, if any, owns); ``missedDamage`` starts as the
    /// whole buffer.
    public init(bitmap: Bitmap, identifier: Int, backing: AnyObject? = nil) {
        self.bitmap = bitmap
        self.identifier = identifier
        self.backing = backing
        self.missedDamage = Region(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
    }

    /// The buffer's width in pixels.
    public var width: Int { bitmap.width }
    /// The buffer's height in pixels.
    public var height: Int { bitmap.height }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A ``Surface`` that costs what a Wayland surface costs and nothing more: buffers from a
/// ``BufferPool``, released when the next one is presented (as Weston does), frame callbacks
/// fired by hand, and no copy of the presented pixels.
///
/// The damage and latency suites measure the window's own work through it. Main-actor
/// isolated; owns its buffers and does not retain its delegate.
@MainActor final class BenchSurface: Surface {
    /// The window (see `SurfaceDelegateReference`).
    var delegate: (any SurfaceDelegate)? {
        get { delegateReference.delegate }
        set { delegateReference.delegate = newValue }
    }
    private var delegateReference = SurfaceDelegateReference()
    /// The size in points.
    private(set) var size: CGSize
    /// Always 1.
    private(set) var scale: CGFloat = 1
    /// Ignored.
    var title = ""
    /// Whether a frame callback was requested and has not fired.
    private(set) var hasPendingFrame = false
    /// How many buffers were presented.
    private(set) var presentCount = 0

    private let pool: BufferPool
    private var held: SurfaceBuffer?

    /// Creates a surface of `size` points at scale 1.
    init(size: CGSize) {
        self.size = size
        var identifiers = 0
        pool = BufferPool(
            capacity: 3,
            allocate: { width, height in
                guard let bitmap = try? Bitmap(width: width, height: height) else { return nil }
                identifiers += 1
                return SurfaceBuffer(bitmap: bitmap, identifier: identifiers)
            },
            destroy: { _ in })
    }

    /// `size.width` in pixels.
    var pixelWidth: Int { Self.pixelLength(size.width, scale: scale) }
    /// `size.height` in pixels.
    var pixelHeight: Int { Self.pixelLength(size.height, scale: scale) }
    /// The bytes of the buffers alive now.
    var liveBytes: Int { pool.liveBytes }

    /// A free buffer from the pool (nil when all three are busy).
    func dequeueBuffer() -> SurfaceBuffer? {
        pool.dequeue(width: pixelWidth, height: pixelHeight)
    }

    /// Records the present (and the frame request) and releases the previously presented
    /// buffer, as Weston does.
    func present(_ buffer: SurfaceBuffer, damage: Region, requestingFrame: Bool) {
        if requestingFrame { hasPendingFrame = true }
        pool.didPresent(buffer, damage: damage)
        presentCount += 1
        if let previous = held {
            pool.release(previous)
            delegate?.surfaceBufferDidBecomeAvailable(self)
        }
        held = buffer
    }

    /// Notes the request; ``fireFrame()`` answers it.
    func requestFrame() {
        hasPendingFrame = true
    }

    /// Fires the pending frame callback; returns whether there was one.
    @discardableResult
    func fireFrame() -> Bool {
        guard hasPendingFrame else { return false }
        hasPendingFrame = false
        delegate?.surfaceFrameDidFire(self, timestamp: UInt32(truncatingIfNeeded: BenchClock.monotonic() / 1_000_000))
        return true
    }

    /// Changes the size (a compositor's configure): drops the buffers and tells the delegate.
    func resize(to size: CGSize) {
        self.size = size
        if let previous = held { pool.release(previous) }
        held = nil
        pool.reset()
        delegate?.surface(self, didResizeTo: size, scale: scale)
    }
}

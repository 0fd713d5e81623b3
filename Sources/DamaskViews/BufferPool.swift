import DamaskGraphics
import Foundation

/// The buffer bookkeeping every surface needs: free and busy buffers up to a cap, each
/// buffer's missed damage, release, and resize.
///
/// On ``didPresent(_:damage:)`` the presented buffer becomes busy and up to date (its
/// missed damage empties) and every other buffer misses that damage. On resize
/// (``reset()`` or a ``dequeue(width:height:)`` with a new size) free buffers are
/// destroyed at once and busy ones when they are released. The pool owns its buffers;
/// `allocate` creates one (and its memory), `destroy` frees what `allocate` made.
/// Main-actor isolated.
@MainActor public final class BufferPool {
    /// The most buffers alive at once.
    public let capacity: Int
    private let allocate: (Int, Int) -> SurfaceBuffer?
    private let destroy: (SurfaceBuffer) -> Void
    /// Every live buffer, oldest first (including stale busy ones).
    @exclusivity(unchecked) public private(set) var buffers: [SurfaceBuffer] = []
    private var width = 0
    private var height = 0

    /// Creates a pool that keeps at most `capacity` buffers.
    ///
    /// - Parameters:
    ///   - allocate: makes a buffer of the given pixel width and height (`nil` on failure).
    ///   - destroy: frees a buffer the pool no longer needs.
    public init(
        capacity: Int = 3, allocate: @escaping (Int, Int) -> SurfaceBuffer?,
        destroy: @escaping (SurfaceBuffer) -> Void
    ) {
        precondition(capacity >= 1, "a buffer pool needs room for at least one buffer")
        self.capacity = capacity
        self.allocate = allocate
        self.destroy = destroy
    }

    /// The number of buffers alive (free, busy, and busy-but-stale).
    public var liveBufferCount: Int { buffers.count }

    /// The bytes of pixel memory held by live buffers.
    public var liveBytes: Int { buffers.reduce(0) { $0 + $1.bitmap.byteCount } }

    /// Whether `buffer` is one of this pool's (handed out and not dropped). A loop: asked
    /// on every present (see CONTRIBUTING.md, closures on hot paths).
    public func holds(_ buffer: SurfaceBuffer) -> Bool {
        for held in buffers where held === buffer { return true }
        return false
    }

    /// Returns a free buffer of `width × height` pixels, allocating one if none is free and
    /// the pool is below capacity; `nil` otherwise.
    ///
    /// Among free buffers it picks the one that missed the fewest pixels, so that
    /// repainting it costs least.
    public func dequeue(width: Int, height: Int) -> SurfaceBuffer? {
        if width != self.width || height != self.height {
            reset()
            self.width = width
            self.height = height
        }
        // A loop rather than filter and min: no array and no closure per frame.
        var best: SurfaceBuffer?
        var bestArea = Int.max
        for buffer in buffers where !buffer.isBusy && !buffer.isStale {
            let area = buffer.missedDamage.area
            if area < bestArea {
                best = buffer
                bestArea = area
            }
        }
        if let best { return best }
        guard buffers.count < capacity, width > 0, height > 0,
            let buffer = allocate(width, height)
        else { return nil }
        buffers.append(buffer)
        return buffer
    }

    /// Records that `buffer` was presented with `damage` (buffer pixels).
    public func didPresent(_ buffer: SurfaceBuffer, damage: Region) {
        assert(buffers.contains { $0 === buffer }, "presented a buffer this pool did not hand out")
        assert(!buffer.isBusy, "presented a buffer the compositor still holds")
        buffer.isBusy = true
        buffer.missedDamage = Region()
        for other in buffers where other !== buffer {
            other.missedDamage.formUnion(damage)
        }
    }

    /// Records that the compositor released `buffer`; a stale buffer is destroyed.
    public func release(_ buffer: SurfaceBuffer) {
        buffer.isBusy = false
        if buffer.isStale {
            buffers.removeAll { $0 === buffer }
            destroy(buffer)
        }
    }

    /// Drops every buffer (after a resize): free ones now, busy ones when released.
    public func reset() {
        for buffer in buffers {
            buffer.isStale = true
            if !buffer.isBusy { destroy(buffer) }
        }
        buffers.removeAll { !$0.isBusy }
    }
}

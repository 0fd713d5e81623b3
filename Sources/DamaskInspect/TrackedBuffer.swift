/// A `wl_buffer` made from a `wl_shm_pool`: where its pixels are, and whether the compositor
/// holds it (committed, not yet released).
///
/// Holds a strong reference to its pool, so the mapping outlives the pool object as the
/// protocol says. Not thread-safe.
final class TrackedBuffer {
    let id: UInt32
    let pool: ShmPool?
    let offset: Int
    let width: Int
    let height: Int
    let stride: Int
    let format: BufferFormat
    /// How many commits attached this buffer.
    var commitCount = 0
    /// The content at its last commit (nil before it, or after a commit whose pixels could not
    /// be read). Kept after the release: it is what a surface still showing this buffer is
    /// compared against, and it is rewritten in place at the buffer's next commit.
    var store: PixelStore?
    /// While the compositor holds the buffer (committed, not yet released): the surface (its
    /// id and label, not the object: a surface holds its current buffer, so a reference back
    /// would be a cycle) and the commit index of that commit. `store` is then the content the
    /// buffer must keep until the release.
    var heldBy: (surfaceID: UInt32, label: String, commit: Int)?

    init(id: UInt32, pool: ShmPool?, offset: Int, width: Int, height: Int, stride: Int, format: BufferFormat) {
        (self.id, self.pool, self.offset, self.width, self.height, self.stride, self.format) = (id, pool, offset, width, height, stride, format)
    }

    /// Whether its pixels can be read at all (wl_shm, a known format, a sane size).
    var isReadable: Bool {
        guard pool != nil, let bpp = format.bytesPerPixel, width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return false }
        return stride >= width * bpp
    }

    /// Reads its rows top to bottom into `body` (all of them, or those in `rows`), in place in
    /// the client's memory (see ``ShmPool/readRows(offset:stride:rowBytes:height:rows:_:)``).
    ///
    /// - Throws: why they cannot all be read (``ShmReadFailure/outsidePool`` also for a buffer
    ///   that is not readable at all).
    func readRows(_ rows: Range<Int>? = nil, _ body: (Int, UnsafeRawPointer) -> Void) throws(ShmReadFailure) {
        guard isReadable, let pool, let bpp = format.bytesPerPixel else { throw .outsidePool }
        try pool.readRows(offset: offset, stride: stride, rowBytes: width * bpp, height: height, rows: rows, body)
    }
}

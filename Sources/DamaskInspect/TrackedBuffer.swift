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
    /// The content at its last commit while the compositor holds it; nil once released.
    var heldContent: ContentSnapshot?
    /// The surface (its id and label, not the object: a surface holds its current buffer,
    /// so a reference back would be a cycle) and the commit index of that commit.
    var heldBy: (surfaceID: UInt32, label: String, commit: Int)?

    init(id: UInt32, pool: ShmPool?, offset: Int, width: Int, height: Int, stride: Int, format: BufferFormat) {
        (self.id, self.pool, self.offset, self.width, self.height, self.stride, self.format) = (id, pool, offset, width, height, stride, format)
    }

    /// Copies the current pixels, or nil when they cannot be read (format unknown, pool not
    /// mapped or truncated, no pool because the buffer is not wl_shm).
    func snapshot() -> ContentSnapshot? {
        guard let pool, let bpp = format.bytesPerPixel, width > 0, height > 0,
            width <= 1 << 15, height <= 1 << 15
        else { return nil }
        guard let bytes = pool.copyRows(offset: offset, stride: stride, rowBytes: width * bpp, height: height) else { return nil }
        return ContentSnapshot(width: width, height: height, format: format, bytes: bytes)
    }
}

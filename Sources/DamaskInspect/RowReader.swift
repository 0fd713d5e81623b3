/// Reads a buffer's rows from its pool a chunk at a time into one reused scratch area, so the
/// tracker can compare each row while it is in cache instead of copying the whole buffer
/// first.
///
/// Owns `scratch` (grown on demand, freed in `deinit`). Not thread-safe: one per
/// `DamageTracker`.
final class RowReader {
    /// Rows are read in chunks of about this many bytes (a few dozen 1080p rows: fits in the
    /// L2 cache).
    static let chunkBytes = 256 << 10
    private var scratch: UnsafeMutableRawPointer?
    private var capacity = 0

    init() {}

    deinit { scratch?.deallocate() }

    /// Calls `body(y, row)` for each of `height` rows of `rowBytes` bytes, `stride` apart from
    /// `offset` in `pool`, top to bottom; `row` is valid only during the call.
    ///
    /// - Returns: false (having stopped, possibly after some rows) when the rows lie outside
    ///   the declared pool, or the file behind it is or becomes shorter than them.
    func readRows(from pool: ShmPool, offset: Int, stride: Int, rowBytes: Int, height: Int, _ body: (Int, UnsafeRawPointer) -> Void) -> Bool {
        guard pool.holds(offset: offset, stride: stride, rowBytes: rowBytes, height: height) else { return false }
        let rowsPerChunk = max(1, Self.chunkBytes / stride)
        let needed = (rowsPerChunk - 1) * stride + rowBytes
        if needed > capacity {
            scratch?.deallocate()
            scratch = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: 64)
            capacity = needed
        }
        guard let scratch else { return false }
        var y = 0
        while y < height {
            let rows = min(rowsPerChunk, height - y)
            let count = (rows - 1) * stride + rowBytes
            guard pool.read(into: scratch, count: count, at: offset + y * stride) else { return false }
            for i in 0..<rows { body(y + i, scratch + i * stride) }
            y += rows
        }
        return true
    }
}

import CDamaskShmGuard
import Glibc

/// A client's `wl_shm_pool`: the file behind it, mapped read-only so the inspector compares
/// its buffers in place, without copying them first.
///
/// Ownership: the pool owns `fd` (a duplicate of the one the client sent; the original is
/// forwarded to the compositor and stays the proxy's message's) and `mapping` (`mappedLength`
/// bytes of `fd`, read-only and shared, made at the first read after creation or a `resize`),
/// both released in `deinit`, when the pool object and every buffer made from it are gone
/// (a ``TrackedBuffer`` holds its pool strongly, as the protocol keeps a pool's memory alive
/// for its buffers). Pointers into the mapping are lent to a read's `body` only for that call.
///
/// A client may shrink (`ftruncate`) its file at any moment. Each read first checks the file's
/// size (`fstat`), then reads under the SIGBUS guard of `CDamaskShmGuard`: if the file shrinks
/// between the check and the read, the fault is caught, the guard puts zero pages in place of
/// the mapping, and the read fails with ``ShmReadFailure/fileShrunk``; the pool maps the file
/// again before its next read. The one race left: a shrink inside the file's last page (or
/// one undone before the read touches the lost pages) makes no fault, and those bytes read as
/// zeros, which is what the file holds then. Not thread-safe: one connection's tracker reads
/// it, from one thread.
final class ShmPool {
    private let fd: Int32
    /// The size the client declared (`create_pool`, then `resize`); buffers beyond it are
    /// unreadable even when the file is longer.
    private(set) var size: Int
    /// The mapping of the first `mappedLength` bytes of `fd`, or nil before the first read,
    /// after a `resize` and after a guarded read that faulted (then it is unmapped and made
    /// again at the next read).
    private var mapping: UnsafeMutableRawPointer?
    private var mappedLength = 0

    /// Keeps a duplicate of `fd` (which stays the caller's) for a pool of `size` bytes.
    init(duplicating fd: Int32, size: Int) {
        self.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        self.size = max(0, size)
    }

    deinit {
        unmap()
        if fd >= 0 { close(fd) }
    }

    /// Follows `wl_shm_pool.resize`: the mapping is made again, at the new size, at the next read.
    func resize(to newSize: Int) {
        size = max(0, newSize)
        unmap()
    }

    private func unmap() {
        if let mapping { damask_shm_guard_unmap(mapping, mappedLength) }
        (mapping, mappedLength) = (nil, 0)
    }

    /// Whether `height` rows of `rowBytes` bytes each, `stride` apart from `offset`, lie inside
    /// the declared pool (the file behind it may still be shorter: reads then fail).
    func holds(offset: Int, stride: Int, rowBytes: Int, height: Int) -> Bool {
        guard fd >= 0, offset >= 0, stride >= rowBytes, height > 0, rowBytes > 0 else { return false }
        let (span, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        let (_, overflow2) = rowBytes.multipliedReportingOverflow(by: height)
        return !overflow && !overflow2 && offset <= size && span <= size - offset && rowBytes <= size - offset - span
    }

    /// Calls `body(y, row)` for each of `height` rows of `rowBytes` bytes, `stride` apart from
    /// `offset`, top to bottom — or only for the rows in `rows` (a part of `0..<height`, for a
    /// read made in steps; the checks are those of the whole buffer either way); `row` points
    /// into the client's mapped memory and is valid only during the call (the client may
    /// change those bytes at any time).
    ///
    /// - Throws: ``ShmReadFailure/outsidePool`` (before any row) when the rows lie outside the
    ///   declared pool or the file cannot be mapped; ``ShmReadFailure/fileShrunk`` when the file
    ///   is, or becomes while reading, shorter than the rows (`body` may then have been called
    ///   for some or all rows, with zeros where the file was gone).
    func readRows(
        offset: Int, stride: Int, rowBytes: Int, height: Int, rows: Range<Int>? = nil, _ body: (Int, UnsafeRawPointer) -> Void
    ) throws(ShmReadFailure) {
        guard holds(offset: offset, stride: stride, rowBytes: rowBytes, height: height) else { throw .outsidePool }
        let rows = (rows ?? 0..<height).clamped(to: 0..<height)
        let end = offset + (height - 1) * stride + rowBytes
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .outsidePool }
        guard Int(status.st_size) >= end else { throw .fileShrunk }
        if mapping == nil {
            mapping = damask_shm_guard_map(fd, size)
            mappedLength = mapping == nil ? 0 : size
        }
        guard let mapping, mappedLength >= end else { throw .outsidePool }
        let base = UnsafeRawPointer(mapping)
        damask_shm_guard_begin(base, mappedLength)
        for y in rows { body(y, base + (offset + y * stride)) }
        if damask_shm_guard_end() != 0 {
            unmap()
            throw .fileShrunk
        }
    }

    /// Copies `height` rows of `rowBytes` bytes each, `stride` apart, from `offset`, packed;
    /// nil when they cannot all be read (see ``readRows(offset:stride:rowBytes:height:rows:_:)``).
    func copyRows(offset: Int, stride: Int, rowBytes: Int, height: Int) -> [UInt8]? {
        guard holds(offset: offset, stride: stride, rowBytes: rowBytes, height: height) else { return nil }
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        var complete = true
        bytes.withUnsafeMutableBytes { destination in
            guard let target = destination.baseAddress else { return }
            do {
                try readRows(offset: offset, stride: stride, rowBytes: rowBytes, height: height) { y, row in
                    memcpy(target + y * rowBytes, row, rowBytes)
                }
            } catch {
                complete = false
            }
        }
        guard complete else { return nil }
        return bytes
    }
}

/// Why a buffer's rows could not be read from its pool.
enum ShmReadFailure: Error, Equatable {
    /// The rows lie outside the size the client declared for the pool, or the pool's file
    /// cannot be mapped.
    case outsidePool
    /// The pool's file is shorter than the rows: the client shrank it (before the read or
    /// while it ran).
    case fileShrunk
}

import Glibc

/// A client's `wl_shm_pool`: the file behind it, read with `pread` so the inspector can copy
/// its buffers.
///
/// The pool is never mapped: a client may shrink (`ftruncate`) the file at any moment, and a
/// copy from a mapping past the file's new end raises SIGBUS in the inspector. `pread` instead
/// returns fewer bytes than asked, which makes the copy `nil` (the commit is logged
/// `unreadable`), whenever the shrink happens.
///
/// Owns `fd` (a duplicate of the one the client sent; the original is forwarded), closed in
/// `deinit`, when the pool object and every buffer made from it are gone. Not thread-safe.
final class ShmPool {
    private let fd: Int32
    /// The size the client declared (`create_pool`, then `resize`); buffers beyond it are
    /// unreadable even when the file is longer.
    private(set) var size: Int

    /// Keeps a duplicate of `fd` (which stays the caller's) for a pool of `size` bytes.
    init(duplicating fd: Int32, size: Int) {
        self.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        self.size = max(0, size)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Follows `wl_shm_pool.resize`.
    func resize(to newSize: Int) {
        size = max(0, newSize)
    }

    /// Whether `height` rows of `rowBytes` bytes each, `stride` apart from `offset`, lie inside
    /// the declared pool (the file behind it may still be shorter: reads then fail).
    func holds(offset: Int, stride: Int, rowBytes: Int, height: Int) -> Bool {
        guard fd >= 0, offset >= 0, stride >= rowBytes, height > 0, rowBytes > 0 else { return false }
        let (span, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        let (_, overflow2) = rowBytes.multipliedReportingOverflow(by: height)
        return !overflow && !overflow2 && offset <= size && span <= size - offset && rowBytes <= size - offset - span
    }

    /// Copies `height` rows of `rowBytes` bytes each, `stride` apart, from `offset`; nil when
    /// the rows lie outside the declared pool, or the file behind it is (or becomes, while
    /// copying) shorter than the rows.
    func copyRows(offset: Int, stride: Int, rowBytes: Int, height: Int) -> [UInt8]? {
        guard holds(offset: offset, stride: stride, rowBytes: rowBytes, height: height) else { return nil }
        let total = rowBytes * height
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { destination, count in
            count = total
            guard let base = destination.baseAddress else { return }
            if stride == rowBytes {
                complete = read(into: base, count: total, at: offset)
            } else {
                for row in 0..<height where complete {
                    complete = read(into: base + row * rowBytes, count: rowBytes, at: offset + row * stride)
                }
            }
            if !complete { memset(base, 0, total) }
        }
        return complete ? bytes : nil
    }

    /// Reads exactly `count` bytes at `position` into `destination` (the caller's); false on
    /// end of file or an error.
    func read(into destination: UnsafeMutableRawPointer, count: Int, at position: Int) -> Bool {
        var done = 0
        while done < count {
            let n = pread(fd, destination + done, count - done, off_t(position + done))
            if n > 0 {
                done += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}

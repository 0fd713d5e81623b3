import Glibc

/// A client's `wl_shm_pool`, mapped read-only so the inspector can read its buffers.
///
/// Owns `fd` (a duplicate of the one the client sent; the original is forwarded) and the
/// mapping; both are released in `deinit`, when the pool object and every buffer made from it
/// are gone. Not thread-safe.
final class ShmPool {
    private let fd: Int32
    private var mapping: UnsafeRawPointer?
    private(set) var size: Int

    /// Maps `size` bytes of a duplicate of `fd` (which stays the caller's).
    init(duplicating fd: Int32, size: Int) {
        self.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        self.size = 0
        resize(to: size)
    }

    deinit {
        unmap()
        if fd >= 0 { close(fd) }
    }

    /// Follows `wl_shm_pool.resize`: maps the new size (pools only grow).
    func resize(to newSize: Int) {
        unmap()
        guard fd >= 0, newSize > 0 else { return }
        let address = mmap(nil, newSize, PROT_READ, MAP_SHARED, fd, 0)
        guard let address, address != MAP_FAILED else { return }
        mapping = UnsafeRawPointer(address)
        size = newSize
    }

    /// Copies `height` rows of `rowBytes` bytes each, `stride` apart, from `offset`; nil when
    /// the pool is not mapped or the file behind it is now shorter than the rows (reading
    /// past its end would raise SIGBUS).
    func copyRows(offset: Int, stride: Int, rowBytes: Int, height: Int) -> [UInt8]? {
        guard let mapping, offset >= 0, stride >= rowBytes, height > 0, rowBytes > 0 else { return nil }
        let (span, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        guard !overflow else { return nil }
        let end = offset + span + rowBytes
        guard end <= size else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, Int(status.st_size) >= end else { return nil }
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { destination in
            guard let base = destination.baseAddress else { return }
            if stride == rowBytes {
                memcpy(base, mapping + offset, rowBytes * height)
            } else {
                for row in 0..<height {
                    memcpy(base + row * rowBytes, mapping + offset + row * stride, rowBytes)
                }
            }
        }
        return bytes
    }

    private func unmap() {
        if let mapping { munmap(UnsafeMutableRawPointer(mutating: mapping), size) }
        mapping = nil
        size = 0
    }
}

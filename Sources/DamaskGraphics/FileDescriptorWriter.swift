import Foundation

/// Writes whole byte buffers to a descriptor with `write(2)`, retrying short writes and
/// `EINTR`, and reports failure as an errno instead of trapping.
public enum FileDescriptorWriter {
    /// Writes all of `bytes` to `descriptor` (which the caller owns); returns 0, or the
    /// errno of the write that failed (`ENOSPC`, `EBADF`, `EPIPE`, …).
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return 0
        }
    }
}

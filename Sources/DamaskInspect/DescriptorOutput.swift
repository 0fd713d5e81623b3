import Glibc

/// Writes to a file descriptor with `write(2)` and returns a failure instead of trapping, as
/// Foundation's `FileHandle.write` does on a full disk or a closed descriptor.
public enum DescriptorOutput {
    /// Writes all of `bytes` to `fd`, retrying short writes and `EINTR`.
    ///
    /// - Returns: nil when everything was written, else the `errno` of the failure.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += count
        }
        return nil
    }

    /// Writes `text` to standard error; a failure is ignored (there is nowhere left to say it).
    public static func standardError(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }
}

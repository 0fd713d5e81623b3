import Foundation

/// The one way Damask writes a message to stderr: a plain `write(2)` loop that gives up
/// quietly when stderr is closed, full (`/dev/full`) or a broken pipe.
///
/// Foundation's `FileHandle.write(_:)` traps on any write error, which turned a full disk
/// or a closed stderr into a crash (SIGILL) instead of the documented message and exit
/// status. Nothing here allocates beyond the message's UTF-8 bytes, owns no descriptor
/// (fd 2 belongs to the process) and is safe to call from any thread.
public enum StandardError {
    /// Writes `message` followed by a newline (unless it already ends with one).
    public static func write(_ message: String) {
        var bytes = Array(message.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        _ = FileDescriptorWriter.write(bytes, to: STDERR_FILENO)
    }
}

import Foundation

/// Bytes read from a pipe, cut into complete lines (a partial last line waits for the rest).
/// Used from one pipe's readability handler at a time; the lock makes it safe to hand
/// between the handler's threads.
final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()

    /// Adds `data`; returns the lines it completed, without their line feeds.
    func append(_ data: Data) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        pending.append(data)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
        }
        return lines
    }
}

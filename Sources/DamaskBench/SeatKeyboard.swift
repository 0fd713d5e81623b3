import Foundation

/// The keyboard of a headless Weston's test seat (`scripts/weston-modules/headless-seat.c`
/// with `DAMASK_SEAT_KEYS` and `DAMASK_SEAT_TRACE`): keys written to a FIFO the module
/// reads, and the module's trace of each key it delivered and each `wl_surface.commit` it
/// dispatched, both stamped with `CLOCK_MONOTONIC` inside the compositor.
///
/// Owns its directory (the FIFO and the trace; removed by ``remove()``) and the FIFO's
/// write end and the trace's read handle (closed there). Use from one thread.
final class SeatKeyboard {
    /// The directory holding the FIFO and the trace.
    let directory: String
    var fifoPath: String { directory + "/keys" }
    var tracePath: String { directory + "/trace" }
    private var writer: FileHandle?
    private var reader: FileHandle?
    private var pending = Data()

    /// One line of the trace.
    enum Event: Equatable {
        /// A key press delivered, at `nanoseconds`.
        case key(nanoseconds: UInt64)
        /// A `wl_surface.commit` from the client process `pid`, at `nanoseconds`.
        case commit(pid: Int32, nanoseconds: UInt64)
    }

    /// Makes the directory and the FIFO.
    init() throws {
        let template = NSTemporaryDirectory() + "damask-bench-keys.XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw BenchError.helper("cannot make a temporary directory") }
        directory = String(cString: made)
        guard mkfifo(fifoPath, 0o600) == 0 else { throw BenchError.helper("cannot make the FIFO \(fifoPath)") }
        _ = FileManager.default.createFile(atPath: tracePath, contents: nil)
    }

    /// What Weston's environment needs so that the seat module reads the keys and writes
    /// the trace.
    func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DAMASK_SEAT_KEYS"] = fifoPath
        environment["DAMASK_SEAT_TRACE"] = tracePath
        return environment
    }

    /// Opens the FIFO for writing and the trace for reading (after Weston started: the
    /// module holds the FIFO open, so this does not block).
    func open() throws {
        guard let writer = FileHandle(forWritingAtPath: fifoPath), let reader = FileHandle(forReadingAtPath: tracePath) else {
            throw BenchError.helper("cannot open the seat's FIFO or trace in \(directory)")
        }
        self.writer = writer
        self.reader = reader
    }

    /// Presses (`down`) or releases the key with evdev code `code`.
    func send(_ code: Int, down: Bool) {
        writer?.write(Data("\(down ? "down" : "up") \(code)\n".utf8))
    }

    /// The trace's lines written since the last call.
    func newEvents() -> [Event] {
        guard let reader else { return [] }
        pending.append(reader.availableData)
        guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: pending[..<lastNewline], as: UTF8.self)
        pending.removeSubrange(..<pending.index(after: lastNewline))
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            if fields.count == 4, fields[0] == "key", let ns = UInt64(fields[3]) { return .key(nanoseconds: ns) }
            if fields.count == 3, fields[0] == "commit", let pid = Int32(fields[1]), let ns = UInt64(fields[2]) {
                return .commit(pid: pid, nanoseconds: ns)
            }
            return nil
        }
    }

    /// Closes the handles and removes the directory. Idempotent.
    func remove() {
        try? writer?.close()
        try? reader?.close()
        writer = nil
        reader = nil
        try? FileManager.default.removeItem(atPath: directory)
    }
}

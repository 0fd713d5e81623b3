import Foundation

/// A measured program (a bench client or damask-demo) run under a private Weston.
///
/// Owns the process and its pipes; ``stop()`` (also run by `deinit`) closes its stdin,
/// then terminates it if it is still running. Not thread-safe: use from the main thread.
final class ChildProcess {
    /// The process id.
    var pid: Int32 { process.processIdentifier }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts `executable` with `arguments` in `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// Waits until the program prints a line starting with `prefix`; returns whether it
    /// did within `timeout` seconds (reads stdout on this thread, never blocking longer
    /// than the timeout).
    func waitForLine(startingWith prefix: String, timeout: TimeInterval) -> Bool {
        line(startingWith: prefix, timeout: timeout) != nil
    }

    /// Writes `text` to the program's stdin.
    func send(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// The first line the program prints that starts with `prefix`, read within `timeout`
    /// seconds (reads stdout on this thread, never blocking longer than the timeout).
    func line(startingWith prefix: String, timeout: TimeInterval) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        var pending = Data()
        while Date() < deadline, process.isRunning {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[0..<count])
            let text = String(decoding: pending, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return String(line)
            }
        }
        return nil
    }

    /// Whether the program is still running.
    var isRunning: Bool { process.isRunning }

    /// Closes stdin and, if the program has not exited within 2 s, terminates it. Idempotent.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The path of the running bench executable.
    static var benchExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

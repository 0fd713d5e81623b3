import Foundation

/// A program started by a test, with its stdout collected line by line and its stdin open
/// for commands.
///
/// Owns the process and its pipes; the reader thread appends lines under a lock, so the
/// waiting methods may be called from any task.
final class ClientProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var lines: [String] = []
    private var errorText = ""

    /// Starts `executable` with `arguments` in `environment`.
    init(_ executable: URL, _ arguments: [String] = [], environment: [String: String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.collect(handle.availableData, intoErrors: false)
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.collect(errors: handle.availableData)
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private var partial = Data()

    private func collect(_ data: Data, intoErrors: Bool) {
        lock.lock()
        defer { lock.unlock() }
        partial.append(data)
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial.removeSubrange(partial.startIndex...newline)
        }
    }

    private func collect(errors data: Data) {
        lock.lock()
        errorText += String(decoding: data, as: UTF8.self)
        lock.unlock()
    }

    /// Everything printed on stdout so far, one entry per complete line.
    var outputLines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Everything printed on stderr so far.
    var standardError: String {
        lock.lock()
        defer { lock.unlock() }
        return errorText
    }

    /// Sends one command line on stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until a line satisfying `predicate` appears (after the first `skipping` lines),
    /// returning it, or nil after `timeout`.
    func waitForLine(timeout: TimeInterval = 10, skipping: Int = 0, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let line = outputLines.dropFirst(skipping).first(where: predicate) { return line }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// Waits for the process to end, up to `timeout`; returns its status, or nil if it is
    /// still running.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Total context switches of all the process's threads: each is a wake-up or a
    /// preemption, so an idle program's count does not grow.
    func contextSwitches() -> Int {
        let tasks = "/proc/\(process.processIdentifier)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.reduce(0) { total, thread in
            let status = (try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)) ?? ""
            return total + status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
                .reduce(0, +)
        }
    }
}

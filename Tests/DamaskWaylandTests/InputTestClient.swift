import Dispatch
import Foundation

/// A `damask-test-client` running against a private compositor, with its output collected
/// line by line so that tests can wait for what it prints.
///
/// Owns the process and its pipes; `deinit` ends the process. The line buffer is guarded by
/// a condition lock (the pipe is read on a global queue until end of file). Use from one
/// test.
final class InputTestClient: @unchecked Sendable {
    /// The executable, next to the test bundle (named after the product or the target).
    static var executable: URL {
        let directory = PrivateCompositor.productsDirectory
        let named = directory.appendingPathComponent("damask-test-client")
        if FileManager.default.isExecutableFile(atPath: named.path) { return named }
        return directory.appendingPathComponent("DamaskTestClient")
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let collector = Collector()

    /// The printed lines, filled by a reader on a global queue until the pipe's end of file.
    /// Held strongly by that reader (and by the client), so nothing outlives the process.
    private final class Collector: @unchecked Sendable {
        let condition = NSCondition()
        var lines: [String] = []
        var ended = false

        func read(_ handle: FileHandle) {
            var buffer = Data()
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty {
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Starts the client with `arguments` in `environment` (a compositor's client environment).
    init(arguments: [String] = [], environment: [String: String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // The child has its copy of the write end; closing ours lets the reader see EOF.
        try? output.fileHandleForWriting.close()
        let collector = collector
        let handle = output.fileHandleForReading
        DispatchQueue.global().async { collector.read(handle) }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Every line printed so far.
    var lines: [String] {
        collector.condition.lock()
        defer { collector.condition.unlock() }
        return collector.lines
    }

    /// Sends one command line.
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Waits until a line at index `from` or later satisfies `predicate`; returns it, or nil
    /// after `timeout` seconds or when the client ended.
    func waitForLine(from start: Int = 0, timeout: TimeInterval = 10, where predicate: (String) -> Bool) -> (index: Int, line: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        let condition = collector.condition
        condition.lock()
        defer { condition.unlock() }
        var next = start
        while true {
            while next < collector.lines.count {
                if predicate(collector.lines[next]) { return (next, collector.lines[next]) }
                next += 1
            }
            if collector.ended || !condition.wait(until: deadline) { break }
        }
        while next < collector.lines.count {
            if predicate(collector.lines[next]) { return (next, collector.lines[next]) }
            next += 1
        }
        return nil
    }

    /// Waits for the process to end; returns its exit status, or nil on timeout.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }
}

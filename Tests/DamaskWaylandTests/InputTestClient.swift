import Foundation

/// A `damask-test-client` running against a private compositor, with its output collected
/// line by line so that tests can wait for what it prints.
///
/// Owns the process and its pipes; `deinit` ends the process. The line buffer is guarded by
/// a condition lock (the pipe is read on a background queue). Use from one test.
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
    private let condition = NSCondition()
    private var buffer = Data()
    private var collected: [String] = []
    private var ended = false

    /// Starts the client with `arguments` in `environment` (a compositor's client environment).
    init(arguments: [String] = [], environment: [String: String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.receive(handle.availableData)
        }
        try process.run()
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Every line printed so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }

    /// Sends one command line.
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Waits until a line at index `from` or later satisfies `predicate`; returns it, or nil
    /// after `timeout` seconds or when the client ended.
    func waitForLine(from start: Int = 0, timeout: TimeInterval = 10, where predicate: (String) -> Bool) -> (index: Int, line: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = start
        while true {
            while next < collected.count {
                if predicate(collected[next]) { return (next, collected[next]) }
                next += 1
            }
            if ended || !condition.wait(until: deadline) { break }
        }
        while next < collected.count {
            if predicate(collected[next]) { return (next, collected[next]) }
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

    private func receive(_ data: Data) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if data.isEmpty {
            ended = true
            output.fileHandleForReading.readabilityHandler = nil
            return
        }
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            collected.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
    }
}

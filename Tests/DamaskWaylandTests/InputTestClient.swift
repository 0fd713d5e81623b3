import Foundation

/// A `damask-test-client` running against a private compositor, with its output (stdout and
/// stderr interleaved) collected line by line so that tests can wait for what it prints.
///
/// Owns its ``TestProcess``; `deinit` ends the client's process group if it still runs.
/// Use from one test.
final class InputTestClient: @unchecked Sendable {
    /// The executable, next to the test bundle (named after the product or the target).
    static var executable: URL {
        let directory = PrivateCompositor.productsDirectory
        let named = directory.appendingPathComponent("damask-test-client")
        if FileManager.default.isExecutableFile(atPath: named.path) { return named }
        return directory.appendingPathComponent("DamaskTestClient")
    }

    /// The running client.
    let process: TestProcess

    /// Starts the client with `arguments` in `environment` (a compositor's client environment).
    init(arguments: [String] = [], environment: [String: String]) throws {
        process = try TestProcess(Self.executable.path, arguments, environment: environment, mergingErrors: true)
    }

    /// Every line printed so far.
    var lines: [String] { process.lines }

    /// Sends one command line.
    func send(_ command: String) { process.send(command) }

    /// Waits until a line at index `from` or later satisfies `predicate`; returns it, or nil
    /// after `timeout` seconds or when the client ended.
    func waitForLine(from start: Int = 0, timeout: TimeInterval = 10, where predicate: (String) -> Bool) -> (index: Int, line: String)? {
        process.waitForLine(from: start, timeout: timeout, where: predicate)
    }

    /// Waits for the process to end; returns its exit status, or nil on timeout.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        process.waitForExit(timeout: timeout)
    }
}

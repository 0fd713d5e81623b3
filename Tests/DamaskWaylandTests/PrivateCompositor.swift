import Foundation

/// A private compositor for one test, started through the project's own scripts
/// (`scripts/with-weston` or `scripts/with-gnome`) and stopped by closing its stdin, after
/// which the script stops the compositor by PID.
///
/// Owns the script's process and pipes. Not thread-safe: use from one test.
final class PrivateCompositor {
    enum Kind {
        case weston(scale: Int = 1, size: String = "800x600")
        case westonX11(display: String, size: String = "800x600")
        case gnome(size: String = "800x600")
    }

    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the built executables are (next to the test bundle).
    static let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// The socket as an absolute path, usable as `WAYLAND_DISPLAY` or `wl_display_connect`.
    let socketPath: String
    let runtimeDirectory: String
    /// Weston's log with every request (`--logger-scopes=log,proto`), or mutter's output.
    let logPath: String
    /// The compositor's process id.
    let pid: Int32

    private let process: Process
    private let input: Pipe

    init(_ kind: Kind) throws {
        process = Process()
        input = Pipe()
        let output = Pipe()
        let report = #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|${DAMASK_WESTON_LOG:-$DAMASK_MUTTER_LOG}|${DAMASK_WESTON_PID:-$DAMASK_MUTTER_PID}"; exec cat >/dev/null"#
        var arguments: [String]
        var environment = ProcessInfo.processInfo.environment
        switch kind {
        case .weston(let scale, let size):
            process.executableURL = Self.packageRoot.appendingPathComponent("scripts/with-weston")
            arguments = ["--scale", "\(scale)", "--size", size]
        case .westonX11(let display, let size):
            process.executableURL = Self.packageRoot.appendingPathComponent("scripts/with-weston")
            arguments = ["--x11", "--size", size]
            environment["DISPLAY"] = display
        case .gnome(let size):
            process.executableURL = Self.packageRoot.appendingPathComponent("scripts/with-gnome")
            arguments = ["--size", size]
        }
        process.arguments = arguments + ["--", "sh", "-c", report]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: Self.readLine(output.fileHandleForReading), as: UTF8.self)
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4, let pid = Int32(fields[3]) else {
            process.terminate()
            throw CompositorError.didNotStart(line)
        }
        (socketPath, runtimeDirectory, logPath, self.pid) = (fields[0], fields[1], fields[2], pid)
    }

    deinit { stop() }

    /// Stops the compositor and waits for the script to finish; a compositor that does not
    /// stop within 10 s is killed. Idempotent.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            _ = Glibc.kill(pid, SIGKILL)
            process.terminate()
        }
        process.waitUntilExit()
    }

    /// Kills the compositor itself (SIGKILL), as a crash would.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// The environment a client of this compositor needs.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return environment
    }

    /// The lines of the log that mention `text`.
    func logLines(containing text: String) -> [String] {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    /// Takes a Weston screenshot of the whole output into `path`.
    func screenshot(to path: String) throws {
        let result = try Self.run(
            Self.packageRoot.appendingPathComponent("scripts/screenshot").path, [path],
            environment: clientEnvironment)
        guard result.status == 0 else { throw CompositorError.screenshotFailed(result.output) }
    }

    /// Runs a program to completion, returning its exit status and its stdout+stderr.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 60) throws -> (status: Int32, output: String, reason: Process.TerminationReason) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), process.terminationReason)
    }

    private static func readLine(_ handle: FileHandle) -> Data {
        var line = Data()
        while let byte = try? handle.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        return line
    }
}

enum CompositorError: Error {
    case didNotStart(String)
    case screenshotFailed(String)
}

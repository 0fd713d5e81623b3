import Foundation

/// A private headless Weston started through the project's `scripts/with-weston`, stopped
/// (by the script, by PID) when the session closes the script's stdin.
///
/// Owns the script's process and pipes. Not thread-safe: use from the main thread.
final class WestonSession {
    /// `WAYLAND_DISPLAY` for clients (an absolute socket path).
    let socketPath: String
    /// `XDG_RUNTIME_DIR` for clients.
    let runtimeDirectory: String
    /// Weston's process id.
    let pid: Int32
    /// Weston's log, with every request and event (`--logger-scopes=log,proto`).
    let logPath: String

    private let process = Process()
    private let input = Pipe()

    /// Starts Weston with an output of `size` (e.g. `1920x1080`), with the pixman renderer
    /// or, when `glRenderer`, the GL one (`scripts/with-weston --gl`); with `seat`, Weston
    /// also has a seat with a pointer and a keyboard (`scripts/with-weston --seat`), which
    /// some clients (foot) need to start.
    ///
    /// - Throws: `BenchError.helper` when the script is missing or Weston does not start.
    init(size: String, glRenderer: Bool = false, seat: Bool = false) throws {
        guard let script = Self.script(named: "with-weston") else {
            throw BenchError.helper("scripts/with-weston not found (run from the package root or set DAMASK_ROOT)")
        }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["--size", size] + (glRenderer ? ["--gl"] : []) + (seat ? ["--seat"] : []) + [
            "--", "sh", "-c",
            #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|$DAMASK_WESTON_PID|$DAMASK_WESTON_LOG"; exec cat >/dev/null"#,
        ]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let descriptor = output.fileHandleForReading.fileDescriptor
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let fields = String(decoding: line, as: UTF8.self).split(separator: "|").map(String.init)
        guard fields.count == 4, let pid = Int32(fields[2]) else {
            process.terminate()
            throw BenchError.helper("weston did not start (is it installed? scripts/setup)")
        }
        (socketPath, runtimeDirectory, self.pid, logPath) = (fields[0], fields[1], pid, fields[3])
    }

    deinit { stop() }

    /// The environment a client of this Weston needs.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return environment
    }

    /// How many lines of Weston's log contain `text` (e.g. `wl_surface@3.commit()`).
    func logLineCount(containing text: String) -> Int {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").count { $0.contains(text) }
    }

    /// Stops Weston and waits for the script (at most 10 s, then kills Weston). Idempotent.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.terminate()
        }
        process.waitUntilExit()
    }

    /// Where a package checkout may be, in the order searched: `DAMASK_ROOT`, the current
    /// directory, the package this file was compiled from.
    static var packageRoots: [String] {
        var roots: [String] = []
        if let root = ProcessInfo.processInfo.environment["DAMASK_ROOT"] { roots.append(root) }
        roots.append(FileManager.default.currentDirectoryPath)
        roots.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path)
        return roots
    }

    /// Finds `scripts/NAME` under one of ``packageRoots``.
    static func script(named name: String) -> String? {
        packageRoots.map { $0 + "/scripts/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

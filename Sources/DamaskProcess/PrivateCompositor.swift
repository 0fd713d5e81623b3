import Foundation

/// A private compositor for one test, started through the project's own scripts
/// (`scripts/with-weston` or `scripts/with-gnome`) and stopped by closing its stdin, after
/// which the script stops the compositor by PID.
///
/// Owns the script's ``ChildProcess`` (and so its process group, which holds the
/// compositor). Not thread-safe: use from one test.
public final class PrivateCompositor {
    public enum Kind {
        /// Headless Weston; `seat` gives it a seat with a pointer and a keyboard that send no
        /// events (`scripts/with-weston --seat`), so that windows get keyboard focus and
        /// with it the selections; `glRenderer` swaps the pixman renderer for the GL one
        /// (`scripts/with-weston --gl`); `inputMethod`: the program Weston runs as its input
        /// method client (`scripts/with-weston --input-method`), none when nil.
        case weston(
            scale: Int = 1, size: String = "800x600", seat: Bool = false, glRenderer: Bool = false,
            inputMethod: String? = nil)
        case westonX11(display: String, size: String = "800x600", inputMethod: String? = nil)
        case gnome(size: String = "800x600")
    }

    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the built executables are (next to the test bundle).
    public static let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// How long a compositor may take to come up on a loaded machine before the test fails.
    public static let startTimeout: TimeInterval = 60

    /// The socket as an absolute path, usable as `WAYLAND_DISPLAY` or `wl_display_connect`.
    public let socketPath: String
    public let runtimeDirectory: String
    /// Weston's log with every request (`--logger-scopes=log,proto`), or mutter's output.
    public let logPath: String
    /// The compositor's process id.
    public let pid: Int32

    private let script: ChildProcess
    /// The package checkout whose scripts this compositor runs.
    private let root: URL

    /// Starts the compositor; `environment` (default: this process's) is the script's, and
    /// `root` the package checkout whose `scripts/` start it (default: ``packageRoot``).
    public init(
        _ kind: Kind, environment base: [String: String]? = nil, packageRoot root: URL = PrivateCompositor.packageRoot
    ) throws {
        self.root = root
        let report = #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|${DAMASK_WESTON_LOG:-$DAMASK_MUTTER_LOG}|${DAMASK_WESTON_PID:-$DAMASK_MUTTER_PID}"; exec cat >/dev/null"#
        let executable: String
        var arguments: [String]
        var environment = base ?? ProcessInfo.processInfo.environment
        switch kind {
        case .weston(let scale, let size, let seat, let glRenderer, let inputMethod):
            executable = root.appendingPathComponent("scripts/with-weston").path
            arguments = ["--scale", "\(scale)", "--size", size] + (seat ? ["--seat"] : []) + (glRenderer ? ["--gl"] : [])
                + (inputMethod.map { ["--input-method", $0] } ?? [])
        case .westonX11(let display, let size, let inputMethod):
            executable = root.appendingPathComponent("scripts/with-weston").path
            arguments = ["--x11", "--size", size] + (inputMethod.map { ["--input-method", $0] } ?? [])
            environment["DISPLAY"] = display
        case .gnome(let size):
            executable = root.appendingPathComponent("scripts/with-gnome").path
            arguments = ["--size", size]
        }
        script = try ChildProcess(executable, arguments + ["--", "sh", "-c", report], environment: environment)
        let line = script.waitForLine(timeout: Self.startTimeout) { _ in true }?.line ?? ""
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4, let pid = Int32(fields[3]) else {
            script.kill()
            throw ChildProcessError.didNotStart(
                program: ([executable] + arguments).joined(separator: " "),
                waitingFor: "the compositor's socket, within \(Int(Self.startTimeout)) s",
                output: script.transcript)
        }
        (socketPath, runtimeDirectory, logPath, self.pid) = (fields[0], fields[1], fields[2], pid)
    }

    deinit { stop() }

    /// Stops the compositor and waits for the script to finish; a script that does not end
    /// within 10 s has its whole process group killed. Idempotent.
    public func stop() {
        guard script.isRunning else { return }
        script.closeInput()
        if script.waitForExit(timeout: 10) == nil { script.kill() }
    }

    /// Kills the compositor itself (SIGKILL), as a crash would.
    public func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// The environment a client of this compositor needs.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return environment
    }

    /// The lines of the log that mention `text`.
    public func logLines(containing text: String) -> [String] {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    /// How many pointer events (enter, leave, motion, button, …) Weston has sent to any
    /// client so far, from its protocol log.
    public var pointerEventCount: Int {
        logLines(containing: "wl_pointer@").count { $0.contains(" ev ") }
    }

    /// Waits until the log has lines mentioning `text` for which `condition` holds (the
    /// compositor writes its log a moment after it handled a request); returns those lines
    /// as they stand when it held, or at the deadline.
    @discardableResult
    public func waitForLogLines(
        containing text: String, timeout: TimeInterval = 10, until condition: ([String]) -> Bool = { !$0.isEmpty }
    ) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = logLines(containing: text)
        while !condition(lines) && Date() < deadline {
            usleep(10_000)
            lines = logLines(containing: text)
        }
        return lines
    }

    /// Runs a program to completion (``ChildProcess/run(_:_:environment:timeout:)``, under the
    /// name older tests use).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: TimeInterval = 60
    ) throws -> (status: Int32, output: String, reason: Process.TerminationReason) {
        let result = try ChildProcess.run(executable, arguments, environment: environment, timeout: timeout)
        return (result.status, result.output, result.reason)
    }

    /// Takes a Weston screenshot of the whole output into `path`.
    public func screenshot(to path: String) throws {
        let result = try ChildProcess.run(
            root.appendingPathComponent("scripts/screenshot").path, [path],
            environment: clientEnvironment, timeout: 30)
        guard result.status == 0 else { throw CompositorError.screenshotFailed(result.output) }
    }
}

public enum CompositorError: Error, CustomStringConvertible {
    /// Something a test needed before its compositor could run failed; what and why.
    case didNotStart(String)
    case screenshotFailed(String)

    public var description: String {
        switch self {
        case .didNotStart(let reason): return "did not start: \(reason)"
        case .screenshotFailed(let output): return "scripts/screenshot failed: \(output)"
        }
    }
}

import Foundation

/// The misbehaving compositor of `Tests/Hostile/hostile-compositor.c`, built once per test
/// process with gcc (server glue from `protocols/` by wayland-scanner) and run with a
/// private `XDG_RUNTIME_DIR` for one scenario.
///
/// Owns its process (a ``ClientProcess``, killed by PID in `deinit` if still running) and
/// its runtime directory (removed in `deinit`). Not thread-safe: use from one test.
final class HostileCompositor {
    /// The compositor process; its stdout lines are its reports ("listening", "mapped W H",
    /// "alive W H MAXPIXELS", "hangup", "sent", "client gone").
    let process: ClientProcess
    let runtimeDirectory: String
    let socketName: String

    /// The built program, or why it could not be built.
    nonisolated(unsafe) private static var built: Result<String, CompositorError>?
    private static let buildLock = NSLock()

    /// Builds the program (once per process) and returns its path.
    static func executable() throws -> String {
        buildLock.lock()
        defer { buildLock.unlock() }
        if let built { return try built.get() }
        let result = Result { try build() }.mapError { error in
            (error as? CompositorError) ?? CompositorError.didNotStart("\(error)")
        }
        built = result
        return try result.get()
    }

    private static func build() throws -> String {
        let root = PrivateCompositor.packageRoot.path
        let directory = try makeTemporaryDirectory(prefix: "damask-hostile-build")
        var command = "set -e; cd '\(directory)'; "
        for name in ["xdg-shell", "viewporter", "fractional-scale-v1", "text-input-unstable-v3"] {
            command += "wayland-scanner server-header '\(root)/protocols/\(name).xml' \(name)-server-protocol.h; "
            command += "wayland-scanner private-code '\(root)/protocols/\(name).xml' \(name)-protocol.c; "
        }
        command += "gcc -Wall -Wextra -Werror -I. -o hostile-compositor '\(root)/Tests/Hostile/hostile-compositor.c' "
            + "xdg-shell-protocol.c viewporter-protocol.c fractional-scale-v1-protocol.c text-input-unstable-v3-protocol.c "
            + "$(pkg-config --cflags --libs wayland-server xkbcommon)"
        let result = try PrivateCompositor.run("/bin/sh", ["-c", command])
        guard result.status == 0 else { throw CompositorError.didNotStart("building hostile-compositor: \(result.output)") }
        return directory + "/hostile-compositor"
    }

    /// A fresh private directory under the temporary directory (mkdtemp).
    static func makeTemporaryDirectory(prefix: String) throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CompositorError.didNotStart("mkdtemp: \(errno)") }
        return String(cString: made)
    }

    /// Starts the compositor on `scenario` and waits until it listens.
    init(_ scenario: String, _ arguments: [String] = []) throws {
        let executable = try Self.executable()
        runtimeDirectory = try Self.makeTemporaryDirectory(prefix: "damask-hostile-run")
        chmod(runtimeDirectory, 0o700)
        socketName = "hostile-0"
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        process = try ClientProcess(
            URL(fileURLWithPath: executable), [socketName, scenario] + arguments, environment: environment)
        guard process.waitForLine(timeout: 10, where: { $0 == "listening" }) != nil else {
            throw CompositorError.didNotStart("hostile-compositor: \(process.standardError)")
        }
    }

    deinit {
        if process.process.isRunning { kill(process.process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// The environment a client of this compositor needs.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["WAYLAND_DISPLAY"] = socketName
        environment.removeValue(forKey: "WAYLAND_SOCKET")
        return environment
    }

    /// The first report line starting with `prefix`, waiting up to `timeout`.
    func waitForReport(_ prefix: String, timeout: TimeInterval = 20) -> String? {
        process.waitForLine(timeout: timeout) { $0.hasPrefix(prefix) }
    }

    /// The numbers of a report line ("alive 200 150 30000" → [200, 150, 30000]).
    static func numbers(in line: String) -> [Int] {
        line.split(separator: " ").compactMap { Int($0) }
    }

    /// The peak resident memory of process `pid` (VmHWM), in bytes; `Int.max` when it
    /// cannot be read, so that every upper bound on it fails rather than passes.
    static func peakResidentBytes(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").compactMap({ Int($0) }).first
        else { return .max }
        return kilobytes * 1024
    }
}

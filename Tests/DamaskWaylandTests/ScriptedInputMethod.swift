import Foundation

/// The tests' own zwp_input_method_v1 client (`Tests/InputMethods/scripted-input-method-v1.c`),
/// built once per test process with gcc and run by Weston as its `[input-method]`: it plays
/// an exact preedit/commit/delete/key sequence and logs what the text field told it.
///
/// Owns its directory (script and log; removed by ``remove()``). Weston owns the process
/// (it launches the input method and stops it with itself). Not thread-safe: use from one test.
final class ScriptedInputMethod {
    /// The built program, or why it could not be built.
    nonisolated(unsafe) private static var built: Result<String, TestProcessError>?
    private static let buildLock = NSLock()

    let directory: String
    var scriptPath: String { directory + "/im-script" }
    var logPath: String { directory + "/im-log" }

    /// Builds the program (once per process) and returns its path.
    static func executable() throws -> String {
        buildLock.lock()
        defer { buildLock.unlock() }
        if let built { return try built.get() }
        let result = Result { try build() }.mapError { error in
            (error as? TestProcessError) ?? TestProcessError.didNotStart(program: "gcc", waitingFor: "a build", output: "\(error)")
        }
        built = result
        return try result.get()
    }

    private static func build() throws -> String {
        let root = PrivateCompositor.packageRoot.path
        let directory = try HostileCompositor.makeTemporaryDirectory(prefix: "damask-test-im")
        let command = "set -e; gcc -Wall -Wextra -Werror -I'\(root)/Sources/CWaylandProtocols/include' "
            + "-o '\(directory)/scripted-input-method-v1' '\(root)/Tests/InputMethods/scripted-input-method-v1.c' "
            + "'\(root)/Sources/CWaylandProtocols/input-method-unstable-v1-protocol.c' $(pkg-config --cflags --libs wayland-client)"
        let result = try PrivateCompositor.run("/bin/sh", ["-c", command])
        guard result.status == 0 else {
            throw TestProcessError.didNotStart(program: "gcc", waitingFor: "scripted-input-method-v1", output: result.output)
        }
        return directory + "/scripted-input-method-v1"
    }

    /// Writes `script` (the input method's steps) into a fresh directory.
    init(script: String) throws {
        directory = try HostileCompositor.makeTemporaryDirectory(prefix: "damask-test-im-run")
        try script.write(toFile: directory + "/im-script", atomically: true, encoding: .utf8)
    }

    /// What Weston's environment needs so that the input method finds its script and log.
    func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DAMASK_TEST_IM_SCRIPT"] = scriptPath
        environment["DAMASK_TEST_IM_LOG"] = logPath
        return environment
    }

    /// The log's lines so far.
    var log: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits until the log has a line `line` (polled every 20 ms; the bound is for failure).
    @discardableResult
    func waitForLine(_ line: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(line) { return true }
            usleep(20_000)
        }
        return log.contains(line)
    }

    /// Removes the directory.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

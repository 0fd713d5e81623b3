import Foundation

/// One run of the built `damask-inspect` for the tests: exit status, output (the client's
/// and the summary), and the per-commit JSONL log as dictionaries.
///
/// Each run has its own temporary directory (log, evidence), removed by `removeDirectory()`.
/// Not thread-safe: use from one test.
struct InspectRun {
    static let executable = PrivateCompositor.productsDirectory.appendingPathComponent("damask-inspect").path

    var status: Int32
    var output: String
    var directory: String
    var reason: Process.TerminationReason

    var logPath: String { (directory as NSString).appendingPathComponent("commits.jsonl") }
    var evidenceDirectory: String { (directory as NSString).appendingPathComponent("evidence") }

    /// Runs `damask-inspect --log … --evidence … [options] -- command` with `environment`.
    static func run(_ command: [String], options: [String] = [], environment: [String: String], timeout: TimeInterval = 120) throws -> InspectRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var run = InspectRun(status: -1, output: "", directory: directory, reason: .exit)
        let arguments = ["--log", run.logPath, "--evidence", run.evidenceDirectory] + options + ["--"] + command
        let result = try PrivateCompositor.run(executable, arguments, environment: DemoRun.environment(environment), timeout: timeout)
        (run.status, run.output, run.reason) = (result.status, result.output, result.reason)
        return run
    }

    /// The JSONL records, in order.
    var records: [[String: Any]] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Records of surfaces whose role starts with `role`.
    func records(role: String) -> [[String: Any]] {
        records.filter { ($0["role"] as? String)?.hasPrefix(role) == true }
    }

    /// Evidence images written.
    var evidenceFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: evidenceDirectory)) ?? []
    }

    func removeDirectory() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Builds Tests/InspectClients/broken-damage.c with gcc; returns the executable's path.
    static func buildBrokenClient() throws -> String {
        try buildClient("broken-damage")
    }

    /// Builds Tests/InspectClients/NAME.c (an xdg-shell wl_shm client; viewporter linked in) with gcc; returns the
    /// executable's path, which the caller removes.
    static func buildClient(_ name: String) throws -> String {
        let root = PrivateCompositor.packageRoot
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-\(UUID().uuidString)-\(name)").path
        let result = try PrivateCompositor.run("/usr/bin/gcc", [
            "-O1", "-pthread", "-o", output,
            root.appendingPathComponent("Tests/InspectClients/\(name).c").path,
            root.appendingPathComponent("Sources/CWaylandProtocols/xdg-shell-protocol.c").path,
            root.appendingPathComponent("Sources/CWaylandProtocols/viewporter-protocol.c").path,
            "-I", root.appendingPathComponent("Sources/CWaylandProtocols/include").path,
            "-lwayland-client",
        ])
        guard result.status == 0 else { throw CompositorError.didNotStart("gcc: \(result.output)") }
        return output
    }
}

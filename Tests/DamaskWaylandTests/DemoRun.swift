import Foundation

/// One run of the built `damask-demo` for the demo's tests: its exit status, what it
/// printed, and its damage log.
///
/// Each run works in its own temporary directory (scripts, logs, screenshots), removed by
/// ``removeDirectory()``. Not thread-safe: use from one test.
struct DemoRun {
    /// The demo executable, next to the test bundle.
    static let executable = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo").path
    /// How many scenes the demo has (the tour screenshots each).
    static let sceneCount = 9
    /// The bundled tour script.
    static let tourPath = PrivateCompositor.packageRoot
        .appendingPathComponent("Sources/DamaskDemo/Resources/tour.damask").path

    /// The exit status.
    var status: Int32
    /// Standard output and standard error, interleaved.
    var output: String
    /// The run's working directory.
    var directory: String

    /// Makes a fresh temporary directory for one run.
    static func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-demo-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs the demo with `arguments`; `script` (if given) is written to `DIR/script.damask`
    /// and passed with `--play`; the damage log goes to `DIR/damage.jsonl`.
    static func run(
        _ arguments: [String], script: String? = nil, environment: [String: String]? = nil,
        directory: String? = nil, timeout: TimeInterval = 60
    ) throws -> DemoRun {
        let directory = try directory ?? makeDirectory()
        var all = arguments + ["--damage-log", (directory as NSString).appendingPathComponent("damage.jsonl")]
        if let script {
            let path = (directory as NSString).appendingPathComponent("script.damask")
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            all += ["--play", path]
        }
        var environment = Self.environment(environment)
        if arguments.contains("--headless") { environment["WAYLAND_DISPLAY"] = nil }
        let result = try TestProcess.run(executable, all, environment: environment, timeout: timeout)
        return DemoRun(status: result.status, output: result.output, directory: directory)
    }

    /// Runs the demo with exactly `arguments` (no damage log, no script).
    static func runPlain(_ arguments: [String]) throws -> (status: Int32, output: String) {
        var environment = Self.environment(nil)
        environment["WAYLAND_DISPLAY"] = nil
        let result = try TestProcess.run(executable, arguments, environment: environment)
        return (result.status, result.output)
    }

    /// `base` (default: this process's environment) prepared for the demo.
    ///
    /// Under `--sanitize=address` the demo is instrumented too. It exits with its window and
    /// caches alive (`exit(3)`, as any app does), which LeakSanitizer would report as leaks
    /// (Swift's weak-reference side tables look unreachable to it), so leak detection is off
    /// for the demo; every other check stays on.
    static func environment(_ base: [String: String]?) -> [String: String] {
        var environment = base ?? ProcessInfo.processInfo.environment
        let asanOptions = environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        environment["ASAN_OPTIONS"] = asanOptions + "detect_leaks=0"
        return environment
    }

    /// The raw damage log.
    var damageLogText: String {
        (try? String(contentsOfFile: (directory as NSString).appendingPathComponent("damage.jsonl"), encoding: .utf8)) ?? ""
    }

    /// The damage log's commits, in order.
    var commits: [LoggedCommit] {
        damageLogText.split(separator: "\n").compactMap { LoggedCommit(line: String($0)) }
    }

    /// Removes the run's directory.
    func removeDirectory() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// One line of `--damage-log`.
struct LoggedCommit: Equatable {
    /// The commit number.
    var frame: Int
    /// The damage rects, `[x, y, w, h]` in buffer pixels.
    var damage: [[Int]]
    /// The draws in the commit's pass.
    var draws: Int

    /// Parses a JSON line; `nil` if it is not one.
    init?(line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let frame = object["frame"] as? Int, let damage = object["damage"] as? [[Int]],
            let draws = object["draws"] as? Int
        else { return nil }
        self.frame = frame
        self.damage = damage
        self.draws = draws
    }
}

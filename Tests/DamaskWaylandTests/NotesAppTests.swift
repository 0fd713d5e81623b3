import DamaskTestSupport
import Foundation
import Testing

/// The `Examples/Notes` application (`damask-notes`, written against the public API only)
/// built and driven by its input script: notes created, typed into, selected and deleted,
/// focus moved with Tab, checked by the app's own `expect-notes`/`expect-note`, by pixels
/// and by damage; headless and on a private Weston.
@Suite("damask-notes, the example app, scripted", .exclusive, .integration, .timeLimit(.minutes(5)))
struct NotesAppTests {
    /// The executable, next to the test bundle.
    static let executable = PrivateCompositor.productsDirectory.appendingPathComponent("damask-notes").path
    /// The script the example ships.
    static let scriptPath = PrivateCompositor.packageRoot.appendingPathComponent("Examples/Notes/notes.damask").path

    /// Runs `damask-notes` with `arguments` in `environment` (WAYLAND_DISPLAY unset with
    /// `--headless`); leak detection off as for the demo (see `DemoRun.environment`).
    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        var environment = DemoRun.environment(environment)
        if arguments.contains("--headless") { environment["WAYLAND_DISPLAY"] = nil }
        let result = try TestProcess.run(executable, arguments, environment: environment, timeout: 60)
        return (result.status, result.output)
    }

    /// Writes `script` to a fresh file and returns its path.
    static func write(_ script: String) throws -> String {
        let directory = try DemoRun.makeDirectory()
        let path = (directory as NSString).appendingPathComponent("notes.damask")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("headless: the shipped script creates, types, selects and deletes notes with every expectation holding")
    func headless() throws {
        let result = try Self.run(["--headless", "--speed", "fast", "--play", Self.scriptPath])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("every expectation held"), "\(result.output)")
    }

    @Test("under a private Weston: the same script through the real protocol")
    func underWeston() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        // The caret does not blink: the script's waits for a still window need not outlast it.
        let result = try Self.run(
            ["--speed", "fast", "--caret-blink", "off", "--play", Self.scriptPath], environment: weston.clientEnvironment)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("every expectation held"), "\(result.output)")
    }

    @Test("a note check that does not hold fails the run with the script's line")
    func failingCheck() throws {
        let path = try Self.write("wait idle\nclick 38 376\nwait idle\nexpect-note 2 \"not empty\"\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let result = try Self.run(["--headless", "--speed", "fast", "--play", path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("notes.damask:4:1"), "\(result.output)")
        #expect(result.output.contains("note 2: expected \"not empty\", found \"\""), "\(result.output)")
    }

    @Test("a bad script is a usage error naming file:line:col, before any window opens")
    func badScript() throws {
        let path = try Self.write("wait idle\nexpect-notes many\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let result = try Self.run(["--headless", "--play", path])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("notes.damask:2:14"), "\(result.output)")
    }
}

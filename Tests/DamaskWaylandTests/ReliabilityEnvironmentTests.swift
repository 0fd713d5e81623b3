import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskWayland

/// A bad environment — an unwritable screenshot path, no fonts, a nonsense `XCURSOR_SIZE`,
/// a cursor theme that is not installed — gives a clear message and a sensible fallback,
/// never a crash.
@Suite("Reliability: bad environment", .serialized, .exclusive, .timeLimit(.minutes(5)))
@MainActor
struct ReliabilityEnvironmentTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")

    /// A one-line script the demo can play headless, in a temporary file.
    func shortScript() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-short.damask").path
        try Data("wait frames 2\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("An unwritable screenshot path ends the demo at once with one line naming it and the reason, exit status 2",
        arguments: ["/proc/damask-screenshots", "/etc/hostname/screenshots"])
    func unwritableScreenshotPathIsReported(directory: String) throws {
        let script = try shortScript()
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try TestProcess.run(
            Self.demo.path, ["--headless", "--play", script, "--screenshots", directory], timeout: 30)
        #expect(result.status == 2)
        #expect(result.exited)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        #expect(result.output.hasPrefix("damask-demo: cannot create the screenshot directory \(directory): "), "\(result.output)")
        #expect(!result.output.contains("Error Domain"))
    }

    @Test("Without any font the demo says so once, draws boxes and plays on")
    func noFontsFallBackToBoxesWithAMessage() throws {
        let script = try shortScript()
        defer { try? FileManager.default.removeItem(atPath: script) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-nofonts").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = "\(directory)/fonts.conf"
        try Data("""
            <?xml version="1.0"?>
            <fontconfig><dir>\(directory)/none</dir><cachedir>\(directory)/cache</cachedir></fontconfig>
            """.utf8).write(to: URL(fileURLWithPath: configuration))
        var environment = ProcessInfo.processInfo.environment
        environment["FONTCONFIG_FILE"] = configuration
        let result = try TestProcess.run(
            Self.demo.path, ["--headless", "--scene", "text", "--play", script], environment: environment, timeout: 30)
        #expect(result.status == 0, "\(result.output)")
        let warnings = result.output.components(separatedBy: "no usable font found").count - 1
        #expect(warnings == 1, "\(result.output)")
    }

    @Test("XCURSOR_SIZE that is not a size falls back to 24 with a warning; a good one is used as is")
    func cursorSizeFromTheEnvironment() {
        for bad in ["abc", "0", "-3", "100000", "24px"] {
            let (size, warning) = CursorTheme.size(fromEnvironment: bad)
            #expect(size == 24)
            #expect(warning == "XCURSOR_SIZE=\(bad) is not a cursor size (1…512); using 24")
        }
        #expect(CursorTheme.size(fromEnvironment: "48") == (48, nil))
        #expect(CursorTheme.size(fromEnvironment: nil) == (24, nil))
        #expect(CursorTheme.size(fromEnvironment: "") == (24, nil))
    }

    @Test("With a real pointer (Weston on Xvfb), XCURSOR_SIZE=abc and a theme that is not installed are each reported, and the client runs on", .integration)
    func badCursorEnvironmentUnderARealPointer() throws {
        // The client inherits this process's environment (the session starts it at once).
        let saved = ["XCURSOR_SIZE", "XCURSOR_THEME"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        setenv("XCURSOR_SIZE", "abc", 1)
        setenv("XCURSOR_THEME", "damask-no-such-theme", 1)
        let started = Result { try NestedWestonSession() }
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        let session = try started.get()
        try session.locateWindow()  // the pointer enters: the client loads its cursor theme
        let client = session.client
        #expect(client.waitForLine(where: { $0.hasSuffix("XCURSOR_SIZE=abc is not a cursor size (1…512); using 24") }) != nil)
        #expect(client.waitForLine(where: { $0.hasSuffix("cursor theme 'damask-no-such-theme' is not installed; using fallback cursors") }) != nil)
        let seen = client.lines.count
        client.send("mark 5 5 10 10")
        #expect(client.waitForLine(from: seen, where: { $0.hasPrefix("commit ") }) != nil, "the client stopped: \(client.lines)")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
        #expect(client.lines.count { $0.contains("XCURSOR_SIZE=abc") } == 1, "said once")
    }

    @Test("A cursor theme that is not installed is detected and every shape still has an image", .integration)
    func missingCursorThemeFallsBack() throws {
        #expect(CursorTheme.isInstalled(themeNamed: "Adwaita"), "the theme the other cursor tests use")
        #expect(!CursorTheme.isInstalled(themeNamed: "damask-no-such-theme"))
        let weston = try PrivateCompositor(.weston())
        let connection = try WaylandConnection(name: weston.socketPath)
        defer { connection.close() }
        let shm = try #require(connection.shm)
        let theme = CursorTheme(shm: shm, scale: 1, name: "damask-no-such-theme", size: 24)
        defer { theme.destroy() }
        for shape in [CursorShape.arrow, .text, .pointingHand, .resize(.bottomRight)] {
            #expect(theme.image(for: shape) != nil, "\(shape)")
        }
    }
}

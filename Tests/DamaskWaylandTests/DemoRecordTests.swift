import DamaskGraphics
import Foundation
import Testing

/// `--record`: real input from a seat (Weston nested in Xvfb, driven by xdotool) becomes a
/// script that `--play` replays.
@Suite("damask-demo --record")
struct DemoRecordTests {
    /// The sidebar's colour (#2B3342): its top-left corner is the content area's.
    static let sidebarColor: UInt32 = 0x2B3342

    @Test("a click recorded from the seat replays to the same scene")
    func recordedClickReplays() throws {
        let display = try XvfbDisplay(layout: "us")
        defer { display.stop() }
        let weston = try PrivateCompositor(.westonX11(display: display.name, size: "1024x768"))
        defer { weston.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = (directory as NSString).appendingPathComponent("recorded.damask")

        let demo = Process()
        demo.executableURL = URL(fileURLWithPath: DemoRun.executable)
        demo.arguments = ["--record", recording]
        demo.environment = DemoRun.environment(weston.clientEnvironment)
        demo.standardOutput = FileHandle.nullDevice
        demo.standardError = FileHandle.nullDevice
        try demo.run()
        defer { if demo.isRunning { demo.terminate() } }

        let origin = try #require(try Self.locateContent(in: weston, directory: directory))
        // The sidebar's third row (Paths) is at content point (90, 154). Enter from outside.
        usleep(300_000)
        try display.xdotool("mousemove", "0", "0")
        usleep(200_000)
        try display.xdotool("mousemove", "\(origin.x + 90)", "\(origin.y + 154)")
        usleep(300_000)
        try display.xdotool("click", "1")
        usleep(500_000)
        kill(demo.processIdentifier, SIGTERM)
        demo.waitUntilExit()
        #expect(demo.terminationStatus == 0)

        let script = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(script.contains("scene progress\n"))
        #expect(script.contains("click 90 154"), "content at \(origin): \(script)")

        // Replayed headless, the click shows the paths scene (its star is yellow).
        let run = try DemoRun.run(
            DemoHeadlessTests.fast, script: script + "\nexpect pixel 614 300 #ffcc00\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    /// The content area's top-left in output (= X screen) coordinates, from screenshots.
    private static func locateContent(in weston: PrivateCompositor, directory: String) throws -> (x: Int, y: Int)? {
        let path = (directory as NSString).appendingPathComponent("screen.png")
        for _ in 0..<20 {
            usleep(300_000)
            guard (try? weston.screenshot(to: path)) != nil,
                let bitmap = try? Bitmap(contentsOfPNGFile: path)
            else { continue }
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == sidebarColor {
                    return (x, y)
                }
            }
        }
        return nil
    }
}

import DamaskTestSupport
import DamaskGraphics
import Foundation
import Testing

/// `--record`: real input from a seat (Weston nested in Xvfb, driven by xdotool) becomes a
/// script that `--play` replays.
@Suite("damask-demo --record", .exclusive, .integration)
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

    @Test("a sequence recorded from the seat replays under a fresh Weston to the same window pixels")
    func recordedSequenceReplaysToTheSamePixels() throws {
        let display = try XvfbDisplay(layout: "us")
        defer { display.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = (directory as NSString).appendingPathComponent("recorded.damask")

        // Record: real X input through Weston's seat into the demo.
        let live: Bitmap
        do {
            let weston = try PrivateCompositor(.westonX11(display: display.name, size: "1024x768"))
            defer { weston.stop() }
            let demo = Process()
            demo.executableURL = URL(fileURLWithPath: DemoRun.executable)
            demo.arguments = ["--record", recording]
            demo.environment = DemoRun.environment(weston.clientEnvironment)
            demo.standardOutput = FileHandle.nullDevice
            demo.standardError = FileHandle.nullDevice
            try demo.run()
            defer { if demo.isRunning { demo.terminate() } }
            let origin = try #require(try Self.locateContent(in: weston, directory: directory))
            func click(_ x: Int, _ y: Int) throws {
                try display.xdotool("mousemove", "\(origin.x + x)", "\(origin.y + y)")
                usleep(250_000)
                try display.xdotool("click", "1")
                usleep(400_000)
            }
            try display.xdotool("mousemove", "0", "0")
            usleep(200_000)
            try click(90, 154)   // sidebar: Paths
            try click(90, 82)    // sidebar: Progress
            try click(364, 127)  // + 5%
            try click(364, 127)  // + 5%
            try display.xdotool("key", "Right")
            usleep(400_000)
            try display.xdotool("mousemove", "0", "0")  // out of the window: no hover left
            usleep(500_000)
            let screenPath = (directory as NSString).appendingPathComponent("live.png")
            try weston.screenshot(to: screenPath)
            let screen = try Bitmap(contentsOfPNGFile: screenPath)
            live = try Self.crop(screen, x: origin.x, y: origin.y)
            kill(demo.processIdentifier, SIGTERM)
            demo.waitUntilExit()
            #expect(demo.terminationStatus == 0)
        }
        let script = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(script.components(separatedBy: "\nclick ").count - 1 >= 4, "\(script)")
        #expect(script.contains("key Right") || script.contains("keydown Right"), "\(script)")

        // Replay under a fresh headless Weston, in real time, and take the window's pixels.
        let replayed = (directory as NSString).appendingPathComponent("replayed.png")
        let weston = try PrivateCompositor(.weston(size: "1024x768"))
        defer { weston.stop() }
        let run = try DemoRun.run(
            ["--speed", "realtime"], script: script + "\nwait 300ms\nscreenshot \(replayed)\n",
            environment: weston.clientEnvironment, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let difference = Bitmap.difference(live, try Bitmap(contentsOfPNGFile: replayed), tolerance: 0)
        #expect(difference.differingPixelCount == 0, "replayed window differs from the live one in \(difference.differingPixelCount) pixels; script:\n\(script)")
    }

    /// The 800×600 part of `screen` at (x, y).
    private static func crop(_ screen: Bitmap, x: Int, y: Int) throws -> Bitmap {
        let part = try Bitmap(width: 800, height: 600)
        for row in 0..<600 {
            for column in 0..<800 {
                part.setPixel(x: column, y: row, to: screen.pixel(x: x + column, y: y + row) | 0xFF00_0000)
            }
        }
        return part
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

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo used as a desktop app: focus, keys and scene layout, with a real seat (Weston
/// on Xvfb driven by xdotool) where the seat matters, headless where it does not.
@Suite("Demo desktop behaviour", .serialized, .exclusive)
struct DemoDesktopTests {
    /// A `damask-demo` process on `weston`, stopped by `stop()`.
    final class InteractiveDemo {
        let process = Process()

        init(arguments: [String], on weston: PrivateCompositor) throws {
            process.executableURL = URL(fileURLWithPath: DemoRun.executable)
            process.arguments = arguments
            process.environment = DemoRun.environment(weston.clientEnvironment)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Asks the demo to quit (SIGTERM) and returns its exit status.
        func stop() -> Int32 {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    /// Waits until the screen at content point `point` (content origin `origin`) is
    /// `color` (±8 a channel); returns the last colour seen.
    static func waitForColor(
        _ color: UInt32, at point: (x: Int, y: Int), origin: (x: Int, y: Int), weston: PrivateCompositor, directory: String
    ) -> UInt32? {
        let path = (directory as NSString).appendingPathComponent("check.png")
        var last: UInt32?
        for _ in 0..<20 {
            usleep(250_000)
            guard (try? weston.screenshot(to: path)) != nil, let bitmap = try? Bitmap(contentsOfPNGFile: path) else { continue }
            let pixel = bitmap.pixel(x: origin.x + point.x, y: origin.y + point.y) & 0xFF_FFFF
            last = pixel
            if isClose(pixel, color) { return pixel }
        }
        return last
    }

    /// Whether two 0xRRGGBB colours are within 8 a channel.
    static func isClose(_ a: UInt32, _ b: UInt32) -> Bool {
        for shift: UInt32 in [0, 8, 16] {
            let x = Int((a >> shift) & 0xFF)
            let y = Int((b >> shift) & 0xFF)
            if abs(x - y) > 8 { return false }
        }
        return true
    }

    @Test("After Escape in the text field, key 3 switches to the paths scene (real seat, decorated window)", .integration)
    func escapeHandsKeysBack() throws {
        let display = try XvfbDisplay(layout: "us")
        defer { display.stop() }
        let weston = try PrivateCompositor(.westonX11(display: display.name, size: "1024x768"))
        defer { weston.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let demo = try InteractiveDemo(arguments: ["--scene", "text"], on: weston)

        let origin = try #require(try DemoRecordTests.locateContent(in: weston, directory: directory))
        try display.xdotool("mousemove", "0", "0")
        usleep(200_000)
        // The field is at content (204, 160), 420 × 40.
        try display.xdotool("mousemove", "\(origin.x + 300)", "\(origin.y + 180)")
        usleep(200_000)
        try display.xdotool("click", "1")
        usleep(300_000)
        try display.xdotool("type", "--delay", "60", "ab")
        try display.xdotool("key", "Escape")
        usleep(200_000)
        try display.xdotool("key", "3")
        // The paths scene's star is yellow at content (614, 300).
        let star = Self.waitForColor(0xFFCC00, at: (614, 300), origin: origin, weston: weston, directory: directory)
        #expect(star.map { Self.isClose($0, 0xFFCC00) } == true, "content at \(origin): \(star.map { String($0, radix: 16) } ?? "no screenshot")")
        #expect(demo.stop() == 0)
    }

    @Test("Clicking the scene's background ends editing: S then shows the statistics, not an s (real seat)", .integration)
    func clickOutsideResignsField() throws {
        let display = try XvfbDisplay(layout: "us")
        defer { display.stop() }
        let weston = try PrivateCompositor(.westonX11(display: display.name, size: "1024x768"))
        defer { weston.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let demo = try InteractiveDemo(arguments: ["--scene", "text"], on: weston)

        let origin = try #require(try DemoRecordTests.locateContent(in: weston, directory: directory))
        try display.xdotool("mousemove", "0", "0")
        usleep(200_000)
        try display.xdotool("mousemove", "\(origin.x + 300)", "\(origin.y + 180)")
        usleep(200_000)
        try display.xdotool("click", "1")
        usleep(300_000)
        // The scene's empty background, below the hint.
        try display.xdotool("mousemove", "\(origin.x + 400)", "\(origin.y + 400)")
        usleep(200_000)
        try display.xdotool("click", "1")
        usleep(300_000)
        try display.xdotool("key", "s")
        // The statistics overlay's dark panel appears at content (570, 540).
        let panel = Self.waitForColor(0x34373F, at: (570, 540), origin: origin, weston: weston, directory: directory)
        #expect(panel.map { Self.isClose($0, 0x34373F) } == true,
            "content at \(origin): \(panel.map { String($0, radix: 16) } ?? "no screenshot")")
        #expect(demo.stop() == 0)
    }

    @Test("Keypad + zooms the paths scene as + does, and keypad − undoes it")
    func keypadZooms() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let script = """
            scene paths
            wait idle
            screenshot \(path("initial.png"))
            key KP_Add
            wait idle
            screenshot \(path("keypad-plus.png"))
            key KP_Subtract
            wait idle
            screenshot \(path("keypad-minus.png"))
            key plus
            wait idle
            screenshot \(path("plus.png"))

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let initial = try Bitmap(contentsOfPNGFile: path("initial.png"))
        let keypadPlus = try Bitmap(contentsOfPNGFile: path("keypad-plus.png"))
        let keypadMinus = try Bitmap(contentsOfPNGFile: path("keypad-minus.png"))
        let plus = try Bitmap(contentsOfPNGFile: path("plus.png"))
        #expect(Bitmap.difference(initial, keypadPlus, tolerance: 0).differingPixelCount > 1000, "KP_Add changed the scene")
        #expect(Bitmap.difference(initial, keypadMinus, tolerance: 0).differingPixelCount == 0, "KP_Subtract undid it")
        #expect(Bitmap.difference(keypadPlus, plus, tolerance: 0).differingPixelCount == 0, "KP_Add is +")
    }
}

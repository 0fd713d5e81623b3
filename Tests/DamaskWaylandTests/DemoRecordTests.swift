import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskWayland

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

        let live = try LiveDemo(recording: recording, weston: weston, directory: directory)
        let origin = try #require(try Self.locateContent(in: weston, directory: directory))
        // The sidebar's third row (Paths) is at content point (90, 154). Enter from outside.
        try display.xdotool("mousemove", "0", "0")
        try display.xdotool("mousemove", "\(origin.x + 90)", "\(origin.y + 154)")
        try live.click(on: display)
        #expect(live.quit() == 0, "\(live.process.transcript)")

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
            let demo = try LiveDemo(recording: recording, weston: weston, directory: directory)
            let origin = try #require(try Self.locateContent(in: weston, directory: directory))
            func click(_ x: Int, _ y: Int) throws {
                try display.xdotool("mousemove", "\(origin.x + x)", "\(origin.y + y)")
                // Input timing, not a wait: presses closer than the double-click interval
                // would be one double click.
                usleep((ClickCounter().interval + 100) * 1000)
                try demo.click(on: display)
            }
            try display.xdotool("mousemove", "0", "0")
            try click(90, 154)   // sidebar: Paths
            try click(90, 82)    // sidebar: Progress
            try click(364, 127)  // + 5%
            try click(364, 127)  // + 5%
            try demo.press("Right", on: display)
            // Out of the window: no hover left. The window's pixels are final once two
            // screenshots in a row agree.
            let leaves = weston.logLines(containing: ".leave(").count
            try display.xdotool("mousemove", "0", "0")
            weston.waitForLogLines(containing: ".leave(") { $0.count > leaves }
            let screenPath = (directory as NSString).appendingPathComponent("live.png")
            var previous: Bitmap?
            var stable: Bitmap?
            for _ in 0..<20 where stable == nil {
                try weston.screenshot(to: screenPath)
                let window = try Self.crop(try Bitmap(contentsOfPNGFile: screenPath), x: origin.x, y: origin.y)
                if let previous, Bitmap.difference(previous, window, tolerance: 0).differingPixelCount == 0 {
                    stable = window
                }
                previous = window
            }
            live = try #require(stable, "the window never stopped changing")
            #expect(demo.quit() == 0, "\(demo.process.transcript)")
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

    /// `damask-demo --record` under a nested Weston, whose input is waited for in Weston's
    /// protocol log and whose reactions in its damage log.
    ///
    /// Owns the demo's ``TestProcess``. Use from one test.
    final class LiveDemo {
        let process: TestProcess
        private let weston: PrivateCompositor
        private let damageLog: String

        init(recording: String, weston: PrivateCompositor, directory: String) throws {
            self.weston = weston
            damageLog = (directory as NSString).appendingPathComponent("live-damage.jsonl")
            process = try TestProcess(
                DemoRun.executable, ["--record", recording, "--damage-log", damageLog],
                environment: DemoRun.environment(weston.clientEnvironment))
            // Mapped: the first frame is committed.
            try #require(waitForCommits(beyond: 0), "the demo never committed: \(process.transcript)")
        }

        /// The commits in the damage log so far.
        var commitCount: Int {
            ((try? String(contentsOfFile: damageLog, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        /// Waits until the damage log has more than `count` commits.
        func waitForCommits(beyond count: Int, timeout: TimeInterval = 20) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while commitCount <= count && Date() < deadline && process.isRunning { usleep(10_000) }
            return commitCount > count
        }

        /// Clicks button 1 where the pointer is; returns once Weston has sent the press and
        /// the release and the demo has committed its answer.
        func click(on display: XvfbDisplay) throws {
            let (buttons, commits) = (weston.logLines(containing: ".button(").count, commitCount)
            try display.xdotool("click", "1")
            let sent = weston.waitForLogLines(containing: ".button(") { $0.count >= buttons + 2 }
            try #require(sent.count >= buttons + 2, "Weston did not send the click")
            try #require(waitForCommits(beyond: commits), "the demo did not answer the click")
        }

        /// Presses and releases `key`; returns once Weston has sent both and the demo has
        /// committed its answer.
        func press(_ key: String, on display: XvfbDisplay) throws {
            let (keys, commits) = (weston.logLines(containing: "wl_keyboard@").filter { $0.contains(".key(") }.count, commitCount)
            try display.xdotool("key", key)
            weston.waitForLogLines(containing: "wl_keyboard@") { $0.filter { $0.contains(".key(") }.count >= keys + 2 }
            try #require(waitForCommits(beyond: commits), "the demo did not answer \(key)")
        }

        /// Ends the demo as a user's SIGTERM would (it writes the recording); its status.
        func quit() -> Int32? {
            process.signalGroup(SIGTERM)
            return process.waitForExit(timeout: 20)
        }
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
    static func locateContent(in weston: PrivateCompositor, directory: String) throws -> (x: Int, y: Int)? {
        let path = (directory as NSString).appendingPathComponent("screen.png")
        // Retried until the window is on the screen (mapped and composited).
        for _ in 0..<50 {
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

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskWayland

/// `--record`: real input from a seat (Weston nested in Xvfb, driven by xdotool) becomes a
/// script that `--play` replays.
@Suite("damask-demo --record", .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoRecordTests {
    @Test("a click recorded from the seat replays to the same scene")
    func recordedClickReplays() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = (directory as NSString).appendingPathComponent("recorded.damask")

        let live = try DemoOnSeat(arguments: ["--record", recording], directory: directory)
        // The sidebar's third row (Paths) is at content point (90, 154). Enter from outside.
        try live.move(toScreen: 0, 0)
        try live.move(to: 90, 154)
        try live.click()
        #expect(live.quit() == 0, "\(live.process.transcript)")

        let script = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(script.contains("scene progress\n"))
        #expect(script.contains("click 90 154"), "content at \(live.origin): \(script)")

        // Replayed headless, the click shows the paths scene (its star is yellow).
        let run = try DemoRun.run(
            DemoHeadlessTests.fast, script: script + "\nexpect pixel 614 300 #ffcc00\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("a sequence recorded from the seat replays under a fresh Weston to the same window pixels")
    func recordedSequenceReplaysToTheSamePixels() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = (directory as NSString).appendingPathComponent("recorded.damask")

        // Record: real X input through Weston's seat into the demo.
        let live: Bitmap
        do {
            let demo = try DemoOnSeat(arguments: ["--record", recording], directory: directory)
            func click(_ x: Int, _ y: Int) throws {
                try demo.move(to: x, y)
                // Input timing, not a wait: presses closer than the double-click interval
                // would be one double click.
                usleep((ClickCounter().interval + 100) * 1000)
                try demo.click()
            }
            try demo.move(toScreen: 0, 0)
            try click(90, 154)   // sidebar: Paths
            try click(90, 82)    // sidebar: Progress
            try click(364, 127)  // + 5%
            try click(364, 127)  // + 5%
            try demo.press("Right")
            // Off the button onto the scene's background (recorded as a move, so the replay
            // leaves the button unlit too), then out of the window. The window's pixels are
            // final once two screenshots in a row agree.
            let commits = demo.commitCount
            try demo.move(to: 500, 450)
            #expect(demo.waitForCommits(beyond: commits), "the button did not go dark as the pointer left it")
            let leaves = demo.weston.logLines(containing: ".leave(").count
            try demo.move(toScreen: 0, 0)
            demo.weston.waitForLogLines(containing: ".leave(") { $0.count > leaves }
            var previous: Bitmap?
            var stable: Bitmap?
            for _ in 0..<20 where stable == nil {
                let window = try demo.content(of: try demo.screenshot())
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
            ["--speed", "realtime"], script: script + "\nwait idle\nscreenshot \(replayed)\n",
            environment: weston.clientEnvironment, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let difference = Bitmap.difference(live, try Bitmap(contentsOfPNGFile: replayed), tolerance: 0)
        #expect(difference.differingPixelCount == 0, "replayed window differs from the live one in \(difference.differingPixelCount) pixels; script:\n\(script)")
    }
}

import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

@MainActor
@Suite("Determinism", .exclusive, .timeLimit(.minutes(5)))
struct DeterminismTests {
    static let script = """
        click 20 20
        type "Hello"
        drag 12 12 45 45 steps 3
        wait 100ms
        click 20 20 double
        scroll 0 2
        screenshot shot.png
        key ctrl+a
        wait frames 2
        wait idle
        """

    /// Plays the script on a fresh window; returns the screenshot's bytes, the commits with
    /// their CPU time removed, and the key events the text view received.
    private func play(in directory: String) async throws -> Run {
        let fixture = PlaybackFixture()
        var ticks: [UInt32] = []
        let link = DisplayLink(window: fixture.window) { link, timestamp in
            ticks.append(timestamp)
            fixture.textView.setNeedsDisplay()
            if ticks.count == 20 { link.isPaused = true }
        }
        defer { link.invalidate() }
        let script = try ScriptParser().parse(Self.script, file: "d.dsc", baseDirectory: directory)
        let report = try await ScriptPlayer(window: fixture.window).play(script)
        #expect(report.succeeded)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/shot.png")))
        let commits = report.commits.map { commit -> CommitReport in
            var commit = commit
            commit.cpuMilliseconds = 0
            return commit
        }
        #expect(ticks.count == 20)
        return Run(screenshot: bytes, commits: commits, events: fixture.textView.events)
    }

    @Test("the same script three times gives identical screenshots, commits and events")
    func sameScriptThreeTimes() async throws {
        // No warm-up and no majority vote: what a window learns while drawing (which view
        // kinds do not draw) is kept per window, and an explicit transaction holds back
        // only the windows it changed, so every run starts from the same state.
        var runs: [Run] = []
        for _ in 0..<3 {
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            runs.append(try await play(in: directory))
        }
        let first = try #require(runs.first)
        #expect(first.commits.count > 3)
        #expect(first.events.count == 16)
        #expect(!first.screenshot.isEmpty)
        for (index, run) in runs.enumerated().dropFirst() {
            #expect(run.commits == first.commits, "run \(index + 1): \(run.commits.count) commits, run 1: \(first.commits.count)")
            #expect(run.events == first.events, "run \(index + 1)'s key events differ from run 1's")
            #expect(run.screenshot == first.screenshot, "run \(index + 1)'s screenshot differs from run 1's")
        }
    }
}

/// What one run of the script produced.
private struct Run: Equatable {
    var screenshot: [UInt8]
    var commits: [CommitReport]
    var events: [KeyEvent]
}

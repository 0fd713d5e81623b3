import DamaskGraphics
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

@MainActor
@Suite("Determinism")
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

    @Test("the same script twice gives identical screenshots, commits and events")
    func sameScriptTwice() async throws {
        // DamaskViews caches per process which view classes do not draw; the first window of
        // the process discovers that (and counts one extra draw), so warm the cache up first.
        _ = try await PlaybackFixture().play("wait idle")
        // Transactions are process-wide: a test elsewhere in this process that holds one open
        // across awaits, or calls Transaction.flush(), regroups the commits of whatever window
        // is playing at that moment. So a third run settles a disagreement: two of three runs
        // must be identical.
        var runs: [Run] = []
        for _ in 0..<3 {
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await play(in: directory)
            if runs.contains(run) {
                #expect(run.commits.count > 3)
                #expect(run.events.count == 16)
                #expect(!run.screenshot.isEmpty)
                return
            }
            runs.append(run)
        }
        Issue.record("three runs of the same script all differ: \(runs.map(\.commits.count)) commits")
    }
}

/// What one run of the script produced.
private struct Run: Equatable {
    var screenshot: [UInt8]
    var commits: [CommitReport]
    var events: [KeyEvent]
}

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

    /// Plays the script on a fresh window; returns the screenshot bytes and the commits with
    /// their timing removed.
    private func run(in directory: String) async throws -> ([UInt8], [CommitReport], [KeyEvent]) {
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
        return (bytes, commits, fixture.textView.events)
    }

    @Test("the same script twice gives identical screenshots, commits and events")
    func sameScriptTwice() async throws {
        let first = try makeTemporaryDirectory()
        let second = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        // DamaskViews caches per process which view classes do not draw; the first window of
        // the process discovers that (and counts one extra draw), so warm the cache up first.
        _ = try await PlaybackFixture().play("wait idle")
        let a = try await run(in: first)
        let b = try await run(in: second)
        #expect(a.0 == b.0)
        #expect(a.1 == b.1)
        #expect(a.2 == b.2)
        #expect(a.1.count > 3)
        #expect(a.2.count == 16)
    }
}

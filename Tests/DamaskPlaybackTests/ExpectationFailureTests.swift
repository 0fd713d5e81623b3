import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

@MainActor
@Suite("Failing expectations", .exclusive, .timeLimit(.minutes(5)))
struct ExpectationFailureTests {
    @Test("failed checks report line, expected and actual")
    func failuresReportLineExpectedActual() async throws {
        let fixture = PlaybackFixture()
        var options = PlaybackOptions()
        options.stopsAtFirstFailure = false
        let report = try await fixture.play(
            """
            click 20 20
            expect pixel 20 20 #00ff00 ±4
            expect draws 5
            expect pixel 20 20 #fe0101 ±1
            expect no-damage
            click 20 20
            expect damage within 0 0 5 5
            click 20 20
            expect damage exactly 10 10 40 20
            expect pixel 500 5 #000000
            """, options: options)
        #expect(
            report.failures.map(\.description) == [
                "play.dsc:2:1: expectation failed: expect pixel 20 20 #00ff00 ±4: expected #00ff00 ±4, actual #ff0000",
                "play.dsc:3:1: expectation failed: expect draws 5: expected 5 draws, actual 1 draws",
                "play.dsc:5:1: expectation failed: expect no-damage: expected no damage, actual damage 10 10 40 40 px",
                "play.dsc:7:1: expectation failed: expect damage within 0 0 5 5: expected damage within 0 0 5 5 px, actual damage 10 10 40 40 px, outside: 10 10 40 40 px",
                "play.dsc:9:1: expectation failed: expect damage exactly 10 10 40 20: expected damage exactly 10 10 40 20 px, actual damage 10 10 40 40 px, outside: 10 30 40 20 px",
                "play.dsc:10:1: expectation failed: expect pixel 500 5 #000000: expected #000000, actual pixel 500,5 outside the 100x80 buffer",
            ])
        #expect(report.commandCount == 10)
        #expect(!report.succeeded)
    }

    @Test("playback stops at the first failure by default")
    func stopsAtFirstFailure() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play("expect draws 3\nclick 20 20")
        #expect(report.failures.count == 1)
        #expect(report.commandCount == 1)
        #expect(fixture.toggle.isOn == false)
    }

    @Test("a failed image check writes the actual and difference PNGs and names them")
    func imageFailureWritesPNGs() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let white = try Bitmap(width: 100, height: 80)
        white.fill(.white)
        try white.writePNG(to: directory + "/white.png")

        let fixture = PlaybackFixture()
        var options = PlaybackOptions()
        options.artifactsDirectory = directory + "/artifacts"
        let script = try ScriptParser().parse(
            "expect image white.png ±2", file: "shots.dsc", baseDirectory: directory)
        let report = try await ScriptPlayer(window: fixture.window, options: options).play(script)

        let failure = try #require(report.failures.first)
        let actualPath = directory + "/artifacts/shots-line1-actual.png"
        let differencePath = directory + "/artifacts/shots-line1-difference.png"
        #expect(failure.actualImagePath == actualPath)
        #expect(failure.differenceImagePath == differencePath)
        #expect(failure.actual == "1600 pixels differ (largest channel difference 255)")
        #expect(failure.description.hasSuffix(
            "; actual image: \(actualPath); difference image: \(differencePath)"))
        let actual = try Bitmap(contentsOfPNGFile: actualPath)
        #expect(actual.width == 100 && actual.height == 80)
        #expect(PixelColor(argb32: actual.pixel(x: 20, y: 20)) == PixelColor(red: 0, green: 0, blue: 255))
        #expect(FileManager.default.fileExists(atPath: differencePath))
    }

    @Test("a matching image check passes and a screenshot is that image")
    func screenshotMatchesImageCheck() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = PlaybackFixture()
        let script = try ScriptParser().parse(
            "click 20 20\nscreenshot out/shot.png", file: "a.dsc", baseDirectory: directory)
        let report = try await ScriptPlayer(window: first.window).play(script)
        #expect(report.screenshots == [directory + "/out/shot.png"])

        let second = PlaybackFixture()
        let check = try ScriptParser().parse(
            "click 20 20\nexpect image out/shot.png", file: "b.dsc", baseDirectory: directory)
        let checked = try await ScriptPlayer(window: second.window).play(check)
        #expect(checked.failures.map(\.description) == [])
    }
}

import DamaskTestSupport
import DamaskGraphics
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

/// What playback writes (screenshots, failure images) and how long its waits may take.
@MainActor
@Suite("Playback outputs and timeouts", .exclusive, .timeLimit(.minutes(5)))
struct PlaybackOutputTests {
    /// A script in `directory` whose image check fails (the reference is white).
    func failingImageScript(in directory: String) throws -> Script {
        let white = try Bitmap(width: 100, height: 80)
        white.fill(.white)
        try white.writePNG(to: directory + "/white.png")
        return try ScriptParser().parse("expect image white.png", file: "shots.dsc", baseDirectory: directory)
    }

    @Test("Failure images go into a private mkdtemp directory (0700), not a predictable shared path")
    func failureImagesGoToAPrivateDirectory() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try failingImageScript(in: directory)
        let player = ScriptPlayer(window: PlaybackFixture().window)
        let report = try await player.play(script)
        let failure = try #require(report.failures.first)
        let privateDirectory = try #require(player.privateArtifactsDirectory)
        defer { try? FileManager.default.removeItem(atPath: privateDirectory) }
        #expect(privateDirectory.hasPrefix(FileManager.default.temporaryDirectory.path + "/damask-playback-"))
        #expect(privateDirectory != FileManager.default.temporaryDirectory.path + "/damask-playback")
        #expect(failure.actualImagePath == privateDirectory + "/shots-line1-actual.png")
        var status = stat()
        #expect(stat(privateDirectory, &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(FileManager.default.fileExists(atPath: privateDirectory + "/shots-line1-difference.png"))
    }

    @Test("A symlink planted where a failure image goes is not followed: its target is untouched")
    func plantedSymlinkIsNotFollowed() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try failingImageScript(in: directory)
        let artifacts = directory + "/shared"
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let victim = directory + "/victim"
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: artifacts + "/shots-line1-actual.png", withDestinationPath: victim)
        var options = PlaybackOptions()
        options.artifactsDirectory = artifacts
        await #expect {
            _ = try await ScriptPlayer(window: PlaybackFixture().window, options: options).play(script)
        } throws: { error in
            (error as? PlaybackError)?.description
                == "shots.dsc:1:1: error: cannot write the actual image to '\(artifacts)/shots-line1-actual.png': it is a symbolic link (give the path it points to)"
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test("A screenshot over the script or a reference image is refused; both stay intact")
    func screenshotOverAnInputIsRefused() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scriptPath = directory + "/play.dsc"
        let text = "screenshot play.dsc\n"
        try text.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let script = try ScriptParser().parse(contentsOfFile: scriptPath)
        await #expect {
            _ = try await ScriptPlayer(window: PlaybackFixture().window).play(script)
        } throws: { error in
            (error as? PlaybackError)?.description.contains(
                "cannot write the screenshot to '\(scriptPath)': it is the input '\(scriptPath)', which would be destroyed") == true
        }
        #expect(try String(contentsOfFile: scriptPath, encoding: .utf8) == text)
    }

    @Test("A skipped wait 1000000ms on an endless animation stops at the timeout instead of firing 62,500 frames")
    func skippedLongWaitIsBoundedByTheTimeout() async throws {
        let fixture = PlaybackFixture()
        let link = DisplayLink(window: fixture.window) { _, _ in fixture.toggle.setNeedsDisplay() }
        defer { link.invalidate() }
        var options = PlaybackOptions()
        options.timeout = .milliseconds(300)
        // The error (the 0.3 s timeout fired) and the frames fired are the check, not the
        // wall clock: a loaded parallel `swift test` stretched the run to 5.4 s.
        await #expect {
            _ = try await fixture.play("move 1 1\nwait 1000000ms", options: options)
        } throws: { error in
            (error as? PlaybackError)?.description
                == "play.dsc:2:1: error: timed out after 0.3 seconds skipping 1000000 ms of frames"
        }
        #expect(fixture.surface.framesFired < 62_500)
    }

    @Test("wait frames N is bounded as a whole by the timeout, not per frame")
    func waitFramesIsBoundedAsAWhole() async throws {
        // A real-time clock brings a frame every 50 ms: 100 frames take 5 s, each well
        // within a 400 ms per-frame limit, but the whole wait is over it.
        let fixture = PlaybackFixture(frameClock: .realTime(intervalMilliseconds: 50))
        let link = DisplayLink(window: fixture.window) { _, _ in fixture.toggle.setNeedsDisplay() }
        defer { link.invalidate() }
        var options = PlaybackOptions()
        options.timeout = .milliseconds(400)
        var presented: Int?
        await #expect {
            _ = try await fixture.play("move 1 1\nwait frames 100", options: options)
        } throws: { error in
            guard let description = (error as? PlaybackError)?.description,
                let match = description.wholeMatch(
                    of: #/play\.dsc:2:1: error: timed out after 0\.4 seconds waiting for a frame \(frames presented: (\d+), display passes: \1\)/#)
            else { return false }
            presented = Int(match.1)
            return true
        }
        // Bounded per frame, the wait would see all 100 frames (each 50 ms apart) and end
        // without an error; bounded as a whole, it stops after about 8. Counted in frames,
        // not wall-clock time, which a loaded machine stretches (the main actor is shared
        // with every test running alongside).
        #expect((presented ?? .max) < 50, "\(presented.map(String.init) ?? "no count") frames presented before the timeout")
    }
}

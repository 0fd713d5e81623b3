import DamaskTestSupport
import Foundation
import Testing

/// The demo against hostile files and failed writes (no compositor needed: `--headless`, or
/// checks that end before connecting): bounded memory, outputs that never destroy inputs,
/// failed writes that end with the documented message and status, clear messages.
@Suite("damask-demo reliability", .exclusive, .timeLimit(.minutes(5)))
struct DemoReliabilityTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")

    /// A fresh private directory for one test.
    func makeDirectory() throws -> String {
        try HostileCompositor.makeTemporaryDirectory(prefix: "damask-demo-reliability")
    }

    /// The environment for a headless run (no compositor is ever reached).
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "damask-no-such-socket-\(getpid())"
        environment.removeValue(forKey: "WAYLAND_SOCKET")
        return environment
    }

    /// Runs `command` with /bin/sh (for redirections the runner cannot express).
    func shell(_ command: String, timeout: TimeInterval = 120) throws -> (status: Int32, output: String, reason: Process.TerminationReason) {
        try PrivateCompositor.run("/bin/sh", ["-c", command], environment: environment, timeout: timeout)
    }

    @Test(
        "Headless playback of 600 animated frames keeps resident memory bounded (no per-frame copies)",
        .disabled(
            if: ProcessInfo.processInfo.environment["DAMASK_SANITIZER"] != nil,
            "a sanitizer's shadow memory and quarantine make resident size meaningless; the plain pass runs it"))
    func headlessAnimationMemoryIsBounded() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/animate.damask"
        try "scene progress\nkey space\nwait frames 600\n".write(toFile: script, atomically: true, encoding: .utf8)
        let demo = try ClientProcess(
            Self.demo, ["--headless", "--speed", "fast", "--play", script], environment: environment)
        // VmHWM only grows: the last sample before the exit is the run's peak, near enough
        // (history kept per frame would grow to the very end).
        var peak = 0
        let deadline = Date().addingTimeInterval(120)
        while demo.process.isRunning && Date() < deadline {
            // The demo may exit between the check and the read, or be a zombie whose status
            // has no VmHWM: such a read (`.max`) is no sample. At least one real sample is
            // required below (`peak > 0`).
            let sample = HostileCompositor.peakResidentBytes(of: demo.process.processIdentifier)
            if sample != .max { peak = max(peak, sample) }
            usleep(10_000)
        }
        #expect(demo.waitForExit(timeout: 5) == 0, "\(demo.standardError)")
        #expect(peak > 0 && peak < 400 << 20, "peak RSS \(peak >> 20) MiB (600 frames at 1.9 MB each would be 1.1 GB)")
    }

    @Test("--damage-log naming the script being played is refused (exit 2) and the script survives")
    func damageLogOverTheScriptIsRefused() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/play.damask"
        let text = "scene progress\nwait frames 1\n"
        try text.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try PrivateCompositor.run(
            Self.demo.path, ["--headless", "--speed", "fast", "--play", script, "--damage-log", script],
            environment: environment)
        #expect(result.status == 2)
        #expect(result.output.contains("cannot write the damage log to '\(script)': it is the input '\(script)', which would be destroyed"), "\(result.output)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == text)
    }

    @Test("--record through a planted symbolic link is refused before connecting; the link's target survives")
    func recordThroughASymlinkIsRefused() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = directory + "/session.damask"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let result = try PrivateCompositor.run(Self.demo.path, ["--record", link], environment: environment)
        #expect(result.status == 2)
        #expect(result.output.contains("cannot write the recording to '\(link)': it is a symbolic link"), "\(result.output)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test("--damage-log /dev/null works as any user and leaves /dev/null a device")
    func damageLogToDevNullWorks() throws {
        let result = try PrivateCompositor.run(
            Self.demo.path, ["--headless", "--speed", "fast", "--play", DemoRun.tourPath, "--damage-log", "/dev/null"],
            environment: environment)
        #expect(result.status == 0, "\(result.output)")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("A damage log on a full disk (/dev/full): the documented message, exit 1, no signal")
    func damageLogOnAFullDiskEndsWithTheMessage() throws {
        let result = try PrivateCompositor.run(
            Self.demo.path, ["--headless", "--speed", "fast", "--play", DemoRun.tourPath, "--damage-log", "/dev/full"],
            environment: environment)
        #expect(result.reason == .exit)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("damask-demo: cannot write the damage log to '/dev/full': No space left on device"), "\(result.output)")
    }

    @Test("Errors with stderr on /dev/full or closed still end with their status, never a signal", arguments: ["2>/dev/full", "2>&-"])
    func errorsWithABrokenStderrEndWithTheirStatus(redirection: String) throws {
        let demo = Self.demo.path
        let usage = try shell("'\(demo)' --no-such-option \(redirection); echo \"status $?\"")
        #expect(usage.output.contains("status 2"), "\(usage.output)")
        let full = try shell(
            "'\(demo)' --headless --speed fast --play '\(DemoRun.tourPath)' --damage-log /dev/full \(redirection); echo \"status $?\"")
        #expect(full.output.contains("status 1"), "\(full.output)")
    }

    @Test("A screenshot that cannot be written names the line, the file and the reason (no :0:0, no Foundation dump)")
    func screenshotFailureIsWordedClearly() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shots = directory + "/shots"
        try FileManager.default.createDirectory(atPath: shots + "/progress.png", withIntermediateDirectories: true)
        let script = directory + "/sc.damask"
        try "scene progress\nwait frames 1\nscene paths\n".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try PrivateCompositor.run(
            Self.demo.path, ["--headless", "--speed", "fast", "--play", script, "--screenshots", shots],
            environment: environment)
        #expect(result.status == 1)
        #expect(result.output.contains(
            "damask-demo: \(script):3:1: error: cannot write the screenshot of scene 'progress' to '\(shots)/progress.png': it is a directory"),
            "\(result.output)")
        #expect(!result.output.contains(":0:0"))
        #expect(!result.output.contains("NSCocoaErrorDomain"))
    }

    @Test("A --sequence that cannot be used is reported on stderr: missing, a directory, over the size limit")
    func sequenceFailuresReachStandardError() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let big = directory + "/big.fa"
        #expect(truncate(big, 0) == -1)  // does not exist yet
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 65 << 20) == 0)  // sparse: 65 MiB without using the disk
        let script = directory + "/seq.damask"
        try "scene chromosome\nwait idle\n".write(toFile: script, atomically: true, encoding: .utf8)
        let cases = [
            (directory + "/missing.fa", "cannot read the sequence file '\(directory)/missing.fa': No such file or directory"),
            (directory, "cannot read the sequence file '\(directory)': it is a directory"),
            (big, "the sequence file '\(big)' is larger than 64 MiB"),
        ]
        for (path, message) in cases {
            let started = Date()
            let result = try PrivateCompositor.run(
                Self.demo.path, ["--headless", "--speed", "fast", "--play", script, "--sequence", path],
                environment: environment)
            #expect(result.output.contains("damask-demo: \(message)"), "\(result.output)")
            #expect(Date().timeIntervalSince(started) < WallClockBound.seconds(30))
        }
    }
}

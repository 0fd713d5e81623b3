import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's command line: help, usage errors and `--play` exit statuses.
@Suite("damask-demo command line", .exclusive, .timeLimit(.minutes(5)))
struct DemoCommandLineTests {
    @Test("--help lists every option on a line of its own and exits 0")
    func helpListsEveryOption() throws {
        let result = try DemoRun.runPlain(["--help"])
        #expect(result.status == 0)
        let options = [
            "--size", "--scene", "--headless", "--scale", "--play", "--stay", "--speed", "--timeout", "--record",
            "--damage-log", "--sequence", "--keymap", "--screenshots", "--snapshot", "--appearance",
            "--caret-blink", "--help",
        ]
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for option in options {
            #expect(lines.contains { $0.hasPrefix(option + " ") || $0 == option }, "\(option) missing")
        }
    }

    @Test("--help says which font draws each language of the text scene on this machine")
    func helpNamesTheFallbackFonts() throws {
        let result = try DemoRun.runPlain(["--help"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // The fonts scripts/setup installs.
        // Chinese: NanumGothic has these Hanja; WenQuanYi Micro Hei takes the ones it lacks.
        let expected = [
            "Korean": ["NanumGothic"], "Chinese": ["NanumGothic", "WenQuanYi Micro Hei"], "Bengali": ["Lohit Bengali"],
            "Arabic": ["DejaVu Sans"], "Hebrew": ["DejaVu Sans"], "Emoji": ["Noto Color Emoji"],
        ]
        for (language, faces) in expected {
            let line = lines.first { $0.hasPrefix(language + ": ") }
            #expect(faces.contains { line?.contains($0) == true }, "\(language): \(line ?? "missing")")
            #expect(line?.contains("boxes") == false, "\(language): \(line ?? "missing")")
        }
    }

    @Test("under a Traditional Chinese locale --help says the Chinese sentence is drawn in the Chinese font, as Pango would")
    func helpFollowsAChineseLocaleForHan() throws {
        var environment = DemoRun.environment(nil)
        environment["WAYLAND_DISPLAY"] = nil
        environment["LC_ALL"] = nil
        environment["LC_CTYPE"] = nil
        environment["LANG"] = "zh_TW.UTF-8"
        let result = try TestProcess.run(DemoRun.executable, ["--help"], environment: environment)
        #expect(result.status == 0)
        let chinese = result.output.split(separator: "\n").first { $0.contains("Chinese: ") }.map(String.init) ?? ""
        #expect(chinese.contains("WenQuanYi Micro Hei") && !chinese.contains("NanumGothic"), "\(chinese)")
    }

    @Test("with no font for Bengali (a fontconfig that only knows DejaVu) --help says Bengali is drawn as boxes and names the package")
    func helpNamesMissingFonts() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = (directory as NSString).appendingPathComponent("fonts.conf")
        try """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>
              <dir>/usr/share/fonts/truetype/dejavu</dir>
              <cachedir>\(directory)/cache</cachedir>
            </fontconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        var environment = DemoRun.environment(nil)
        environment["WAYLAND_DISPLAY"] = nil
        environment["FONTCONFIG_FILE"] = config
        let result = try TestProcess.run(DemoRun.executable, ["--help"], environment: environment)
        #expect(result.status == 0)
        let bengali = result.output.split(separator: "\n").first { $0.contains("Bengali: ") }.map(String.init) ?? ""
        #expect(bengali.contains("drawn as boxes") && bengali.contains("fonts-lohit-beng-bengali"), "\(bengali)")
        let emoji = result.output.split(separator: "\n").first { $0.contains("Emoji: ") }.map(String.init) ?? ""
        #expect(emoji.contains("drawn as boxes") && emoji.contains("fonts-noto-color-emoji"), "\(emoji)")
    }

    @Test("an unknown option exits 2 and names it")
    func unknownOptionExitsTwo() throws {
        let result = try DemoRun.runPlain(["--headless", "--frobnicate"])
        #expect(result.status == 2)
        #expect(result.output.contains("'--frobnicate'"))
    }

    @Test("--caret-blink takes on or off; anything else exits 2 naming the value")
    func caretBlinkValueIsChecked() throws {
        let bad = try DemoRun.runPlain(["--headless", "--caret-blink", "sometimes"])
        #expect(bad.status == 2)
        #expect(bad.output.contains("--caret-blink expects on or off, got 'sometimes'"), "\(bad.output)")
        let missing = try DemoRun.runPlain(["--headless", "--caret-blink"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("--caret-blink needs a value"), "\(missing.output)")
    }

    @Test("--timeout takes seconds above 0: anything else exits 2 naming the value; a failing expect text gives up after it")
    func timeoutBoundsAFailingTextCheck() throws {
        for value in ["0", "-1", "soon", "4000"] {
            let bad = try DemoRun.runPlain(["--headless", "--timeout", value])
            #expect(bad.status == 2)
            #expect(bad.output.contains("--timeout expects seconds above 0 and at most 3600, got '\(value)'"), "\(bad.output)")
        }
        // `expect text` looks again until it holds; with --timeout 0.5 it fails after half
        // a second instead of the default 20.
        let started = ContinuousClock.now
        let run = try DemoRun.run(
            ["--headless", "--speed", "fast", "--timeout", "0.5"],
            script: "scene text\nclick 300 180\ntype \"abc\"\nexpect text \"abd\"\n")
        defer { run.removeDirectory() }
        #expect(run.status == 1)
        #expect(run.output.contains(#"script.damask:4:1: expectation failed: expect text "abd": expected "abd", actual "abc""#), "\(run.output)")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("an unknown scene exits 2 and lists the scenes")
    func unknownSceneExitsTwo() throws {
        let result = try DemoRun.runPlain(["--headless", "--scene", "teapot"])
        #expect(result.status == 2)
        #expect(result.output.contains("'teapot'"))
        #expect(result.output.contains("progress, chromosome, paths, layers, canvas, content-mode, text, motion"))
    }

    @Test("a script error exits 2 with its file, line and column, before any window opens")
    func scriptErrorExitsTwo() throws {
        let run = try DemoRun.run(["--headless", "--speed", "fast"], script: "scene progress\nscene teapot\n")
        defer { run.removeDirectory() }
        #expect(run.status == 2)
        #expect(run.output.contains("script.damask:2:7: error: unknown scene 'teapot'"), "\(run.output)")
        #expect(run.commits.isEmpty)
    }

    @Test("a failed expectation exits 1 and names its line")
    func failedExpectationExitsOne() throws {
        let script = "scene paths\nexpect pixel 614 300 #ffcc00\nexpect pixel 614 300 #00ff00\n"
        let run = try DemoRun.run(["--headless", "--speed", "fast"], script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 1)
        #expect(run.output.contains("script.damask:3:1: expectation failed: expect pixel 614 300 #00ff00"), "\(run.output)")
        #expect(!run.output.contains(":2:1: expectation failed"))
    }

    @Test("a script whose expectations hold exits 0")
    func passingScriptExitsZero() throws {
        let run = try DemoRun.run(["--headless", "--speed", "fast"], script: "scene layers\nexpect pixel 297 257 #0000ff\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }
}

/// `--record` needs a seat.
@Suite("damask-demo --record command line", .exclusive, .timeLimit(.minutes(5)))
struct DemoRecordCommandLineTests {
    @Test("--record with --headless exits 2: there is no seat to record")
    func recordNeedsACompositor() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-record-\(UUID().uuidString).damask").path
        let result = try DemoRun.runPlain(["--headless", "--record", path])
        #expect(result.status == 2)
        #expect(result.output.contains("--record"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// `--snapshot FILE`: SIGUSR1 writes the presented frame; a path that cannot be written is
/// refused before any window opens.
@Suite("damask-demo --snapshot", .exclusive, .timeLimit(.minutes(5)))
struct DemoSnapshotTests {
    @Test("SIGUSR1 writes the presented frame as PNG (headless: the window's pixels), says so, and the demo runs on")
    func signalWritesTheFrame() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("frame.png")
        let log = (directory as NSString).appendingPathComponent("damage.jsonl")
        let process = try TestProcess(
            DemoRun.executable, ["--headless", "--scene", "paths", "--snapshot", path, "--damage-log", log],
            environment: DemoRun.environment(nil), mergingErrors: true)
        defer { process.kill() }
        // Up (the signal is handled) once the first frame is committed.
        let deadline = Date().addingTimeInterval(20)
        var committed = false
        while !committed && Date() < deadline && process.isRunning {
            // The file's size, not its text: Foundation's read of an empty file leaks its buffer
            // (LeakSanitizer sees it in the sanitizer pass).
            var status = stat()
            committed = stat(log, &status) == 0 && status.st_size > 0
            if !committed { usleep(20_000) }
        }
        try #require(committed, "no first commit: \(process.transcript.suffix(400))")
        for round in 1...2 {
            kill(process.processIdentifier, SIGUSR1)
            let written = process.waitUntil(timeout: 10) { lines in
                lines.count { $0 == "damask-demo: wrote snapshot \(path)" } >= round
            }
            try #require(written, "no snapshot: \(process.transcript.suffix(400))")
        }
        #expect(process.isRunning, "the demo ended after a snapshot")
        let bitmap = try Bitmap(contentsOfPNGFile: path)
        #expect(bitmap.width == 800 && bitmap.height == 600)
        #expect(bitmap.pixel(x: 2, y: 2) & 0xFF_FFFF == DemoOnSeat.sidebarColor, "the sidebar's corner")
        #expect(bitmap.pixel(x: 614, y: 300) & 0xFF_FFFF == 0xFFCC00, "the paths scene's star")
    }

    @Test("--snapshot naming a directory, or the --sequence input, exits 2 with the reason before any window opens")
    func unwritablePathsAreRefused() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try DemoRun.runPlain(["--headless", "--snapshot", directory])
        #expect(result.status == 2)
        #expect(result.output.contains("cannot write the snapshot to '\(directory)': it is a directory"), "\(result.output)")

        let sequence = (directory as NSString).appendingPathComponent("sample.fasta")
        try ">s\nACGT\n".write(toFile: sequence, atomically: true, encoding: .utf8)
        let input = try DemoRun.runPlain(["--headless", "--sequence", sequence, "--snapshot", sequence])
        #expect(input.status == 2)
        #expect(input.output.contains("it is the input"), "\(input.output)")
        #expect(try String(contentsOfFile: sequence, encoding: .utf8) == ">s\nACGT\n", "the input is intact")
    }
}

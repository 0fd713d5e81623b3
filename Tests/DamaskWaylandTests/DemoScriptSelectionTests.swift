import Foundation
import Testing

/// Input scripts' `expect text`, `expect clipboard` and `expect primary` played by the demo
/// on a real compositor: the selections another client (`wl-copy`) owns are read through
/// the compositor, what the script copies reaches other clients (`wl-paste`), and a check
/// that does not hold names its `file:line:col` and ends the demo with status 1.
///
/// The demo plays with `--stay`, so that it still owns what it copied when `wl-paste`
/// asks; the test waits for its "every expectation held" line, then stops it.
@Suite("Input-script text and selection checks under Weston and mutter", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoScriptSelectionTests {
    /// Types into the field, selects all with a triple click (the primary selection, where
    /// offered) and copies; the checks follow each step. `primary` adds the primary checks.
    static func script(primary: Bool) -> String {
        """
        scene text
        wait idle
        expect clipboard "from outside"
        \(primary ? #"expect primary "outside primary""# : "")
        click 300 180
        type "hello wide world"
        expect text "hello wide world"
        click 250 180 triple
        \(primary ? #"expect primary "hello wide world""# : "")
        key ctrl+c
        expect clipboard "hello wide world"

        """
    }

    /// Plays `script` in a demo with `--stay` in `environment`; returns the demo once it
    /// said every expectation held (or fails with what it printed).
    static func playAndStay(_ script: String, environment: [String: String], directory: String) throws -> TestProcess {
        let path = (directory as NSString).appendingPathComponent("script.damask")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let demo = try TestProcess(
            DemoRun.executable, ["--speed", "fast", "--stay", "--play", path],
            environment: DemoRun.environment(environment), mergingErrors: true)
        let held = demo.waitForLine(timeout: 90) { $0.contains("every expectation held") || $0.contains("expectation failed") }
        if held?.line.contains("every expectation held") != true {
            demo.kill()
            Issue.record("the script did not pass: \(demo.transcript)")
        }
        return demo
    }

    /// Waits up to 10 s for `paste` to print `expected`; returns the last output.
    static func pasted(_ expected: String, by paste: () throws -> TestProcess.Result) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = try paste()
        while (last.status != 0 || last.output != expected) && Date() < deadline {
            usleep(100_000)
            last = try paste()
        }
        return last.output
    }

    @Test("Weston: a script reads wl-copy's clipboard, checks the field's text and copies to wl-paste; expect primary fails with file:line:col")
    func scriptChecksUnderWeston() throws {
        let weston = try PrivateCompositor(.weston(seat: true))
        defer { weston.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copied = try WlClipboard.copy(["from outside"], environment: weston.clientEnvironment)
        try #require(copied.status == 0, "wl-copy: \(copied.output)")

        let demo = try Self.playAndStay(Self.script(primary: false), environment: weston.clientEnvironment, directory: directory)
        let clipboard = try Self.pasted("hello wide world") {
            try WlClipboard.paste(["--no-newline"], environment: weston.clientEnvironment)
        }
        #expect(clipboard == "hello wide world", "wl-paste after the script's Ctrl+C")
        demo.kill()

        // Weston 10 offers no primary selection: the check fails at once, with its place.
        let failing = try DemoRun.run(
            ["--speed", "fast"], script: "scene text\nwait idle\n  expect primary \"\"\n",
            environment: weston.clientEnvironment)
        defer { failing.removeDirectory() }
        #expect(failing.status == 1, "\(failing.output)")
        #expect(
            failing.output.contains(
                #"script.damask:3:3: expectation failed: expect primary "": expected "", actual no primary selection (the compositor offers none)"#),
            "\(failing.output)")
    }

    @Test("mutter: a script reads wl-copy's clipboard and primary selection, checks the field's text and its selections reach wl-paste; a wrong expect clipboard fails with file:line:col")
    func scriptChecksUnderMutter() throws {
        // DemoOnMutter's virtual keyboard gives windows keyboard focus, and with it the
        // selections; the script's own input goes through the window (no seat serials).
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for arguments in [["from outside"], ["--primary", "outside primary"]] {
            // The virtual keyboard reaches the seat a moment after its first key.
            var copied = try mutter.wlCopy(arguments)
            let deadline = Date().addingTimeInterval(10)
            while copied.status != 0 && copied.output.contains("no keyboard") && Date() < deadline {
                usleep(100_000)
                copied = try mutter.wlCopy(arguments)
            }
            try #require(copied.status == 0, "wl-copy \(arguments): \(copied.output)")
        }

        let demo = try Self.playAndStay(Self.script(primary: true), environment: mutter.environment, directory: directory)
        let primary = try Self.pasted("hello wide world") { try mutter.wlPaste(["--primary", "--no-newline"]) }
        #expect(primary == "hello wide world", "wl-paste --primary after the script's triple click")
        let clipboard = try Self.pasted("hello wide world") { try mutter.wlPaste(["--no-newline"]) }
        #expect(clipboard == "hello wide world", "wl-paste after the script's Ctrl+C")
        demo.kill()

        // The clipboard now holds the script's copy (mutter keeps a copy of it): a check for
        // another text fails, after the playback timeout (--timeout 2), with its place and
        // what it read.
        let failing = try DemoRun.run(
            ["--speed", "fast", "--timeout", "2"], script: "scene text\nwait idle\nexpect clipboard \"not it\"\n",
            environment: mutter.environment, timeout: 90)
        defer { failing.removeDirectory() }
        #expect(failing.status == 1, "\(failing.output)")
        #expect(
            failing.output.contains(
                #"script.damask:3:1: expectation failed: expect clipboard "not it": expected "not it", actual "hello wide world""#),
            "\(failing.output)")
    }
}

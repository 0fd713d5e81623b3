import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field over text-input-v3 under sway 1.7: the project's scripted
/// input-method-v2 input method plays exact sequences (hostile ones too), and Fcitx 5 types
/// Korean and Chinese end to end; the field's text is read back through the clipboard
/// (Ctrl+A, Ctrl+C in the demo, then `wl-paste`) and through the surrounding text the demo
/// reports to the input method.
@Suite("the demo's text field with input methods under sway", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct SwayTextInputTests {
    /// The demo on `sway` with its text field focused by its script (then it stays open),
    /// with WAYLAND_DEBUG=1 so that a test sees the text-input events it receives.
    static func startDemo(on sway: SwaySession, directory: String) throws -> WaylandDebugDemo {
        let script = (directory as NSString).appendingPathComponent("focus.damask")
        try "scene text\nwait idle\nclick 300 180\nwait idle\n".write(toFile: script, atomically: true, encoding: .utf8)
        return try WaylandDebugDemo(
            ["--speed", "fast", "--stay", "--play", script, "--snapshot", (directory as NSString).appendingPathComponent("frame.png")],
            environment: sway.clientEnvironment)
    }

    /// Selects all of the focused field's text and copies it (Ctrl+A, Ctrl+C through the
    /// virtual keyboard), then reads the clipboard with `wl-paste`.
    static func copiedText(_ keyboard: VirtualKeyboard, demo: WaylandDebugDemo, sway: SwaySession) throws -> String? {
        guard keyboard.type("", then: ["ctrl+a", "ctrl+c"]) else { return nil }
        guard demo.waitForSelectionTaken(on: "wl_data_device") else { return nil }
        let paste = try WlClipboard.paste(["--no-newline"], environment: sway.clientEnvironment)
        return paste.status == 0 ? paste.output : nil
    }

    /// Waits until the demo has received a text-input event containing `event` (or sent a
    /// text-input request containing it) and committed a frame after it, then writes its
    /// presented frame (`--snapshot`, SIGUSR1) and loads it.
    ///
    /// An event takes effect only at the `done` that follows it, and sway may send that `done`
    /// in a later write: a frame committed between the two still shows the state before. So
    /// for an event the frame counted is one committed after that `done`.
    static func snapshot(after event: String, demo: WaylandDebugDemo, directory: String) throws -> Bitmap? {
        var applied: Int?
        let drawn = demo.process.waitUntil(timeout: 20) { lines in
            if applied == nil, let received = lines.firstIndex(where: { $0.contains("zwp_text_input_v3@") && $0.contains(event) }) {
                applied = lines[received].contains(" -> ")
                    ? received
                    : lines[received...].firstIndex { $0.contains("zwp_text_input_v3@") && $0.contains(".done(") && !$0.contains(" -> ") }
            }
            guard let applied else { return false }
            return lines[(applied + 1)...].contains { $0.contains(" -> wl_surface@") && $0.hasSuffix(".commit()") }
        }
        guard drawn else { return nil }
        let path = (directory as NSString).appendingPathComponent("frame.png")
        let written = demo.process.lines.count { $0 == "damask-demo: wrote snapshot \(path)" }
        kill(demo.process.pid, SIGUSR1)
        guard demo.process.waitUntil(timeout: 20, { lines in lines.count { $0 == "damask-demo: wrote snapshot \(path)" } > written })
        else { return nil }
        return try Bitmap(contentsOfPNGFile: path)
    }

    /// The rows where `preedit` has a solid horizontal line of at least 8 pixels that
    /// `committed` does not have: the preedit's underline.
    static func underlineRows(preedit: Bitmap, committed: Bitmap) -> [Int] {
        guard preedit.width == committed.width && preedit.height == committed.height else { return [] }
        var rows: [Int] = []
        for y in 0..<preedit.height {
            var run = 0
            for x in 0..<preedit.width {
                let colour = preedit.pixel(x: x, y: y)
                let differs = colour != committed.pixel(x: x, y: y)
                run = differs && (run == 0 || colour == preedit.pixel(x: x - 1, y: y)) ? run + 1 : (differs ? 1 : 0)
                if run >= 8 {
                    rows.append(y)
                    break
                }
            }
        }
        return rows
    }

    @Test("a composition from the scripted input method: preedit inline, commits inserted, a deletion around the caret; surrounding text and clipboard agree")
    func scriptedComposition() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        let inputMethod = try ScriptedInputMethodV2(environment: sway.clientEnvironment)
        let demo = try Self.startDemo(on: sway, directory: directory)
        defer { demo.stop() }
        // The click focuses the field: it enables text-input-v3 and sway activates the input method.
        #expect(inputMethod.waitFor("activate"), "\(inputMethod.events)\n\(demo.process.transcript.suffix(1500))")
        #expect(inputMethod.waitForSurroundingText("", cursor: 0), "\(inputMethod.events)")
        #expect(inputMethod.events.contains("content_type 0 0"), "\(inputMethod.events)")

        #expect(inputMethod.play(["preedit 3 3 ㅎ"]))
        #expect(inputMethod.play(["preedit 3 3 하"]))
        #expect(inputMethod.play(["commit 한"]))
        #expect(inputMethod.waitForSurroundingText("한", cursor: 3),
            "\(inputMethod.events)\n\(demo.process.lines.filter { $0.contains("text_input") || $0.contains("keyboard@") }.joined(separator: "\n"))")
        #expect(inputMethod.play(["preedit 0 0 구"]))
        #expect(inputMethod.play(["commit 국"]))
        #expect(inputMethod.waitForSurroundingText("한국", cursor: 6), "\(inputMethod.events)")
        // Bytes before the caret: 국 is 3.
        #expect(inputMethod.play(["delete 3 0", "commit 글"]))
        #expect(inputMethod.waitForSurroundingText("한글", cursor: 6), "\(inputMethod.events)")
        // The demo received the preedit with its cursor as sent.
        #expect(!demo.process.lines.filter { $0.contains("zwp_text_input_v3@") && $0.contains(".preedit_string(\"하\", 3, 3)") }.isEmpty)
        #expect(try Self.copiedText(keyboard, demo: demo, sway: sway) == "한글")
        #expect(sway.isRunning && demo.process.isRunning)
    }

    @Test("a hostile input method: deletion far beyond the text, invalid UTF-8, a preedit far wider than the field, a commit after disable")
    func hostileSequence() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        let inputMethod = try ScriptedInputMethodV2(environment: sway.clientEnvironment)
        let demo = try Self.startDemo(on: sway, directory: directory)
        defer { demo.stop() }
        #expect(inputMethod.waitFor("activate"), "\(inputMethod.events)\n\(demo.process.transcript.suffix(1500))")
        #expect(inputMethod.waitForSurroundingText("", cursor: 0))

        #expect(inputMethod.play(["commit ab"]))
        #expect(inputMethod.waitForSurroundingText("ab", cursor: 2), "\(inputMethod.events)")
        // Far more than the text on both sides: clamped to what there is.
        #expect(inputMethod.play(["delete 1000 2000", "commit c"]))
        #expect(inputMethod.waitForSurroundingText("c", cursor: 1), "\(inputMethod.events)")
        // Not UTF-8: the commit is refused whole; the next one still arrives.
        #expect(inputMethod.play(["commit \\xff\\xfeX"]))
        #expect(inputMethod.play(["commit d"]))
        #expect(inputMethod.waitForSurroundingText("cd", cursor: 2), "\(inputMethod.events)")
        // 420 clusters of preedit, far wider than the field, then a commit that replaces it.
        let long = String(repeating: "가나다라마바사", count: 60)
        #expect(inputMethod.play(["preedit 0 0 \(long)"]))
        #expect(inputMethod.play(["commit 가"]))
        #expect(inputMethod.waitForSurroundingText("cd가", cursor: 5), "\(inputMethod.events)")
        #expect(try Self.copiedText(keyboard, demo: demo, sway: sway) == "cd가")

        // Escape ends editing: the demo disables text-input and sway deactivates the input
        // method. sway 1.7 still passes a commit sent after that on to the demo (the field
        // keeps keyboard focus): the demo must drop it, so its frame stays as it was.
        let received = demo.process.lines.count { $0.contains("zwp_text_input_v3@") && $0.contains(".commit_string(") }
        #expect(keyboard.type("", then: ["Escape"]))
        #expect(inputMethod.waitFor("deactivate"), "\(inputMethod.events)")
        let before = try #require(try Self.snapshot(after: ".disable()", demo: demo, directory: directory))
        #expect(inputMethod.play(["commit late"]))
        // sway handles the input method's requests before the key typed after them, and sends
        // the demo its events in that order: once the key is there, so is the commit.
        let keys = demo.keyEventCount
        #expect(keyboard.type("", then: ["Shift_L"]))
        #expect(demo.process.waitUntil(timeout: 20) { _ in demo.keyEventCount > keys })
        #expect(demo.process.lines.count { $0.contains("zwp_text_input_v3@") && $0.contains(".commit_string(") } == received + 1)
        let path = (directory as NSString).appendingPathComponent("frame.png")
        let written = demo.process.lines.count { $0 == "damask-demo: wrote snapshot \(path)" }
        kill(demo.process.pid, SIGUSR1)
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.count { $0 == "damask-demo: wrote snapshot \(path)" } > written })
        let after = try Bitmap(contentsOfPNGFile: path)
        #expect(after.width == before.width && after.height == before.height)
        let changed = (0..<min(after.height, before.height)).contains { y in
            (0..<min(after.width, before.width)).contains { x in after.pixel(x: x, y: y) != before.pixel(x: x, y: y) }
        }
        #expect(!changed, "the frame changed after a commit sent while text input was disabled")
        #expect(sway.isRunning && demo.process.isRunning)
    }

    @Test("Fcitx 5 (hangul) types 한국 into the demo's field from g k s r n r and space")
    func fcitxHangul() throws {
        let sway = try SwaySession(fcitx: "hangul")
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        let demo = try Self.startDemo(on: sway, directory: directory)
        defer { demo.stop() }
        #expect(sway.waitForFcitxGrab(), "\(sway.logTail)\n\(demo.process.transcript.suffix(1500))")
        #expect(keyboard.type("gksrnr"))
        // 한 committed, 국 in preedit; then Space commits 국 (and the space): the same glyphs,
        // so what the two frames differ in is the preedit's underline (and the caret, which
        // moved by a space: a vertical line, no horizontal run).
        let preedit = try #require(try Self.snapshot(after: ".preedit_string(\"국\"", demo: demo, directory: directory))
        #expect(keyboard.type("", then: ["space"]))
        let committed = try #require(try Self.snapshot(after: ".commit_string(\"국\")", demo: demo, directory: directory))
        let underline = Self.underlineRows(preedit: preedit, committed: committed)
        #expect((1...3).contains(underline.count), "rows \(underline)")
        #expect(underline.last.map { $0 - underline[0] < 3 } == true, "one thin band: \(underline)")
        #expect(try Self.copiedText(keyboard, demo: demo, sway: sway) == "한국 ")
        #expect(sway.isRunning && demo.process.isRunning)
    }

    @Test("Fcitx 5 (pinyin) types 你好 into the demo's field from n i h a o and space")
    func fcitxPinyin() throws {
        let sway = try SwaySession(fcitx: "pinyin")
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        let demo = try Self.startDemo(on: sway, directory: directory)
        defer { demo.stop() }
        #expect(sway.waitForFcitxGrab(), "\(sway.logTail)\n\(demo.process.transcript.suffix(1500))")
        #expect(keyboard.type("nihao"))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".preedit_string(\"ni hao\"") } })
        #expect(keyboard.type("", then: ["space"]))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".commit_string(\"你好\")") } })
        #expect(try Self.copiedText(keyboard, demo: demo, sway: sway) == "你好")
        #expect(sway.isRunning && demo.process.isRunning)
    }

    @Test("a live script's ime lines go through the scripted input-method-v2 and sway's text-input-v3, not in-process")
    func liveImeCommands() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = (directory as NSString).appendingPathComponent("commands")
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo \(fifo): \(String(cString: strerror(errno)))")
        var environment = sway.clientEnvironment
        environment["DAMASK_IME_COMMANDS"] = fifo
        // The seat's keyboard before any field has focus (sway 1.7 crashes otherwise).
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        defer { withExtendedLifetime(keyboard) {} }
        let inputMethod = try ScriptedInputMethodV2(environment: environment)
        let demo = try DemoRun.run(
            ["--speed", "fast", "--caret-blink", "off"],  // `wait idle` waits for no blinks
            script: InputMethodWestonTests.liveImeScript,
            environment: environment, directory: directory, timeout: 90)
        #expect(demo.status == 0, "\(demo.output)\ninput method: \(inputMethod.events)")
        // Each ime line reached the input method as a command, and it played them over
        // input-method-v2: the updates came back to the field through sway's text-input-v3
        // (the field told the input method its text after them).
        let commands = inputMethod.events.filter { $0.hasPrefix("command ") }
        #expect(commands == InputMethodWestonTests.liveImeCommandLines, "\(inputMethod.events)")
        #expect(inputMethod.count("committed") == 7, "\(inputMethod.events)")  // the deletion went with command 7
        #expect(inputMethod.events.contains("surrounding_text 6 6 한국"), "\(inputMethod.events)")
        #expect(inputMethod.events.contains("surrounding_text 6 6 한글"), "\(inputMethod.events)")
        #expect(sway.isRunning)
    }

    @Test("a preedit cursor range through sway is drawn highlighted in the selection colour (pixels); a collapsed cursor is not")
    func preeditCursorRange() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyboard = try VirtualKeyboard(environment: sway.clientEnvironment)
        defer { withExtendedLifetime(keyboard) {} }
        let inputMethod = try ScriptedInputMethodV2(environment: sway.clientEnvironment)
        let demo = try Self.startDemo(on: sway, directory: directory)
        defer { demo.stop() }
        #expect(inputMethod.waitFor("activate"), "\(inputMethod.events)\n\(demo.process.transcript.suffix(1500))")
        #expect(inputMethod.waitForSurroundingText("", cursor: 0), "\(inputMethod.events)")
        /// The x of every pixel in the selection colour (the light palette's, #b3d1ff).
        func highlighted(_ frame: Bitmap) -> [Int] {
            var xs: [Int] = []
            for y in 0..<frame.height {
                for x in 0..<frame.width where DemoOnSeat.isClose(frame.pixel(x: x, y: y), 0xb3d1ff) { xs.append(x) }
            }
            return xs
        }
        // 漢字 (bytes 0..<6) is the cursor range of the preedit "漢字abc".
        #expect(inputMethod.play(["preedit 0 6 漢字abc"]))
        let ranged = try #require(try Self.snapshot(after: ".preedit_string(\"漢字abc\", 0, 6)", demo: demo, directory: directory))
        #expect(inputMethod.play(["preedit 0 0 漢字abc"]))
        let collapsed = try #require(try Self.snapshot(after: ".preedit_string(\"漢字abc\", 0, 0)", demo: demo, directory: directory))
        let range = highlighted(ranged)
        #expect(range.count > 100, "\(range.count) highlighted pixels")
        #expect(highlighted(collapsed).isEmpty, "\(highlighted(collapsed).count) highlighted pixels with a collapsed cursor")
        // The highlight covers 漢字 only: about two ems of the 16-point font, not "abc".
        let low = try #require(range.min()), high = try #require(range.max())
        #expect((24...40).contains(high - low + 1), "highlight \(low)...\(high)")
        #expect(sway.isRunning && demo.process.isRunning)
    }
}

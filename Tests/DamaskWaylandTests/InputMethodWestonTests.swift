import DamaskGraphics
import Foundation
import Testing

/// zwp_text_input_v1 end to end: headless Weston 10 with a seat (so the demo's window gets
/// keyboard focus, which Weston's text input needs) runs the tests' own input method
/// (``ScriptedInputMethod``) as its `[input-method]`; the demo's text field is focused by
/// its script and read back with `expect text`, while the input method's log shows what
/// the field told it (surrounding text, content type, commit_state serials, resets).
@Suite("Input methods under Weston (zwp_text_input_v1)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct InputMethodWestonTests {
    /// Runs the demo on a Weston whose input method plays `imScript`; the demo plays
    /// `demoScript` and must pass. Returns the input method's log and the x of every
    /// cursor rectangle the demo sent (Weston's protocol log).
    /// With `liveCommands`, the input method also reads commands from a FIFO named by
    /// `DAMASK_IME_COMMANDS` in both its and the demo's environment: the demo's `ime` lines go
    /// through it.
    /// `beforeDemo` runs once the input method is bound, with the compositor and the input
    /// method (to start another client there).
    static func run(
        imScript: String, demoScript: String, liveCommands: Bool = false,
        beforeDemo: (PrivateCompositor, ScriptedInputMethod) throws -> Void = { _, _ in }
    ) throws -> (log: [String], cursorXs: [Int]) {
        let executable = try ScriptedInputMethod.executable()
        let inputMethod = try ScriptedInputMethod(script: imScript)
        defer { inputMethod.remove() }
        var environment = inputMethod.environment()
        if liveCommands {
            let fifo = inputMethod.directory + "/commands"
            try #require(mkfifo(fifo, 0o600) == 0, "mkfifo \(fifo): \(String(cString: strerror(errno)))")
            environment["DAMASK_IME_COMMANDS"] = fifo
        }
        let weston = try PrivateCompositor(.weston(seat: true, inputMethod: executable), environment: environment)
        defer { weston.stop() }
        #expect(inputMethod.waitForLine("ready"), "the input method never bound: \(inputMethod.log)")
        try beforeDemo(weston, inputMethod)
        var demoEnvironment = weston.clientEnvironment
        demoEnvironment["DAMASK_IME_COMMANDS"] = environment["DAMASK_IME_COMMANDS"]
        // The caret does not blink: `wait idle` would otherwise wait out its ten blinks.
        let demo = try DemoRun.run(["--speed", "fast", "--caret-blink", "off"], script: demoScript, environment: demoEnvironment, timeout: 90)
        defer { demo.removeDirectory() }
        #expect(demo.status == 0, "\(demo.output)\ninput method: \(inputMethod.log)")
        let cursorXs = weston.logLines(containing: ".set_cursor_rectangle(").compactMap { line in
            line.split(separator: "(").last.flatMap { Int($0.split(separator: ",")[0]) }
        }
        return (inputMethod.log, cursorXs)
    }

    /// The opening of the composition scripts: once the field is active and empty, ㅎ and 하
    /// in preedit, then 한 committed (and the field told the input method so).
    static let composeHan = """
        wait activate
        wait surrounding ""
        preedit "ㅎ"
        preedit "하" cursor 3
        commit "한"
        wait surrounding "한"
        """

    @Test("Composition through Weston's input method: preedit shown inline, commits inserted, a deletion around the caret, surrounding text sent after each")
    func composesKorean() throws {
        let (log, cursorXs) = try Self.run(
            imScript: """
                \(Self.composeHan)
                preedit "구" cursor 0
                commit "국"
                wait surrounding "한국"
                delete -3 3
                commit ""
                wait surrounding "한"
                commit "글"
                wait surrounding "한글"
                preedit "ㅁ"
                wait deactivate
                wait activate
                wait surrounding "한글"
                commit "!"
                """,
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "한글ㅁ"
                key Escape
                click 300 180
                expect text "한글!"

                """)
        // The field told the input method its text after each commit (the byte offsets
        // are UTF-8: 한 is 3 bytes), its content type, and increasing commit_state serials.
        #expect(log.contains("surrounding \"한\" 3 3"), "\(log)")
        #expect(log.contains("surrounding \"한국\" 6 6"), "\(log)")
        #expect(log.contains("surrounding \"한글\" 6 6"), "\(log)")
        #expect(log.contains("content_type 0 0"), "\(log)")
        let serials = log.compactMap { $0.hasPrefix("commit_state ") ? UInt32($0.dropFirst(13)) : nil }
        #expect(serials.count >= 4 && serials == serials.sorted(), "\(log)")
        // Escape ends editing: the field deactivated the text input (the preedit ㅁ went:
        // the input method saw "한글" again), and the click activated it again (its commit
        // after that reached the field).
        let activations = log.indices.filter { log[$0] == "activate" }
        let deactivations = log.indices.filter { log[$0] == "deactivate" }
        #expect(activations.count >= 2, "\(log)")
        #expect(
            activations.count >= 2 && deactivations.first.map { $0 > activations[0] && $0 < activations[1] } == true,
            "\(log)")
        #expect(log.contains("script done"), "\(log)")
        // The cursor rectangle followed the caret: right as syllables were committed, back
        // left when one was deleted.
        #expect(Set(cursorXs).count >= 3, "\(cursorXs)")
        #expect(cursorXs.max().map { $0 > cursorXs[0] } == true, "\(cursorXs)")
    }

    @Test("Composition into a TextView (the controls scene's notes): preedit and commits reach it, and the surrounding text is the caret's paragraph only")
    func composesIntoATextView() throws {
        let (log, cursorXs) = try Self.run(
            imScript: """
                \(Self.composeHan)
                commit "글"
                wait surrounding "한글"
                wait surrounding ""
                commit "!"
                wait surrounding "!"
                """,
            demoScript: """
                scene controls
                wait idle
                click 400 470
                key ctrl+a
                key BackSpace
                expect text "한글"
                wait idle
                key Return
                expect text "한글\\n!"
                wait idle

                """)
        // `wait idle` lets a frame go out: the field's text-input state is sent once per
        // frame, before its commit, so without it "한글" and the new paragraph after Return
        // would reach the input method as one batch.
        // The new paragraph after Return was told as "" (not "한글\n"), then "!".
        #expect(log.contains("surrounding \"한\" 3 3"), "\(log)")
        #expect(log.contains("surrounding \"한글\" 6 6"), "\(log)")
        #expect(log.contains("surrounding \"!\" 1 1"), "\(log)")
        let hangul = log.lastIndex(of: "surrounding \"한글\" 6 6") ?? log.endIndex
        #expect(log[hangul...].contains("surrounding \"\" 0 0"), "after Return, an empty paragraph: \(log)")
        #expect(log.contains("script done"), "\(log)")
        #expect(Set(cursorXs).count >= 2, "the cursor rectangle followed the caret: \(cursorXs)")
    }

    @Test("A hostile input method: deletion beyond the text, invalid UTF-8, a stale serial, a preedit far wider than the field, a key sent back")
    func hostileInputMethod() throws {
        let long = String(repeating: "가나다라마바사", count: 60)  // 420 clusters: far wider than the field
        let (log, _) = try Self.run(
            imScript: """
                wait activate
                wait surrounding ""
                commit "ab"
                wait surrounding "ab"
                delete -1000 2000
                commit "c"
                wait surrounding "c"
                commit "\\xff\\xfeX"
                serial-offset -100
                commit "stale"
                serial-offset 0
                preedit "\(long)" cursor 0
                commit "가"
                wait surrounding "c가"
                key 0x64
                wait surrounding "c가d"
                commit "!"
                """,
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "c가d!"

                """)
        // A key the input method sends back is a change it did not make: a reset precedes
        // the surrounding text it sends (the input method's last commit waited for that).
        let keyStep = try #require(log.firstIndex { $0.hasPrefix("step 15:") }, "\(log)")
        #expect(log[keyStep...].contains("reset"), "\(log)")
        #expect(log.contains("script done"), "\(log)")
    }

    /// The preedit the styled test's input method ends with: five-letter pieces drawn as
    /// selection, active, incorrect and none, its cursor hidden (no caret blinks on it).
    static let styledPreeditScript = """
        style 0 5 selection
        style 6 5 active
        style 12 5 incorrect
        style 18 5 none
        preedit "MMMMM MMMMM MMMMM MMMMM" cursor -1
        """

    @Test("Styled preedit through Weston: cursor_position after a commit, language and direction, preedit_styling drawn (reference pixels), and composing damages only the preedit run and the caret")
    func styledPreedit() throws {
        let (log, _) = try Self.run(
            imScript: """
                wait activate
                wait surrounding ""
                language "ko"
                direction ltr
                cursor-position -1 -1
                commit "Hello, world!"
                wait surrounding "Hello, world!" cursor 11
                preedit "ㅎ"
                preedit "하" cursor 3
                \(Self.styledPreeditScript)
                """,
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "Hello, world!"
                expect damage within 0 0 4000 4000
                key Left
                expect text "Hello, worlMMMMM MMMMM MMMMM MMMMMd!"
                expect pixel 330 168 #b3d1ff ±12
                expect pixel 400 188 #212630 ±12
                expect pixel 400 189 #212630 ±12
                expect pixel 480 188 #e61919 ±12
                expect pixel 480 189 #ffffff ±12
                expect pixel 550 188 #ffffff ±12
                expect damage within 288 160 324 40

                """)
        // The demo's checks held: the pieces as drawn (the selection piece on the selection
        // colour above its glyphs; the active piece's underline two pixels thick at y 188;
        // the incorrect piece's one pixel, red; none under the last piece), and the damage
        // since the caret moved (Left, then three preedits) lay right of "Hello, wor": the
        // preedit, the "d!" it pushed right, and the caret.
        // cursor_position -1 put the caret before the "!": the field told the input method so.
        #expect(log.contains("surrounding \"Hello, world!\" 12 12"), "\(log)")
        #expect(log.contains("script done"), "\(log)")
    }

    /// A live demo script whose `ime` lines compose 한글 (with a deletion) through an input
    /// method reading `DAMASK_IME_COMMANDS`; its `expect text` lines wait for each update.
    static let liveImeScript = """
        scene text
        wait idle
        click 300 180
        ime preedit "ㅎ"
        ime preedit "하" cursor 3
        ime commit "한"
        ime preedit "구" cursor hidden
        ime commit "국"
        wait idle
        ime delete before 3 after 0
        expect text "한"
        ime commit "글"
        expect text "한글"
        wait idle

        """

    /// The lines ``liveImeScript`` writes to the FIFO, as the input method logs them.
    static let liveImeCommandLines = [
        "command 1: preedit \"ㅎ\" cursor 3", "command 2: preedit \"하\" cursor 3", "command 3: commit \"한\"",
        "command 4: preedit \"구\" cursor -1", "command 5: commit \"국\"", "command 6: delete -3 3",
        "command 7: commit \"\"", "command 8: commit \"글\"",
    ]

    @Test("Another client takes the input method while the field keeps the keyboard focus (v1 leave): the preedit goes, keys still reach the field, and the next key activates the field again")
    func leaveWhileTheFieldKeepsFocus() throws {
        var thief: TestProcess?
        defer { thief?.kill(grace: 1) }
        let (log, _) = try Self.run(
            imScript: """
                wait activate
                preedit "ㅎ"
                wait deactivate
                wait activate
                wait deactivate
                wait activate
                commit "!"
                """,
            // The `ime` line tells the thief (through the input method's log) that the
            // preedit is on screen; the input method plays it last, harmlessly.
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "ㅎ"
                ime direction auto
                expect text ""
                type "x"
                expect text "x!"

                """,
            liveCommands: true,
            beforeDemo: { weston, inputMethod in
                var environment = weston.clientEnvironment
                environment["DAMASK_THIEF_WATCH"] = inputMethod.logPath
                environment["DAMASK_THIEF_AFTER"] = "command 1:"
                let process = try TestProcess(try InputMethodPrograms.textInputThiefV1(), [], environment: environment)
                thief = process
                #expect(process.waitForLine(timeout: 20, where: { $0 == "ready" }) != nil, "\(process.transcript)")
            })
        let thiefLines = thief?.lines ?? []
        // The thief's activate took the input method (Weston sent it enter), and the field's
        // next key took it back (the thief's leave).
        #expect(thiefLines.contains("activated") && thiefLines.contains("enter"), "\(thiefLines)")
        #expect(thief?.waitForLine(timeout: 10, where: { $0 == "leave" }) != nil, "\(thiefLines)")
        // Three activations reached the input method: the field, the thief, the field again.
        #expect(log.filter { $0 == "activate" }.count == 3, "\(log)")
        #expect(log.contains("script done"), "\(log)")
    }

    @Test("A live script's ime lines go through Weston's input method and the text-input protocol, not in-process")
    func liveImeCommands() throws {
        let (log, _) = try Self.run(
            imScript: "wait activate\n",
            demoScript: Self.liveImeScript, liveCommands: true)
        // Each ime line reached the input method as a command and was played by it: the
        // updates came back to the field through Weston (the field told it the text after,
        // with its next frame: hence the `wait idle` lines).
        let commands = log.filter { $0.hasPrefix("command ") }
        #expect(commands == Self.liveImeCommandLines, "\(log)")
        #expect(log.filter { $0.hasPrefix("step ") }.count == 9, "\(log)")  // wait activate and the 8 commands
        #expect(log.contains("surrounding \"한국\" 6 6"), "\(log)")
        #expect(log.contains("surrounding \"한글\" 6 6"), "\(log)")
    }

    @Test("A live script's ime language and ime direction go through Weston's input method as language and text_direction, before the preedit after them")
    func liveLanguageAndDirection() throws {
        let (log, cursorXs) = try Self.run(
            imScript: "wait activate\n",
            demoScript: """
                scene text
                wait idle
                click 300 180
                ime language "ko"
                ime direction rtl
                ime preedit "漢字 אבג" cursor 0
                expect text "漢字 אבג"
                wait idle

                """,
            liveCommands: true)
        #expect(
            log.filter { $0.hasPrefix("command ") }
                == ["command 1: language \"ko\"", "command 2: direction rtl", "command 3: preedit \"漢字 אבג\" cursor 0"],
            "\(log)")
        // Laid out right to left, the caret before 漢 is right of the Hebrew word: the field
        // had the direction when the preedit came.
        let start = try #require(cursorXs.first)
        #expect(cursorXs.last.map { $0 >= start + 25 } == true, "\(cursorXs)")
    }

    @Test("language and text_direction hold for one activation: after Escape ends it (Weston deactivates the input method's context) the next activation's preedit is laid out in the automatic direction again")
    func languageAndDirectionResetOnDeactivate() throws {
        let (log, cursorXs) = try Self.run(
            imScript: """
                wait activate
                wait surrounding ""
                language "ko"
                direction rtl
                preedit "漢字 אבג" cursor 0
                wait deactivate
                wait activate
                wait surrounding ""
                preedit "漢字 אבג" cursor 0
                """,
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "漢字 אבג"
                wait idle
                key Escape
                wait idle
                click 300 180
                expect text "漢字 אבג"
                wait idle

                """)
        #expect(log.contains("script done"), "\(log)")
        #expect(log.filter { $0 == "activate" }.count >= 2, "\(log)")
        // The first activation's preedit was right to left: the caret before 漢 went right
        // of the Hebrew. The second one's, with nothing said, starts at the field's start
        // (its first strong character, 漢, is left to right), where the caret was before.
        let start = try #require(cursorXs.first, "no cursor rectangle")
        #expect(cursorXs.contains { $0 >= start + 25 }, "right to left never applied: \(cursorXs)")
        #expect(cursorXs.last.map { abs($0 - start) <= 2 } == true, "the direction outlived the activation: \(cursorXs)")
    }

    @Test("language and text_direction through Weston reach a TextView (the controls scene's notes): its right-to-left preedit puts the cursor rectangle right of the Hebrew")
    func languageAndDirectionInATextView() throws {
        let (log, cursorXs) = try Self.run(
            imScript: """
                wait activate
                wait surrounding ""
                language "ko"
                direction rtl
                preedit "漢字 אבג" cursor 0
                """,
            demoScript: """
                scene controls
                wait idle
                click 400 470
                key ctrl+a
                key BackSpace
                expect text "漢字 אבג"
                wait idle

                """)
        #expect(log.contains("script done"), "\(log)")
        // The empty notes' caret is the leftmost rectangle; the preedit's start (漢, in
        // reading order) laid out right to left is right of the Hebrew word.
        let start = try #require(cursorXs.min(), "no cursor rectangle")
        #expect(cursorXs.last.map { $0 >= start + 25 } == true, "\(cursorXs)")
    }

    /// The demo's window as it shows the preedit "漢字 אבג" (漢字 selected by the input
    /// method's style) that an input method typing `language` right to left sent through
    /// Weston, and the x of the field's caret before it (its first cursor rectangle).
    static func styledRunWindow(language: String) throws -> (window: Bitmap, fieldStartX: Int, cursorXs: [Int]) {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let screenshot = (directory as NSString).appendingPathComponent("preedit.png")
        let (log, cursorXs) = try Self.run(
            imScript: """
                wait activate
                wait surrounding ""
                language "\(language)"
                direction rtl
                style 0 6 selection
                preedit "漢字 אבג" cursor 0
                """,
            demoScript: """
                scene text
                wait idle
                click 300 180
                expect text "漢字 אבג"
                wait idle
                screenshot \(screenshot)

                """)
        #expect(log.contains("script done"), "\(log)")
        let start = try #require(cursorXs.first, "no cursor rectangle")
        return (try Bitmap(contentsOfPNGFile: screenshot), start, cursorXs)
    }

    @Test("language and text_direction through Weston: a right-to-left input method's preedit is laid out right to left, and its Han drawn in its language (Korean and Chinese glyphs differ)")
    func languageAndDirection() throws {
        let korean = try Self.styledRunWindow(language: "ko")
        let chinese = try Self.styledRunWindow(language: "zh-CN")
        // Right to left, the Hebrew word comes first on screen and 漢字 (highlighted in the
        // selection colour) after it; left to right (how the text alone is laid out, its
        // first strong character being Han), 漢字 would start at the field's caret.
        for (name, run) in [("ko", korean), ("zh-CN", chinese)] {
            let window = run.window
            var highlighted: [Int] = []
            for y in 0..<window.height {
                for x in 0..<window.width where DemoOnSeat.isClose(window.pixel(x: x, y: y), 0xb3d1ff) {
                    highlighted.append(x)
                }
            }
            let left = try #require(highlighted.min(), "\(name): no highlighted pixels")
            #expect(left >= run.fieldStartX + 25, "\(name): 漢字 starts at \(left), the field's text at \(run.fieldStartX)")
            // The caret (preedit cursor 0: before 漢 in reading order) went right with it.
            #expect(run.cursorXs.last.map { $0 >= run.fieldStartX + 25 } == true, "\(name): \(run.cursorXs)")
        }
        // The same layout, different Han glyphs: the two windows differ, only in the field's text.
        #expect(korean.window.width == chinese.window.width && korean.window.height == chinese.window.height)
        var differing: [(x: Int, y: Int)] = []
        for y in 0..<min(korean.window.height, chinese.window.height) {
            for x in 0..<min(korean.window.width, chinese.window.width)
            where korean.window.pixel(x: x, y: y) != chinese.window.pixel(x: x, y: y) {
                differing.append((x, y))
            }
        }
        // In 漢字's two ems right of the caret at their left edge (which may blink apart).
        let han = try #require(korean.cursorXs.last)
        let inGlyphs = differing.filter { $0.x > han + 2 && $0.x < han + 34 }
        #expect(inGlyphs.count > 20, "\(inGlyphs.count) of \(differing.count) differing pixels in 漢字")
        let rows = Set(differing.map(\.y))
        #expect(rows.allSatisfy { abs($0 - 180) < 20 }, "rows \(rows.sorted())")
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo in `--headless` mode: the tour, determinism, and the damage each scene sends.
@Suite("damask-demo headless", .exclusive, .timeLimit(.minutes(5)))
struct DemoHeadlessTests {
    static let fast = ["--headless", "--speed", "fast"]

    @Test("the tour plays headless with every expectation holding and a screenshot of every scene")
    func tourPlaysHeadless() throws {
        let directory = try DemoRun.makeDirectory()
        let shots = (directory as NSString).appendingPathComponent("shots")
        let run = try DemoRun.run(
            Self.fast + ["--play", DemoRun.tourPath, "--screenshots", shots], directory: directory)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: shots).sorted()
        #expect(files == ["canvas.png", "chromosome.png", "content-mode.png", "controls.png", "layers.png", "motion.png", "paths.png", "progress.png", "text.png"])
    }

    @Test("the same script gives the same damage log and screenshots byte for byte")
    func headlessPlaybackIsDeterministic() throws {
        var logs: [String] = []
        var images: [Data] = []
        for _ in 0..<2 {
            let directory = try DemoRun.makeDirectory()
            let shots = (directory as NSString).appendingPathComponent("shots")
            let run = try DemoRun.run(
                Self.fast + ["--play", DemoRun.tourPath, "--screenshots", shots], directory: directory)
            defer { run.removeDirectory() }
            try #require(run.status == 0, "\(run.output)")
            logs.append(run.damageLogText)
            for name in ["chromosome", "text"] {
                images.append(try Data(contentsOf: URL(fileURLWithPath: "\(shots)/\(name).png")))
            }
        }
        #expect(!logs[0].isEmpty)
        #expect(logs[0] == logs[1])
        #expect(images[0] == images[2])
        #expect(images[1] == images[3])
    }

    @Test("the motion scene's animation, played headless: right pixels half-way and at the end, no draw, damage on the tiles only, then no frames")
    func motionAnimationPlaysHeadless() throws {
        // At fast speed the player fires the frames 16 ms apart on a simulated clock, so the
        // frame 32 frames after the key is 496 ms into the 1 s ease-in-ease-out animation.
        let lanes = "204 170 552 80  346 272 116 116  204 290 80 80  524 290 80 80  684 290 80 80"
        let script = """
            scene motion
            wait idle
            expect draws 10
            expect damage within 0 0 800 600
            settling off
            key space
            wait frames 32
            expect pixel 477 180 #007aff
            expect pixel 430 180 #eef0f5
            expect pixel 716 180 #eef0f5
            expect pixel 214 300 #82d89b ±3
            expect pixel 372 300 #eef0f5
            expect pixel 404 300 #ff8000
            expect pixel 530 300 #eef0f5
            expect pixel 724 330 #407dbf ±3
            expect draws 0
            expect damage within \(lanes)
            settling on
            wait idle
            expect pixel 477 180 #eef0f5
            expect pixel 716 180 #007aff
            expect pixel 214 300 #d3eadd ±3
            expect pixel 372 300 #ff8000
            expect pixel 724 330 #007aff
            expect pixel 688 294 #eef0f5
            expect draws 0
            expect damage within \(lanes)
            wait frames 5
            expect no-damage

            """
        let run = try DemoRun.run(Self.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        // The scene switch draws; after it, every commit of the animation only recomposites.
        let commits = run.commits
        let firstAnimated = try #require(commits.lastIndex { $0.draws > 0 }) + 1
        let animated = commits[firstAnimated...]
        #expect((55...66).contains(animated.count), "one commit per 16 ms frame of 1 s: \(animated.count)")
        #expect(animated.allSatisfy { $0.draws == 0 })
    }

    /// The damage of the progress scene's first step (25 % → 30 %).
    static let progressStepDamage = [
        [344, 152, 28, 36], [259, 201, 16, 11], [335, 201, 8, 11], [662, 201, 8, 11], [259, 212, 16, 1],
        [335, 212, 8, 1], [305, 220, 136, 1], [492, 220, 35, 1], [305, 221, 181, 2], [492, 221, 35, 2],
        [305, 223, 222, 10], [305, 233, 136, 1], [474, 233, 19, 1], [503, 233, 24, 1], [474, 234, 19, 1],
    ]

    @Test("one progress step draws the bar once and damages only the bar's changed span and the labels' changed glyphs")
    func progressStepDamagesOnlyTheChangedSpan() throws {
        let run = try DemoRun.run(Self.fast, script: "scene progress\nwait idle\nkey Right\nwait idle\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let last = try #require(run.commits.last)
        // 25 % → 30 % of a 560-point bar at x 204: the span 344…372; then, as bands, the ink
        // of the labels' glyphs that changed ("25%", the set count, the draw count; the two
        // numbers of the last draw rect and what they moved), inside the labels' lines.
        #expect(last.damage == Self.progressStepDamage)
        #expect(last.draws == 3)
    }

    @Test("while the sequence loads, each spinner frame damages only the spinner")
    func spinnerDamagesOnlyItself() throws {
        let run = try DemoRun.run(Self.fast + ["--scene", "chromosome"], script: "wait idle\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let spinnerOnly = run.commits.filter { $0.damage == [[470, 292, 40, 40]] }
        // 75 frames of latency, a phase every 5 frames: phases 1…14 alone, the 15th in the
        // commit that also shows the sequence.
        #expect(spinnerOnly.count == 14)
        #expect(spinnerOnly.allSatisfy { $0.draws == 1 })
        let arrival = try #require(run.commits.last)
        #expect(arrival.damage.contains { $0[0] == 204 && $0[1] == 156 })
    }

    @Test("a cursor blink damages only the cursor")
    func cursorBlinkDamagesOnlyTheCursor() throws {
        let script = "scene text\nclick 300 180\ntype \"Hi\"\nwait 3s\n"
        let run = try DemoRun.run(Self.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        // The click repaints the field (focus ring); the typed keys follow in the same
        // commit or in one commit each; every later commit is a blink.
        let click = run.commits.lastIndex { $0.damage.count == 1 && $0.damage[0][2] > 100 } ?? 0
        let isCursorOnly = { (commit: LoggedCommit) in
            commit.damage.count == 1 && commit.damage[0][2] == 2 && commit.damage[0][3] == 24
        }
        let firstBlink = run.commits[(click + 1)...].firstIndex(where: isCursorOnly) ?? run.commits.endIndex
        #expect(firstBlink - click - 1 <= 2, "at most one commit per typed key before blinking")
        let blinks = run.commits[firstBlink...]
        #expect(blinks.count >= 5)
        for blink in blinks {
            #expect(blink.damage.count == 1)
            #expect(blink.damage.first?[2] == 2)
            #expect(blink.damage.first?[3] == 24)
            #expect(blink.draws == 1)
        }
    }

    @Test("with --caret-blink off a focused field sends no frame after the typed keys: the caret stays shown")
    func caretBlinkOff() throws {
        let script = "scene text\nclick 300 180\ntype \"Hi\"\nwait 3s\nexpect text \"Hi\"\n"
        let run = try DemoRun.run(Self.fast + ["--caret-blink", "off"], script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        // The click commits the focus ring, each key at most one commit; the 3 s wait (six
        // blink periods with blinking on) adds none.
        let click = try #require(run.commits.lastIndex { $0.damage.count == 1 && $0.damage[0][2] > 100 })
        let isCaretOnly = { (commit: LoggedCommit) in
            commit.damage.count == 1 && commit.damage[0][2] == 2 && commit.damage[0][3] == 24
        }
        #expect(run.commits.count - click - 1 <= 2, "\(run.commits.count - click - 1) commits after the click")
        #expect(!run.commits[(click + 1)...].contains(where: isCaretOnly), "a blink was committed")
    }

    @Test("an animated progress bar draws once per frame though progress is set three times")
    func animationDrawsOncePerFrame() throws {
        let run = try DemoRun.run(Self.fast, script: "scene progress\nkey space\nwait 500ms\nkey space\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let animated = run.commits.filter { commit in commit.damage.contains { $0[1] == 152 && $0[3] == 36 } }
        #expect(animated.count >= 20)
        // The bar and its two labels, once each.
        #expect(animated.allSatisfy { $0.draws == 3 })
    }

    @Test("D turns on damage flashing: a change is tinted for one frame, then repainted without drawing")
    func damageFlashingTintsThenClears() throws {
        let run = try DemoRun.run(Self.fast, script: "scene progress\nwait idle\nkey d\nkey Right\nwait idle\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let span = Self.progressStepDamage
        let last = run.commits.suffix(2)
        try #require(last.count == 2)
        #expect(last.map(\.damage) == [span, span])
        #expect(last.map(\.draws) == [3, 0])
    }

    @Test("The key labelled D flashes the damage on non-Latin layouts too: the change is tinted for one frame, then repainted without drawing",
        arguments: [("ru", "Cyrillic_ve"), ("gr", "Greek_delta"), ("il", "hebrew_gimel"), ("ara", "Arabic_yeh")])
    func damageFlashingOnLayout(layout: String, keysym: String) throws {
        let run = try DemoRun.run(
            Self.fast + ["--keymap", layout], script: "scene progress\nwait idle\nkey \(keysym)\nkey Right\nwait idle\n")
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let span = Self.progressStepDamage
        let last = run.commits.suffix(2)
        try #require(last.count == 2)
        // Without the flash the step is one commit of 3 draws; the flash repaints it once more.
        #expect(last.map(\.damage) == [span, span], "\(layout)")
        #expect(last.map(\.draws) == [3, 0], "\(layout)")
    }

    @Test("a --sequence FASTA file is what the chromosome scene draws")
    func sequenceFileIsLoaded() throws {
        let directory = try DemoRun.makeDirectory()
        let fasta = (directory as NSString).appendingPathComponent("seq.fa")
        try ">test sequence\nttttttttttttttttttttt\nTTTT\n".write(toFile: fasta, atomically: true, encoding: .utf8)
        // Thymine is red (0.85, 0.25, 0.25); the sample would start with adenine (green).
        let script = "wait idle\nexpect pixel 209 162 #d94040 ±2\n"
        let run = try DemoRun.run(
            Self.fast + ["--scene", "chromosome", "--sequence", fasta], script: script, directory: directory)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }
}

/// The content-mode scene while the window itself resizes.
@Suite("damask-demo headless resizing", .exclusive, .timeLimit(.minutes(5)))
struct DemoResizeTests {
    @Test("resizing the window redraws the .redraw view and only stretches the .scaleToFill one")
    func resizeRedrawsOnlyTheRedrawView() throws {
        // Per resize: the sidebar, the .redraw view, and the two counter labels twice (new
        // size, then new text) make 6 draws; a .scaleToFill view that drew would make 7.
        // At 700 wide the scene is narrower than the header labels, which wrap anew: 8.
        let script = """
            scene content-mode
            wait idle
            expect draws 13
            size 900x700
            expect draws 6
            size 700x500
            expect draws 8
            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }
}

import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

@MainActor
@Suite("Script player", .exclusive, .timeLimit(.minutes(5)))
struct ScriptPlayerTests {
    @Test("a click script toggles a view through Window.dispatch")
    func clickTogglesView() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            expect pixel 20 20 #0000ff
            click 20 20
            expect pixel 20 20 #ff0000
            expect draws 1
            expect damage exactly 10 10 40 40
            click 20 20 right
            expect pixel 20 20 #0000ff
            """)
        #expect(report.failures.map(\.description) == [])
        #expect(report.commandCount == 7)
        #expect(fixture.toggle.isOn == false)
        #expect(fixture.toggle.drawCalls == 3)
    }

    @Test("a triple click sends three presses with click counts 1, 2 and 3")
    func tripleClickCounts() async throws {
        let fixture = PlaybackFixture()
        let recorder = EventLog()
        fixture.window.contentView.addSubview(recorder)
        _ = try await fixture.play("click 5 70 triple")
        let downs = recorder.pointerEvents.filter { $0.kind == .down }
        let ups = recorder.pointerEvents.filter { $0.kind == .up }
        #expect(downs.map(\.clickCount) == [1, 2, 3])
        #expect(ups.map(\.clickCount) == [1, 2, 3])
    }

    @Test("expect text compares the first responder's text and reports the line, expected and actual")
    func expectTextChecksTheFocusedText() async throws {
        let fixture = PlaybackFixture()
        var options = PlaybackOptions()
        options.timeout = .milliseconds(300)
        options.stopsAtFirstFailure = false
        let report = try await fixture.play(
            """
            type "abc"
            expect text "abc"
            expect text "abd"
            """, options: options)
        #expect(report.failures.map(\.description) == [
            #"play.dsc:3:1: expectation failed: expect text "abd": expected "abd", actual "abc""#
        ])
        #expect(fixture.textView.resignFirstResponder())
        let unfocused = try await fixture.play("expect text \"abc\"", options: options)
        #expect(unfocused.failures.count == 1)
        #expect(unfocused.failures.first?.actual.contains("no text") ?? false || unfocused.failures.first?.actual == "no first responder",
            "\(unfocused.failures.map(\.description))")
    }

    @Test("expect clipboard and expect primary read the window's pasteboards; \"\" matches an empty one")
    func expectPasteboardReadsThePasteboards() async throws {
        let fixture = PlaybackFixture()
        let (clipboard, primary) = (MemoryPasteboard.clipboard.string, MemoryPasteboard.primarySelection.string)
        defer { (MemoryPasteboard.clipboard.string, MemoryPasteboard.primarySelection.string) = (clipboard, primary) }
        MemoryPasteboard.clipboard.string = "copied ü"
        MemoryPasteboard.primarySelection.string = nil
        var options = PlaybackOptions()
        options.timeout = .milliseconds(300)
        options.stopsAtFirstFailure = false
        let report = try await fixture.play(
            """
            expect clipboard "copied ü"
            expect primary ""
            expect clipboard "other"
            expect primary "x"
            """, options: options)
        #expect(report.failures.map(\.description) == [
            #"play.dsc:3:1: expectation failed: expect clipboard "other": expected "other", actual "copied ü""#,
            #"play.dsc:4:1: expectation failed: expect primary "x": expected "x", actual no text on the primary selection"#,
        ])
    }

    @Test("text and pasteboard checks do not wait for a never-idle window to settle; pixel checks do")
    func textChecksDoNotSettle() async throws {
        let fixture = PlaybackFixture()
        // Redraws on every frame, as a blinking caret or an animation keeps a window busy.
        let busy = RedrawingView(frame: CGRect(x: 0, y: 60, width: 10, height: 10))
        fixture.window.contentView.addSubview(busy)
        let saved = (MemoryPasteboard.clipboard.string, MemoryPasteboard.primarySelection.string)
        defer { (MemoryPasteboard.clipboard.string, MemoryPasteboard.primarySelection.string) = saved }
        // Both pasteboards are the process's: another test's selection may still be there.
        MemoryPasteboard.clipboard.string = "copied"
        MemoryPasteboard.primarySelection.string = nil
        _ = try await fixture.play("type \"abc\"")
        let limit = PlaybackOptions().settleFrameLimit

        var before = fixture.window.passCount
        let text = try await fixture.play("expect text \"abc\"\nexpect clipboard \"copied\"\nexpect primary \"\"")
        #expect(text.succeeded, "\(text.failures)")
        #expect(fixture.window.passCount - before < limit, "text checks ran \(fixture.window.passCount - before) passes")

        before = fixture.window.passCount
        let pixel = try await fixture.play("expect pixel 20 20 #0000ff")
        #expect(pixel.succeeded, "\(pixel.failures)")
        #expect(fixture.window.passCount - before >= limit, "a pixel check settles first (up to the frame limit)")
    }

    @Test("expect clipboard waits for a value that arrives later, up to the timeout")
    func expectPasteboardWaitsForALateValue() async throws {
        let fixture = PlaybackFixture()
        let saved = MemoryPasteboard.clipboard.string
        defer { MemoryPasteboard.clipboard.string = saved }
        MemoryPasteboard.clipboard.string = nil
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) {
            MainActor.assumeIsolated { MemoryPasteboard.clipboard.string = "late" }
        }
        var options = PlaybackOptions()
        options.timeout = .seconds(5)
        let report = try await fixture.play("expect clipboard \"late\"", options: options)
        #expect(report.failures.map(\.description) == [])
    }

    @Test("a double click sends two presses with click counts 1 and 2")
    func doubleClickCounts() async throws {
        let fixture = PlaybackFixture()
        let recorder = EventLog()
        fixture.window.contentView.addSubview(recorder)
        _ = try await fixture.play("click 5 70 double")
        let downs = recorder.pointerEvents.filter { $0.kind == .down }
        #expect(downs.map(\.clickCount) == [1, 2])
        #expect(recorder.pointerEvents.first?.kind == .entered)
        #expect(recorder.pointerEvents.allSatisfy { $0.location == CGPoint(x: 5, y: 70) })
    }

    @Test("a type script fills a text-collecting view with the text xkb produces")
    func typeFillsTextView() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            type "Hello, World! 42"
            expect pixel 70 20 #00ff00
            """)
        #expect(report.succeeded)
        #expect(fixture.textView.text == "Hello, World! 42")
        let capitalH = try #require(fixture.textView.events.first { $0.text == "H" })
        #expect(capitalH.modifiers == .shift)
        #expect(capitalH.keysym == 0x48)  // XK_H
        #expect(capitalH.keycode == 35 + 8)  // KEY_H is evdev 35; xkb numbers it 43
        #expect(fixture.window.isKeyWindow)
    }

    @Test("typing ü needs a layout that has it: de gives \"Damask ü\"")
    func typeUmlautWithGermanLayout() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            layout de
            type "Damask ü"
            """)
        #expect(report.succeeded)
        #expect(fixture.textView.text == "Damask ü")
        let umlaut = try #require(fixture.textView.events.first { $0.text == "ü" })
        #expect(umlaut.keysym == 0xFC)  // XK_udiaeresis
        #expect(umlaut.modifiers == [])
    }

    @Test("type reaches a character no key has through its dead key, as a person types it: de types é as dead_acute then e")
    func typeComposesThroughDeadKeys() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            layout de
            type "Café déjà"
            """)
        #expect(report.succeeded)
        #expect(fixture.textView.text == "Café déjà")
        let presses = fixture.textView.events.filter { $0.phase == .down && $0.keysym != 0xFFE1 }
        // The dead key's press types nothing; the key after it types the composed letter.
        let acute = try #require(presses.firstIndex { $0.keysym == 0xFE51 })  // XK_dead_acute
        #expect(presses[acute].text == "")
        #expect(presses[acute + 1].text == "é")
        #expect(presses[acute + 1].keysym == 0xE9)  // XK_eacute
        #expect(presses[acute + 1].keycode == 18 + 8)  // the E key (evdev 18)
        #expect(presses.contains { $0.keysym == 0xFE50 })  // XK_dead_grave, for à
    }

    @Test("type with a layout that has dead keys: Greek accented letters arrive through the tonos dead key")
    func typeGreekWithTonos() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            layout gr
            type "Καλημέρα κόσμε"
            """)
        #expect(report.succeeded)
        #expect(fixture.textView.text == "Καλημέρα κόσμε")
        #expect(fixture.textView.events.filter { $0.phase == .down && $0.text.isEmpty && $0.keysym != 0xFFE1 }.count == 2)
    }

    @Test("a key chord presses its modifiers around the key")
    func keyChordModifiers() async throws {
        let fixture = PlaybackFixture()
        _ = try await fixture.play("key ctrl+shift+a")
        let events = fixture.textView.events
        #expect(events.map(\.phase) == [.down, .down, .down, .up, .up, .up])
        #expect(events.map(\.keysym) == [0xFFE3, 0xFFE1, 0x41, 0x41, 0xFFE1, 0xFFE3])
        #expect(events[2].modifiers == [.control, .shift])
        #expect(events[5].modifiers == [.control])
    }

    @Test("keydown holds a modifier for later pointer events")
    func keyDownHoldsModifier() async throws {
        let fixture = PlaybackFixture()
        let log = EventLog()
        fixture.window.contentView.addSubview(log)
        _ = try await fixture.play(
            """
            keydown Shift_L
            click 5 70
            keyup Shift_L
            click 5 70
            """)
        let downs = log.pointerEvents.filter { $0.kind == .down }
        #expect(downs.map(\.modifiers) == [.shift, []])
    }

    @Test("drag, scroll and touch commands send the matching events")
    func dragScrollTouch() async throws {
        let fixture = PlaybackFixture()
        let log = EventLog()
        fixture.window.contentView.addSubview(log)
        _ = try await fixture.play(
            """
            drag 1 61 9 69 steps 4
            scroll 0 3
            touch down 7 2 62
            touch move 7 3 63
            touch up 7
            """)
        let moves = log.pointerEvents.filter { $0.kind == .moved }.map(\.location)
        #expect(moves == [CGPoint(x: 3, y: 63), CGPoint(x: 5, y: 65), CGPoint(x: 7, y: 67), CGPoint(x: 9, y: 69)])
        #expect(log.scrollEvents.map(\.discreteY) == [3])
        #expect(log.scrollEvents.first?.deltaY == 30)
        #expect(log.touchEvents.map(\.phase) == [.began, .moved, .ended])
        #expect(log.touchEvents.map(\.id) == [7, 7, 7])
        #expect(log.touchEvents.last?.location == CGPoint(x: 3, y: 63))
        let times = (log.pointerEvents.map(\.timestamp) + log.scrollEvents.map(\.timestamp))
        #expect(times == times.sorted())
    }

    @Test("size and scale resize the memory surface and checks use buffer pixels")
    func sizeAndScale() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            size 120x90
            scale 2
            expect pixel 49 49 #0000ff
            expect pixel 50.5 50 #ffffff
            """)
        #expect(report.failures.map(\.description) == [])
        #expect(fixture.surface.size == CGSize(width: 120, height: 90))
        #expect(fixture.surface.pixelWidth == 240)
        #expect(fixture.surface.presentedBitmap?.width == 240)
    }

    @Test("expect damage exactly at scale S checks buffer pixels at that scale only; at another scale the line is passed over and the damage keeps accumulating")
    func damageAtScale() async throws {
        let fixture = PlaybackFixture()
        let report = try await fixture.play(
            """
            scale 2
            wait idle
            expect damage within 0 0 1000 1000
            click 20 20
            expect damage exactly at scale 1 10 10 40 40
            expect damage exactly at scale 2 20 20 80 80
            click 20 20
            expect damage within at scale 2 0 0 20 20
            """)
        // The scale-1 line is passed over (10 10 40 40 px would not hold at scale 2), the
        // scale-2 line sees the click's damage; the last one is checked and fails.
        #expect(report.failures.count == 1, "\(report.failures)")
        #expect(report.failures.first?.location.line == 8, "\(report.failures)")
        #expect(report.failures.first?.description.contains("20 20 80 80 px") == true, "\(report.failures)")
    }

    @Test("wait frames lets a display link run that many frames")
    func waitFramesRunsDisplayLink() async throws {
        let fixture = PlaybackFixture()
        var ticks = 0
        let link = DisplayLink(window: fixture.window) { _, _ in
            ticks += 1
            fixture.toggle.setNeedsDisplay()
        }
        defer { link.invalidate() }
        _ = try await fixture.play("wait frames 1")
        let before = ticks
        let report = try await fixture.play("wait frames 5")
        #expect(ticks - before >= 5)
        #expect(report.commits.count == 5)
    }

    @Test("a skipped wall-clock wait still runs the frames that time would bring")
    func fastWaitAdvancesAnimation() async throws {
        let fixture = PlaybackFixture()
        var timestamps: [UInt32] = []
        let link = DisplayLink(window: fixture.window) { _, timestamp in
            timestamps.append(timestamp)
            fixture.toggle.setNeedsDisplay()
        }
        defer { link.invalidate() }
        _ = try await fixture.play("move 1 1")
        let before = timestamps.count
        _ = try await fixture.play("wait 1600ms")
        let during = timestamps[before...]
        #expect(during.count == 100)
        #expect(zip(during, during.dropFirst()).allSatisfy { $1 - $0 == 16 })
    }

    @Test("fast speed skips wall-clock waits but advances the event clock")
    func fastSkipsWaits() async throws {
        let fixture = PlaybackFixture()
        // A wait far longer than any loaded machine needs for the rest of the script: the
        // bound separates skipping from waiting without assuming an idle machine.
        let script = try ScriptParser().parse("wait 600s\nmove 1 1", file: "f.dsc")
        let player = ScriptPlayer(window: fixture.window)
        var times: [UInt32] = []
        player.onDispatch = { _, time in times.append(time) }
        let started = ContinuousClock.now
        _ = try await player.play(script)
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(times.first.map { $0 >= 600_000 } == true, "event times \(times)")
    }

    @Test("realtime speed honours wall-clock waits")
    func realtimeWaits() async throws {
        let fixture = PlaybackFixture()
        var options = PlaybackOptions()
        options.speed = .realtime
        let started = ContinuousClock.now
        _ = try await fixture.play("wait 120ms", options: options)
        #expect(ContinuousClock.now - started >= .milliseconds(120))
    }

    @Test("wait idle times out on an endless animation with an error naming the line")
    func waitIdleTimesOut() async throws {
        let fixture = PlaybackFixture()
        let link = DisplayLink(window: fixture.window) { _, _ in fixture.toggle.setNeedsDisplay() }
        defer { link.invalidate() }
        _ = try await fixture.play("move 1 1")  // the first frame, with the default timeout
        var options = PlaybackOptions()
        options.timeout = .milliseconds(100)
        await #expect {
            _ = try await fixture.play("move 2 2\nwait idle", options: options)
        } throws: { error in
            // The message names the line and says what the window did meanwhile.
            (error as? PlaybackError)?.description.wholeMatch(
                of: #/play\.dsc:2:1: error: timed out after 0\.1 seconds waiting for the window to become idle \(frames presented: (\d+), display passes: \1\)/#) != nil
        }
    }

    @Test("a compositor that keeps every buffer neither hangs nor spins the player")
    func buffersNeverReleased() async throws {
        let fixture = PlaybackFixture(releasePolicy: .never)
        let report = try await fixture.play(
            """
            click 20 20
            wait idle
            click 20 20
            wait idle
            click 20 20
            wait idle
            wait frames 3
            """)
        #expect(report.commandCount == 7)
        #expect(fixture.surface.presentCount == 2)
        #expect(fixture.toggle.isOn)
    }

    @Test("cancelling the playing task stops playback with an error")
    func cancellationStopsPlayback() async throws {
        let fixture = PlaybackFixture()
        let link = DisplayLink(window: fixture.window) { _, _ in fixture.toggle.setNeedsDisplay() }
        defer { link.invalidate() }
        let script = try ScriptParser().parse("move 1 1\nwait idle\nclick 20 20", file: "c.dsc")
        let player = ScriptPlayer(window: fixture.window)
        let task = Task { @MainActor in try await player.play(script) }
        // Not a wait for an event: cancelling at any point must stop playback, so the
        // task is cancelled after an arbitrary short while.
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let started = ContinuousClock.now
        await #expect {
            _ = try await task.value
        } throws: { error in
            // Where it stops depends on how far it got in 50 ms; it never reaches line 3.
            let description = (error as? PlaybackError)?.description ?? ""
            return description.hasPrefix("c.dsc:") && description.contains(": error: playback was cancelled")
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(fixture.toggle.isOn == false)
    }

    @Test("with a manual frame clock the player fires the frames itself")
    func manualFrameClock() async throws {
        let fixture = PlaybackFixture(frameClock: .manual)
        let report = try await fixture.play(
            """
            click 20 20
            wait idle
            click 20 20
            expect pixel 20 20 #0000ff
            """)
        #expect(report.succeeded)
        #expect(fixture.surface.framesFired >= 2)
        #expect(fixture.toggle.drawCalls == 3)
    }

    @Test("application commands run their handler with their parsed payload")
    func customCommandRuns() async throws {
        let fixture = PlaybackFixture()
        let registry = ScriptCommandRegistry([
            ScriptCommandDefinition(
                name: "scene", usage: "scene COLOUR",
                parse: { (reader: inout ArgumentReader) throws(ScriptError) -> String in
                    let name = try reader.word("COLOUR")
                    guard name == "red" || name == "green" else {
                        throw reader.error("unknown scene '\(name)'")
                    }
                    return name
                },
                handler: { name, player in
                    #expect(player.currentLocation == SourceLocation(file: "play.dsc", line: 2, column: 3))
                    player.window.contentView.backgroundColor = name == "red" ? .red : .green
                    let frames = player.window.frameCount
                    try await player.waitForFrames(1)
                    #expect(player.window.frameCount == frames + 1)
                })
        ])
        let report = try await fixture.play(
            "# show a scene\n  scene green\nexpect pixel 2 2 #00ff00", registry: registry)
        #expect(report.failures.map(\.description) == [])
    }

    @Test("the player does not block the main queue while it waits")
    func playerLetsMainQueueRun() async throws {
        let fixture = PlaybackFixture()
        var ran = false
        DispatchQueue.main.async { ran = true }
        let registry = ScriptCommandRegistry([
            ScriptCommandDefinition(
                name: "check-ran", usage: "check-ran",
                parse: { (_: inout ArgumentReader) throws(ScriptError) in () },
                handler: { _, _ in
                    if !ran { throw CancellationError() }
                })
        ])
        let report = try await fixture.play("wait 10ms\ncheck-ran", registry: registry)
        #expect(report.commandCount == 2)
    }
}

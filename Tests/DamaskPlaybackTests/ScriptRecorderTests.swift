import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskPlayback

@Suite("Script recorder", .exclusive, .timeLimit(.minutes(5)))
struct ScriptRecorderTests {
    private func pointer(
        _ kind: PointerEvent.Kind, _ x: CGFloat, _ y: CGFloat, _ button: MouseButton? = nil,
        clicks: Int = 0
    ) -> Event {
        .pointer(PointerEvent(kind: kind, location: CGPoint(x: x, y: y), button: button, clickCount: clicks))
    }

    private func key(
        _ phase: KeyEvent.Phase, _ keysym: UInt32, _ text: String = "",
        _ modifiers: ModifierFlags = []
    ) -> Event {
        .key(KeyEvent(phase: phase, keysym: keysym, text: text, modifiers: modifiers))
    }

    @Test("pointer motion is coalesced per frame and pauses become waits")
    func motionCoalescedPerFrame() {
        let recorder = ScriptRecorder()
        recorder.record(pointer(.entered, 1, 1), at: 0)
        recorder.record(pointer(.moved, 2, 2), at: 5)
        recorder.record(pointer(.moved, 3, 3), at: 12)
        recorder.record(pointer(.moved, 4, 4), at: 20)
        recorder.record(pointer(.moved, 5, 5), at: 30)
        recorder.record(pointer(.moved, 6, 6), at: 100)
        #expect(
            recorder.finish() == [
                .move(CGPoint(x: 3, y: 3)),
                .move(CGPoint(x: 5, y: 5)),
                .wait(.duration(milliseconds: 70)),
                .move(CGPoint(x: 6, y: 6)),
            ])
    }

    @Test("press and release at one spot become a click, a second one a double click")
    func pressReleaseBecomesClick() {
        let recorder = ScriptRecorder()
        recorder.record(pointer(.moved, 10, 20), at: 0)
        recorder.record(pointer(.down, 10, 20, .left, clicks: 1), at: 2)
        recorder.record(pointer(.up, 10, 20, .left, clicks: 1), at: 3)
        recorder.record(pointer(.down, 10, 20, .left, clicks: 2), at: 4)
        recorder.record(pointer(.up, 10, 20, .left, clicks: 2), at: 5)
        recorder.record(pointer(.down, 10, 20, .right, clicks: 1), at: 50)
        recorder.record(pointer(.up, 10, 20, .right, clicks: 1), at: 51)
        #expect(
            recorder.finish() == [
                .click(CGPoint(x: 10, y: 20), button: .left, count: 2),
                .wait(.duration(milliseconds: 45)),
                .click(CGPoint(x: 10, y: 20), button: .right, count: 1),
            ])
    }

    @Test("a third press with click count 3 at the same spot makes the click a triple click")
    func thirdPressBecomesTripleClick() {
        let recorder = ScriptRecorder()
        recorder.record(pointer(.moved, 10, 20), at: 0)
        for clicks in 1...3 {
            recorder.record(pointer(.down, 10, 20, .left, clicks: clicks), at: UInt32(2 * clicks))
            recorder.record(pointer(.up, 10, 20, .left, clicks: clicks), at: UInt32(2 * clicks + 1))
        }
        let commands = recorder.finish()
        #expect(commands == [.click(CGPoint(x: 10, y: 20), button: .left, count: 3)])
        #expect(ScriptPrinter.print(commands) == "click 10 20 left triple\n")
    }

    @Test("a press that moves before release is kept as move, press, move, release")
    func dragIsKeptAsPressMoveRelease() {
        let recorder = ScriptRecorder()
        recorder.record(pointer(.moved, 1, 1), at: 0)
        recorder.record(pointer(.down, 1, 1, .left, clicks: 1), at: 1)
        recorder.record(pointer(.moved, 5, 5), at: 2)
        recorder.record(pointer(.moved, 9, 9), at: 40)
        recorder.record(pointer(.up, 9, 9, .left, clicks: 1), at: 41)
        #expect(
            recorder.finish() == [
                .move(CGPoint(x: 1, y: 1)), .press(.left), .move(CGPoint(x: 5, y: 5)),
                .wait(.duration(milliseconds: 38)), .move(CGPoint(x: 9, y: 9)), .release(.left),
            ])
    }

    @Test("keystrokes become type, chords become key, held modifiers keydown and keyup")
    func keysBecomeTypeAndChords() {
        let recorder = ScriptRecorder()
        recorder.record(key(.down, 0xFFE1), at: 0)  // Shift_L
        recorder.record(key(.down, 0x48, "H", .shift), at: 1)
        recorder.record(key(.up, 0x48, "", .shift), at: 2)
        recorder.record(key(.up, 0xFFE1, "", .shift), at: 3)
        recorder.record(key(.down, 0x69, "i"), at: 4)
        recorder.record(key(.up, 0x69), at: 5)
        recorder.record(key(.down, 0x21, "!"), at: 300)
        recorder.record(key(.down, 0xFFE3), at: 400)  // Control_L
        recorder.record(key(.down, 0x73, "\u{13}", .control), at: 401)
        recorder.record(key(.up, 0xFFE3, "", .control), at: 402)
        recorder.record(key(.down, 0xFF0D, "\r"), at: 403)
        recorder.record(key(.down, 0xFFE1), at: 500)
        recorder.record(pointer(.down, 0, 0, .left, clicks: 1), at: 501)
        recorder.record(pointer(.up, 0, 0, .left, clicks: 1), at: 502)
        recorder.record(key(.up, 0xFFE1, "", .shift), at: 503)
        recorder.record(key(.down, 0xFFE9), at: 600)  // Alt_L alone
        recorder.record(key(.up, 0xFFE9, "", .alt), at: 601)
        #expect(
            recorder.finish() == [
                .type("Hi"),
                .wait(.duration(milliseconds: 295)),
                .type("!"),
                .wait(.duration(milliseconds: 100)),
                .key(KeyChord(modifiers: [.control], keyName: "s")),
                .key(KeyChord(keyName: "Return")),
                .wait(.duration(milliseconds: 97)),
                .keyDown("Shift_L"),
                .click(.zero, button: .left, count: 1),
                .keyUp("Shift_L"),
                .wait(.duration(milliseconds: 97)),
                .key(KeyChord(keyName: "Alt_L")),
            ])
    }

    @Test("scroll steps and touches are recorded")
    func scrollAndTouch() {
        let recorder = ScriptRecorder()
        recorder.record(.scroll(ScrollEvent(location: CGPoint(x: 3, y: 4), deltaY: 30, discreteY: 3)), at: 0)
        recorder.record(.scroll(ScrollEvent(location: CGPoint(x: 3, y: 4), deltaX: -20)), at: 1)
        recorder.record(.touch(TouchEvent(phase: .began, id: 2, location: CGPoint(x: 1, y: 1))), at: 2)
        recorder.record(.touch(TouchEvent(phase: .cancelled, id: 2, location: CGPoint(x: 1, y: 1))), at: 3)
        #expect(
            recorder.finish() == [
                .move(CGPoint(x: 3, y: 4)), .scroll(dx: 0, dy: 3), .scroll(dx: -2, dy: 0),
                .touchDown(id: 2, at: CGPoint(x: 1, y: 1)), .touchUp(id: 2),
            ])
    }

    @MainActor
    @Test("recording what the player sends gives back the script")
    func playRecordRoundTrip() async throws {
        let text = """
            click 20 20 left
            wait 100ms
            click 22 25 right double
            type "Hello, World"
            key ctrl+a
            wait 50ms
            keydown Shift_L
            click 70 20 left
            keyup Shift_L
            move 5 70
            scroll 0 -2
            touch down 1 5 65
            touch move 1 6 66
            touch up 1
            """
        let script = try ScriptParser().parse(text, file: "r.dsc")
        let fixture = PlaybackFixture()
        var options = PlaybackOptions()
        options.millisecondsPerEvent = 0
        let player = ScriptPlayer(window: fixture.window, options: options)
        let recorder = ScriptRecorder()
        player.onDispatch = { event, time in recorder.record(event, at: time) }
        _ = try await player.play(script)
        #expect(recorder.finish() == script.commands)
        #expect(try ScriptParser().parse(recorder.script(), file: "again.dsc").commands == script.commands)
    }
}

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's clipboard and primary selection against other Wayland clients (wl-clipboard's
/// `wl-copy` and `wl-paste`) under Weston with a real seat (Xvfb + xdotool).
@Suite("Demo clipboard with other clients (real seat)", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct DemoClipboardTests {
    @Test(
        "Ctrl+C in the field reaches wl-paste, and wl-copy's text pastes into the field with Ctrl+V (Weston)",
        .integration)
    func clipboardWithOtherClients() throws {
        let seat = try DemoOnSeat(arguments: ["--scene", "text"])
        // From outside the window, so that the move into the field enters it.
        try seat.move(toScreen: 0, 0)
        try seat.move(to: 300, 180)
        try seat.click()
        try seat.press("h", "e", "l", "l", "o")
        try seat.press("ctrl+a", "ctrl+c")
        let pasted = try WlClipboard.paste(["--no-newline"], environment: seat.weston.clientEnvironment)
        #expect(pasted.status == 0 && pasted.output == "hello", "wl-paste: \(pasted.status) \(pasted.output)")
        // Weston 10 offers no primary selection (wl-paste --primary says so), so the
        // primary selection is tested headless only (DemoTextFieldTests).

        let copied = try WlClipboard.copy([" from wl-copy"], environment: seat.weston.clientEnvironment)
        #expect(copied.status == 0, "wl-copy: \(copied.output)")
        try seat.move(to: 310, 181)
        try seat.click()
        try seat.press("End", "ctrl+v")
        try seat.press("Escape")
        // The I-beam over the field would cover a glyph in the screenshot.
        try seat.move(to: 700, 500)
        var shows = Int.max
        var last: Bitmap?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let content = try seat.content(of: try seat.screenshot())
            last = content
            shows = try DemoLanguagesTests.fieldShows("hello from wl-copy", in: content)
            if shows < 20 { break }
            usleep(100_000)
        } while Date() < deadline
        if shows >= 20, let last {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-clipboard-\(UUID().uuidString).png").path
            try? last.writePNG(to: path)
            Issue.record("the field does not show the pasted text: \(path)")
        }
        #expect(seat.quit() == 0)
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field under GNOME Shell (headless, a private system bus for it) with IBus
/// (Hangul) as the input method: mutter's text-input-v3 reaches IBus through the shell.
@Suite("the demo's text field with IBus under GNOME Shell", .exclusive, .integration)
struct GnomeShellTextInputTests {
    @Test("IBus Hangul in GNOME Shell types 한국 into the demo's field from Hangul, g k s r n r and space")
    func ibusHangul() throws {
        let shell = try GnomeShellSession()
        defer { shell.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = (directory as NSString).appendingPathComponent("focus.damask")
        try "scene text\nwait idle\nclick 300 180\nwait idle\n".write(toFile: script, atomically: true, encoding: .utf8)
        let demo = try WaylandDebugDemo(["--speed", "fast", "--stay", "--play", script], environment: shell.clientEnvironment)
        defer { demo.stop() }
        // Focused, the field enables text-input-v3; the shell hands it to IBus.
        #expect(demo.waitForFocus(timeout: 30), "\(demo.process.transcript.suffix(1500))")
        let enabled = demo.process.waitUntil(timeout: 30) { lines in
            lines.contains { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".enable()") }
        }
        #expect(enabled, "\(demo.process.transcript.suffix(1500))")
        // Debian's ibus-hangul starts in Latin mode: the Hangul key switches.
        #expect(shell.tap([0xFF31]))
        #expect(shell.type("gksrnr"))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".preedit_string(\"국\"") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type(" "))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".commit_string(\"국\")") } })
        // Read back: Ctrl+A, Ctrl+C in the demo, then wl-paste.
        #expect(shell.tap([0xFFE3, 0x61]) && shell.tap([0xFFE3, 0x63]))
        #expect(demo.waitForSelectionTaken(on: "wl_data_device"),
            "\(demo.process.lines.filter { $0.contains("wl_keyboard@") || $0.contains("set_selection") || $0.contains("text_input") }.suffix(30))")
        let paste = try WlClipboard.paste(["--no-newline"], environment: shell.clientEnvironment)
        #expect(paste.output == "한국 ", "\(paste.output)")
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field under GNOME Shell (headless, a private system bus for it) with IBus
/// (Hangul) as the input method: mutter's text-input-v3 reaches IBus through the shell.
/// Keys come through RemoteDesktop.
@Suite("the demo's text field with IBus under GNOME Shell", .exclusive, .integration, .timeLimit(.minutes(10)))
struct GnomeShellTextInputTests {
    /// Runs GNOME Shell with IBus's `inputSource` engine and the demo with its field focused;
    /// once the field has enabled text-input-v3, probes (at most 5 times) with `probe` until
    /// the demo's text-input events say IBus composes (`composed`), else erases the probe's
    /// key with BackSpace and tries again: the shell hands IBus the focus asynchronously
    /// (D-Bus), after the demo's enable, and a key typed before that bypasses IBus. Then types
    /// `rest`, waits for the preedit `preedit`, types a space, waits for the commit `commit`,
    /// and checks the field reports `reported` (surrounding text and its caret byte).
    static func compose(
        inputSource: String, probe: (GnomeShellSession) -> Bool, composed: @escaping (String) -> Bool,
        rest: String, preedit: String, commit: String, reported: (text: String, caret: Int)
    ) throws {
        let shell = try GnomeShellSession(inputSource: inputSource)
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
        var composing = false
        for _ in 1...5 where !composing {
            #expect(probe(shell))
            composing = demo.process.waitUntil(timeout: 3) { lines in lines.contains(where: composed) }
            if !composing { shell.tap([0xFF08]) }
        }
        try #require(composing, "IBus never composed: \(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type(rest))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".preedit_string(\"\(preedit)\"") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type(" "))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".commit_string(\"\(commit)\")") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        // Read back: the field's text as the demo reports it to the input method (the
        // surrounding text, UTF-8 bytes). Ctrl+A, Ctrl+C and wl-paste, as under sway, is not
        // used here: with IBus in the path mutter sent the demo the Ctrl press without a
        // modifiers event in 2 runs of 4 (the C came as text).
        let expected = ".set_surrounding_text(\"\(reported.text)\", \(reported.caret), \(reported.caret))"
        let told = demo.process.waitUntil(timeout: 20) { lines in
            lines.last { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".set_surrounding_text(") }?.hasSuffix(expected) == true
        }
        #expect(told, "\(demo.requests(containing: ".set_surrounding_text(").suffix(3))")
    }

    @Test("IBus Hangul in GNOME Shell types 한국 into the demo's field from Hangul, g k s r n r and space; the field reports it as its surrounding text")
    func ibusHangul() throws {
        // Debian's ibus-hangul starts in Latin mode: the Hangul key switches; Hangul then g
        // gives the preedit ㅎ once IBus has the focus (a plain g otherwise).
        try Self.compose(
            inputSource: "hangul", probe: { $0.tap([0xFF31]) && $0.type("g") },
            composed: { $0.contains(".preedit_string(\"ㅎ\"") },
            rest: "ksrnr", preedit: "국", commit: "국", reported: ("한국 ", 7))
    }

    @Test("IBus pinyin (ibus-libpinyin) in GNOME Shell types 你好 into the demo's field from n i h a o and space; the field reports it as its surrounding text")
    func ibusPinyin() throws {
        // n composes once IBus has the focus (a preedit appears: libpinyin shows its best
        // candidate's characters). Space commits 你好 without a space.
        try Self.compose(
            inputSource: "libpinyin", probe: { $0.type("n") },
            composed: { $0.contains(".preedit_string(\"") && !$0.contains(".preedit_string(\"\"") && !$0.contains(".preedit_string(nil") },
            rest: "ihao", preedit: "你好", commit: "你好", reported: ("你好", 6))
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field under GNOME Shell (headless, a private system bus for it) with IBus
/// (Hangul) as the input method: mutter's text-input-v3 reaches IBus through the shell.
/// Keys come through RemoteDesktop.
@Suite("the demo's text field with IBus under GNOME Shell", .exclusive, .integration, .timeLimit(.minutes(10)))
struct GnomeShellTextInputTests {
    @Test("IBus Hangul in GNOME Shell types 한국 into the demo's field from Hangul, g k s r n r and space; the field reports it as its surrounding text")
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
        // Debian's ibus-hangul starts in Latin mode: the Hangul key switches. The shell hands
        // IBus the focus asynchronously (D-Bus), after the demo's enable: a key typed before
        // that bypasses IBus. So the switch is probed: Hangul then g must give the preedit ㅎ;
        // otherwise the plain g is erased and the probe repeated (at most 5 times).
        var composing = false
        for _ in 1...5 where !composing {
            #expect(shell.tap([0xFF31]) && shell.type("g"))
            composing = demo.process.waitUntil(timeout: 3) { lines in lines.contains { $0.contains(".preedit_string(\"ㅎ\"") } }
            if !composing { shell.tap([0xFF08]) }
        }
        try #require(composing, "IBus never composed: \(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type("ksrnr"))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".preedit_string(\"국\"") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type(" "))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".commit_string(\"국\")") } })
        // Read back: the field's text as the demo reports it to the input method (the
        // surrounding text, UTF-8 bytes: the caret after "한국 " is at 7). Ctrl+A, Ctrl+C and
        // wl-paste, as under sway, is not used here: with IBus in the path mutter sent the
        // demo the Ctrl press without a modifiers event in 2 runs of 4 (the C came as text).
        let reported = demo.process.waitUntil(timeout: 20) { lines in
            lines.last { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".set_surrounding_text(") }?
                .hasSuffix(".set_surrounding_text(\"한국 \", 7, 7)") == true
        }
        #expect(reported, "\(demo.requests(containing: ".set_surrounding_text(").suffix(3))")
    }

    @Test("IBus pinyin (ibus-libpinyin) in GNOME Shell types 你好 into the demo's field from n i h a o and space; the field reports it as its surrounding text")
    func ibusPinyin() throws {
        let shell = try GnomeShellSession(inputSource: "libpinyin")
        defer { shell.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = (directory as NSString).appendingPathComponent("focus.damask")
        try "scene text\nwait idle\nclick 300 180\nwait idle\n".write(toFile: script, atomically: true, encoding: .utf8)
        let demo = try WaylandDebugDemo(["--speed", "fast", "--stay", "--play", script], environment: shell.clientEnvironment)
        defer { demo.stop() }
        #expect(demo.waitForFocus(timeout: 30), "\(demo.process.transcript.suffix(1500))")
        let enabled = demo.process.waitUntil(timeout: 30) { lines in
            lines.contains { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".enable()") }
        }
        #expect(enabled, "\(demo.process.transcript.suffix(1500))")
        // As with Hangul, IBus takes the focus asynchronously: n is probed until it composes
        // (a preedit appears; libpinyin shows its best candidate's characters), else erased.
        var composing = false
        for _ in 1...5 where !composing {
            #expect(shell.type("n"))
            composing = demo.process.waitUntil(timeout: 3) { lines in
                lines.contains { $0.contains(".preedit_string(\"") && !$0.contains(".preedit_string(\"\"") && !$0.contains(".preedit_string(nil") }
            }
            if !composing { shell.tap([0xFF08]) }
        }
        try #require(composing, "IBus never composed: \(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type("ihao"))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".preedit_string(\"你好\"") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        #expect(shell.type(" "))
        #expect(demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(".commit_string(\"你好\")") } },
            "\(demo.process.lines.filter { $0.contains("text_input") }.suffix(20))")
        let reported = demo.process.waitUntil(timeout: 20) { lines in
            lines.last { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".set_surrounding_text(") }?
                .hasSuffix(".set_surrounding_text(\"你好\", 6, 6)") == true
        }
        #expect(reported, "\(demo.requests(containing: ".set_surrounding_text(").suffix(3))")
    }
}

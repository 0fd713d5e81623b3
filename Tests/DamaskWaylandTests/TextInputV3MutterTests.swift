import Foundation
import Testing

/// zwp_text_input_v3 against a real compositor: headless mutter 43 offers it (it has no
/// input method here; helper tests with IBus/Fcitx under GNOME and sway live elsewhere), so
/// this pins the client's side of the protocol — enable on focus with the field's state in
/// one commit, changes sent as the text and caret move, disable on blur — and that mutter
/// accepts every request (no protocol error: the demo exits 0).
@Suite("zwp_text_input_v3 under mutter", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct TextInputV3MutterTests {
    @Test("Focusing the field enables text-input v3 with its surrounding text, content type and cursor rectangle; typing updates them; Escape disables")
    func enableUpdateDisable() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = (directory as NSString).appendingPathComponent("script.damask")
        try """
            scene text
            wait idle
            click 300 180
            type "ab"
            expect text "ab"
            key Escape
            wait idle

            """.write(toFile: script, atomically: true, encoding: .utf8)
        let demo = try WaylandDebugDemo(["--speed", "fast", "--size", "600x400", "--stay", "--play", script], environment: mutter.environment)
        defer { demo.stop() }
        // mutter focuses the new window (its virtual keyboard is on the seat): the
        // text-input focus follows the keyboard's.
        try #require(demo.waitForFocus(timeout: 30), "no keyboard focus: \(demo.process.transcript.suffix(3000))")
        let held = demo.process.waitForLine(timeout: 60) { $0.contains("every expectation held") || $0.contains("expectation failed") }
        try #require(held?.line.contains("every expectation held") == true, "\(demo.process.transcript.suffix(4000))")
        // The disable comes after the script's last key; wait for it (its request line).
        _ = demo.process.waitUntil(timeout: 20) { lines in lines.contains { $0.contains(" -> zwp_text_input_v3@") && $0.contains(".disable()") } }
        // "[…] -> zwp_text_input_v3@12.enable()" → "enable()" (requests on the object only).
        let requests = demo.requests(containing: "-> zwp_text_input_v3@").compactMap { line -> String? in
            guard let object = line.range(of: "-> zwp_text_input_v3@") else { return nil }
            return String(line[object.upperBound...].drop { $0.isNumber }.dropFirst())
        }
        let enable = try #require(requests.firstIndex(of: "enable()"), "no enable: \(requests)")
        let firstCommit = try #require(requests[enable...].firstIndex(of: "commit()"), "\(requests)")
        let enabling = requests[enable..<firstCommit]
        #expect(enabling.contains { $0.hasPrefix("set_surrounding_text(") }, "\(requests)")
        #expect(enabling.contains("set_content_type(0, 0)"), "\(requests)")
        #expect(enabling.contains { $0.hasPrefix("set_cursor_rectangle(") }, "\(requests)")
        #expect(requests.contains("set_surrounding_text(\"ab\", 2, 2)"), "\(requests)")
        let disable = try #require(requests.lastIndex(of: "disable()"), "no disable after Escape: \(requests)")
        #expect(disable > enable && requests[disable...].contains("commit()"), "\(requests)")
        #expect(demo.process.isRunning, "the demo is still up (mutter raised no protocol error)")
    }
}

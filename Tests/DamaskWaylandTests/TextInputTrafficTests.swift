import Foundation
import Testing

/// What a focused text field sends over zwp_text_input_v1 per key, read from Weston's
/// protocol log: per change only its changed parts, closed by one `commit_state`, and
/// nothing for a key that changes nothing. Also pins why the client cannot stay silent
/// when no input method is bound: Weston 10 answers `activate` with `enter` all the same.
@Suite("Text-input traffic per key (zwp_text_input_v1, Weston)", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct TextInputTrafficTests {
    /// Keys typed in each test.
    static let typed = "abcdefghijklmnopqrst"
    /// Deletes after the caret at the line's start: the text changes, the caret does not move.
    static let deletes = 5

    /// The demo focuses its text field, types ``typed``, presses End at the end (nothing
    /// changes), Home and Delete ``deletes`` times, and checks the text; returns Weston's
    /// protocol log lines about zwp_text_input_v1 (requests and events) up to the first
    /// Home, and all of them.
    static func typeIntoDemo(on weston: PrivateCompositor) throws -> [String] {
        let demo = try DemoRun.run(
            ["--speed", "fast"],
            script: """
                scene text
                wait idle
                click 300 180
                type "\(typed)"
                key End
                key End
                key End
                wait frames 2
                key Home
                wait frames 2
                \(String(repeating: "key Delete\n", count: deletes))wait frames 2
                expect text "\(typed.dropFirst(deletes))"

                """,
            environment: weston.clientEnvironment, timeout: 90)
        defer { demo.removeDirectory() }
        #expect(demo.status == 0, "\(demo.output)")
        return weston.logLines(containing: "zwp_text_input_v1@")
    }

    /// How many of `lines` carry `call` (e.g. `.commit_state(`).
    static func count(_ call: String, in lines: [String]) -> Int {
        lines.count { $0.contains(call) }
    }

    /// Checks the requests of ``typeIntoDemo(on:)``: the activation's batch, then the
    /// changes coalesced into at most one batch per frame (sent just before the window's
    /// commit, or 20 ms after a change when no commit came first, TextInputSession), each
    /// with one reset, surrounding text and commit_state. How many batches the typed keys
    /// make depends on how many frames they span, so that count is bounded, not exact; End
    /// at the end changes nothing and adds nothing; Home's batch sends a cursor rectangle;
    /// the Deletes' (the last) does not, as the caret stayed.
    static func checkRequests(_ lines: [String]) {
        let log = lines.joined(separator: "\n")
        let keys = typed.count
        let batches = count(".commit_state(", in: lines)
        #expect(count(".activate(", in: lines) == 1, "\(log)")
        #expect(count(".set_content_type(", in: lines) == 1, "\(log)")
        // The activation's, the typing's (1...keys), Home's and the Deletes' (1...deletes).
        #expect(batches >= 4 && batches <= 1 + keys + 1 + deletes, "\(log)")
        // Every batch after the activation changed the text (typed, not the input method's).
        #expect(count(".set_surrounding_text(", in: lines) == batches, "\(log)")
        #expect(count(".reset(", in: lines) == batches - 1, "\(log)")
        // The activation's, one per typing batch (the caret moved) and Home's; the Deletes'
        // batches send none.
        let rectangles = count(".set_cursor_rectangle(", in: lines)
        #expect(rectangles >= 3 && rectangles <= batches - 1, "\(log)")
        let requests = lines.filter { $0.contains(" rq ") }
        let lastRectangle = requests.lastIndex { $0.contains(".set_cursor_rectangle(") } ?? -1
        let lastResets = requests.indices.filter { requests[$0].contains(".reset(") }.suffix(1)
        #expect(lastResets.allSatisfy { $0 > lastRectangle }, "the Deletes' batch sent a cursor rectangle: \(log)")
    }

    @Test("With no input method bound: Weston still answers the activation with enter; each key sends only what it changed")
    func noInputMethod() throws {
        let weston = try PrivateCompositor(.weston(seat: true))
        defer { weston.stop() }
        let lines = try Self.typeIntoDemo(on: weston)
        // Why the client keeps sending: nothing tells it that no input method is bound.
        #expect(Self.count(".enter(", in: lines) == 1, "\(lines.joined(separator: "\n"))")
        Self.checkRequests(lines)
    }

    @Test("With an input method bound: each key sends only what it changed, and the input method sees the final text")
    func inputMethodBound() throws {
        let executable = try ScriptedInputMethod.executable()
        let remaining = String(Self.typed.dropFirst(Self.deletes))
        let inputMethod = try ScriptedInputMethod(script: "wait activate\nwait surrounding \"\(remaining)\"\n")
        defer { inputMethod.remove() }
        let weston = try PrivateCompositor(.weston(seat: true, inputMethod: executable), environment: inputMethod.environment())
        defer { weston.stop() }
        #expect(inputMethod.waitForLine("ready"), "the input method never bound: \(inputMethod.log)")
        let lines = try Self.typeIntoDemo(on: weston)
        #expect(inputMethod.waitForLine("surrounding \"\(remaining)\" 0 0"), "\(inputMethod.log)")
        Self.checkRequests(lines)
    }

    @Test("Typing 3,000 characters from a script with no pauses keeps the connection: the surrounding text goes out at most once per frame")
    func fastScriptTyping() throws {
        let weston = try PrivateCompositor(.weston(seat: true))
        defer { weston.stop() }
        let words = ["lorem ", "ipsum ", "dolor ", "sit ", "amet "]
        var text = ""
        while text.count < 3_000 { text += words[text.count % words.count] }
        text = String(text.prefix(3_000))
        let demo = try DemoRun.run(
            ["--speed", "fast"],
            script: """
                scene text
                wait idle
                click 300 180
                type "\(text)"
                wait frames 2
                expect text "\(text)"

                """,
            environment: weston.clientEnvironment, timeout: 240)
        defer { demo.removeDirectory() }
        #expect(demo.status == 0, "\(demo.output)")
        let lines = weston.logLines(containing: "zwp_text_input_v1@")
        // Sent per key, this was 3,000 batches (each up to 4,000 bytes of surrounding text);
        // coalesced, a batch goes out before a frame's commit or 20 ms after a change, and
        // the script types many keys per frame.
        let batches = Self.count(".commit_state(", in: lines)
        #expect(batches >= 2, "the text field never sent its state")
        #expect(batches <= text.count / 5, "\(batches) text-input batches for \(text.count) keys")
    }
}

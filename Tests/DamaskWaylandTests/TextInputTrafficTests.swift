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
                key Home
                \(String(repeating: "key Delete\n", count: deletes))expect text "\(typed.dropFirst(deletes))"

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

    /// Checks the requests of ``typeIntoDemo(on:)``: the activation's batch, then per typed
    /// key one reset, surrounding text, cursor rectangle and commit_state; nothing for End
    /// at the end; for Home a surrounding text and a cursor rectangle; for each Delete no
    /// cursor rectangle (the caret stayed).
    static func checkRequests(_ lines: [String]) {
        let log = lines.joined(separator: "\n")
        let keys = typed.count
        #expect(count(".activate(", in: lines) == 1, "\(log)")
        #expect(count(".set_content_type(", in: lines) == 1, "\(log)")
        // Activation + each typed key + Home + each Delete.
        #expect(count(".commit_state(", in: lines) == 1 + keys + 1 + deletes, "\(log)")
        #expect(count(".set_surrounding_text(", in: lines) == 1 + keys + 1 + deletes, "\(log)")
        #expect(count(".reset(", in: lines) == keys + 1 + deletes, "\(log)")
        // The activation's, one per typed key and Home's: none for the Deletes.
        #expect(count(".set_cursor_rectangle(", in: lines) == 1 + keys + 1, "\(log)")
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
}

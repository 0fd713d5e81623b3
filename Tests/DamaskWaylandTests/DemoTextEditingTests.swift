import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field's editing shortcuts as a user presses them (headless, input
/// scripts): word moves and deletions, undo and redo, visual arrows in mixed text.
@Suite("Demo text field: word editing, undo and redo", .exclusive)
struct DemoTextEditingTests {
    /// Plays `body` in the text scene with the field focused; returns the run's status and output.
    static func play(_ body: String) throws -> (status: Int32, output: String) {
        let run = try DemoRun.run(DemoLanguagesTests.fast, script: "scene text\nwait idle\nclick 300 180\n" + body + "\n")
        defer { run.removeDirectory() }
        return (run.status, run.output)
    }

    @Test("Ctrl+Backspace, Ctrl+Delete and Ctrl+arrows edit by word; Shift+Ctrl+Left selects a word")
    func wordShortcuts() throws {
        let run = try Self.play(
            """
            type "one two, three"
            key ctrl+BackSpace
            expect text "one two, "
            key ctrl+Left
            key ctrl+Left
            type "["
            expect text "[one two, "
            key ctrl+Right
            key ctrl+Delete
            expect text "[one, "
            key End
            key ctrl+shift+Left
            type "x"
            expect text "[x"
            """)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("Ctrl+Z undoes a run of typing at once, Ctrl+Shift+Z and Ctrl+Y redo")
    func undoRedo() throws {
        let run = try Self.play(
            """
            type "hello"
            key Home
            type "> "
            expect text "> hello"
            key ctrl+z
            expect text "hello"
            key ctrl+z
            expect text ""
            key ctrl+shift+z
            expect text "hello"
            key ctrl+y
            expect text "> hello"
            key BackSpace
            key ctrl+z
            expect text "> hello"
            """)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("Left moves the caret left on screen through an Arabic word in a Latin line")
    func visualArrows() throws {
        // From the end of "ab مرحبا": Left steps leftwards; after the space, the next
        // typed Latin letter goes between "ab " and the Arabic word in logical order.
        let run = try Self.play(
            """
            type "ab "
            layout ara
            type "مرحبا"
            layout us
            key Home
            key Right
            key Right
            key Right
            key Right
            type "X"
            expect text "ab مرحبXا"
            """)
        #expect(run.status == 0, "\(run.output)")
    }
}

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field's editing shortcuts as a user presses them (headless, input
/// scripts): word moves and deletions, undo and redo, visual arrows in mixed text.
@Suite("Demo text field: word editing, undo and redo", .exclusive, .timeLimit(.minutes(5)))
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

/// Scripts' `ime` commands in the demo's text field (headless): the preedit drawn inline and
/// underlined with its own cursor, commits, deletions, and the preedit gone on blur.
@Suite("Demo text field: input method composition", .exclusive, .timeLimit(.minutes(5)))
struct DemoCompositionTests {
    @Test("ime preedit, commit and delete compose Korean in the field; blur drops a preedit")
    func composeKorean() throws {
        let run = try DemoTextEditingTests.play(
            """
            type "a"
            ime preedit "ㅎ"
            expect text "aㅎ"
            ime preedit "하" cursor 3
            expect text "a하"
            ime commit "한"
            expect text "a한"
            ime preedit "ㄱ"
            ime commit "국"
            expect text "a한국"
            ime delete before 1 after 0
            expect text "a한"
            key ctrl+z
            expect text "a한국"
            key ctrl+z
            expect text ""
            type "b"
            ime preedit "어"
            expect text "b어"
            click 300 400
            click 300 180
            expect text "b"
            """)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("ime direction and ime language restyle the preedit in-process: right to left it is drawn otherwise, Korean and Chinese Han differ; the damage stays in the field")
    func preeditDirectionAndLanguage() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func shot(_ name: String) -> String { (directory as NSString).appendingPathComponent(name + ".png") }
        let run = try DemoTextEditingTests.play(
            """
            ime preedit "漢字 אבג" cursor hidden
            wait idle
            screenshot \(shot("plain"))
            expect damage within 0 0 4000 4000
            ime direction rtl
            wait idle
            expect damage within 204 160 420 40
            screenshot \(shot("rtl"))
            ime language "ko"
            wait idle
            screenshot \(shot("ko"))
            ime language "zh-CN"
            wait idle
            expect damage within 204 160 420 40
            screenshot \(shot("zh"))
            expect text "漢字 אבג"
            """)
        #expect(run.status == 0, "\(run.output)")
        let images = try ["plain", "rtl", "ko", "zh"].map { try Bitmap(contentsOfPNGFile: shot($0)) }
        func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
            (0..<min(a.height, b.height)).reduce(0) { sum, y in
                sum + (0..<min(a.width, b.width)).count { a.pixel(x: $0, y: y) != b.pixel(x: $0, y: y) }
            }
        }
        #expect(differing(images[0], images[1]) > 50, "right to left changed nothing")
        #expect(differing(images[2], images[3]) > 20, "Korean and Chinese Han look the same")
    }

    @Test("ime direction and ime language reach a TextView (the controls scene's notes): its preedit is drawn right to left and its Han in the language, the damage stays in the view, and after Tab away and back they are forgotten")
    func textViewPreeditDirectionAndLanguage() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func shot(_ name: String) -> String { (directory as NSString).appendingPathComponent(name + ".png") }
        // The notes: window (204, 424), 572 × 100; emptied, then composed into.
        let run = try DemoRun.run(
            DemoLanguagesTests.fast,
            script: """
                scene controls
                wait idle
                click 400 470
                key ctrl+a
                key BackSpace
                ime preedit "漢字 אבג" cursor hidden
                wait idle
                screenshot \(shot("plain"))
                expect damage within 0 0 4000 4000
                ime direction rtl
                wait idle
                expect damage within 204 424 572 100
                screenshot \(shot("rtl"))
                ime language "ko"
                wait idle
                screenshot \(shot("ko"))
                ime language "zh-CN"
                wait idle
                expect damage within 204 424 572 100
                screenshot \(shot("zh"))
                expect text "漢字 אבג"
                key Tab
                wait idle
                click 400 470
                expect text ""
                ime preedit "漢字 אבג" cursor hidden
                wait idle
                screenshot \(shot("again"))

                """)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let images = try ["plain", "rtl", "ko", "zh", "again"].map { try Bitmap(contentsOfPNGFile: shot($0)) }
        /// Pixels that differ inside the notes.
        func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
            (424..<524).reduce(0) { sum, y in sum + (204..<776).count { a.pixel(x: $0, y: y) != b.pixel(x: $0, y: y) } }
        }
        #expect(differing(images[0], images[1]) > 50, "right to left changed nothing")
        #expect(differing(images[2], images[3]) > 20, "Korean and Chinese Han look the same")
        #expect(differing(images[0], images[4]) == 0, "the direction and language outlived the focus")
    }

    @Test("a preedit is underlined where it is drawn, and updating it damages only the field's changed run and caret")
    func preeditUnderlineAndDamage() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("preedit.png")
        let font = Font.system(size: 16)
        let prefix = "abcdefgh"
        // Field at content (204, 160), 420 × 40; the text's origin x 214.
        let left = 214 + font.caretOffset(atCharacter: prefix.count - 1, in: prefix) - 3
        let script = """
            scene text
            wait idle
            click 300 180
            type "\(prefix)"
            ime preedit "ni" cursor 2
            wait idle
            expect damage within 0 0 2000 2000
            ime preedit "nih" cursor 3
            wait frames 1
            expect damage within \(Int(left.rounded(.down))) 160 60 40
            screenshot \(shot)

            """
        let run = try DemoRun.run(DemoLanguagesTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        let bitmap = try Bitmap(contentsOfPNGFile: shot)
        // The underline: a dark row under the preedit, none under the committed text.
        let start = Int((214 + font.caretOffset(atCharacter: prefix.count, in: prefix)).rounded(.up)) + 1
        let end = Int((214 + font.caretOffset(atCharacter: prefix.count + 3, in: prefix + "nih")).rounded(.down)) - 1
        let rows = (180..<196).filter { y in (start..<end).allSatisfy { !DemoOnSeat.isClose(bitmap.pixel(x: $0, y: y) & 0xFF_FFFF, 0xFFFFFF) } }
        #expect(!rows.isEmpty, "no underline row under the preedit")
        for y in rows {
            let underCommitted = (216..<(start - 4)).filter { !DemoOnSeat.isClose(bitmap.pixel(x: $0, y: y) & 0xFF_FFFF, 0xFFFFFF) }
            #expect(underCommitted.count < (start - 220) / 2, "the underline reaches under committed text at y \(y)")
        }
    }
}

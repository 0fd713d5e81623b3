import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's text field as a desktop user meets it (headless, driven by input scripts):
/// selection by Shift+arrows, drag, double click and Ctrl+A, typing over a selection,
/// horizontal scrolling inside the padding, and damage limited to what changed.
@Suite("Demo text field: selection, scrolling and damage", .exclusive, .timeLimit(.minutes(5)))
struct DemoTextFieldTests {
    static let font = Font.system(size: 16)
    /// The text's origin in content points: scene at x 180, field at (24, 160), padding 10.
    static let textX: CGFloat = 180 + 24 + 10

    /// Plays `body` after focusing the field and returns the screenshots it took, by name.
    static func play(_ body: String, shots names: [String]) throws -> [String: Bitmap] {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent("\(name).png") }
        var script = "scene text\nwait idle\nclick 300 180\n" + body
        for name in names { script = script.replacingOccurrences(of: "SHOT(\(name))", with: "screenshot \(path(name))") }
        let run = try DemoRun.run(DemoLanguagesTests.fast, script: script + "\n", directory: directory)
        try #require(run.status == 0, "\(run.output)")
        var result: [String: Bitmap] = [:]
        for name in names { result[name] = try Bitmap(contentsOfPNGFile: path(name)) }
        return result
    }

    @Test("Shift+Left selects cluster by cluster and typing replaces the selection")
    func shiftArrowsSelectAndTypingReplaces() throws {
        let shots = try Self.play(
            """
            type "hello world"
            key shift+Left
            key shift+Left
            key shift+Left
            key shift+Left
            key shift+Left
            type "there"
            key Escape
            wait idle
            SHOT(a)
            """, shots: ["a"])
        let shot = try #require(shots["a"])
        #expect(try DemoLanguagesTests.fieldShows("hello there", in: shot) < 20)
        #expect(try DemoLanguagesTests.fieldShows("hello worldthere", in: shot) > 20)
    }

    @Test("A double click selects a word, Ctrl+A selects everything, Backspace deletes the selection")
    func doubleClickAndSelectAll() throws {
        let x = Self.textX + Self.font.caretOffset(atCharacter: 2, in: "hello world")
        let shots = try Self.play(
            """
            type "hello world"
            click \(Int(x)) 180 double
            type "bye"
            key Escape
            wait idle
            SHOT(word)
            click 300 180
            key ctrl+a
            key BackSpace
            type "z"
            key Escape
            wait idle
            SHOT(all)
            """, shots: ["word", "all"])
        #expect(try DemoLanguagesTests.fieldShows("bye world", in: try #require(shots["word"])) < 20)
        #expect(try DemoLanguagesTests.fieldShows("z", in: try #require(shots["all"])) < 20)
    }

    @Test("Dragging across text selects it, and the selection is drawn behind the text")
    func dragSelects() throws {
        let text = "hello world"
        let start = Self.textX + Self.font.caretOffset(atCharacter: 0, in: text)
        let end = Self.textX + Self.font.caretOffset(atCharacter: 5, in: text)
        let shots = try Self.play(
            """
            type "\(text)"
            drag \(Int(start)) 180 \(Int(end.rounded())) 180 steps 4
            wait idle
            SHOT(selected)
            type "bye"
            key Escape
            wait idle
            SHOT(replaced)
            """, shots: ["selected", "replaced"])
        let selected = try #require(shots["selected"])
        // The selection colour (#b3d1ff) shows between the letters of "hello", not after it.
        let inside = (Int(start) + 2..<Int(end) - 1).filter { x in
            (164..<196).contains { y in DemoOnSeat.isClose(selected.pixel(x: x, y: y) & 0xFF_FFFF, 0xB3D1FF) }
        }
        #expect(inside.count > Int(end - start) / 2, "selection drawn over \(inside.count) columns")
        let afterX = Int(Self.textX + Self.font.caretOffset(atCharacter: 8, in: text))
        #expect(!(164..<196).contains { DemoOnSeat.isClose(selected.pixel(x: afterX, y: $0) & 0xFF_FFFF, 0xB3D1FF) })
        #expect(try DemoLanguagesTests.fieldShows("bye world", in: try #require(shots["replaced"])) < 20)
    }

    @Test("Long text scrolls to keep the caret in view and never draws into the padding or over the border")
    func longTextScrolls() throws {
        let text = String(repeating: "the quick brown fox jumps ", count: 3)
        #expect(Self.font.measure(text).width > 500)
        let shots = try Self.play(
            """
            type "\(text)WXYZ"
            key Escape
            wait idle
            SHOT(end)
            """, shots: ["end"])
        let shot = try #require(shots["end"])
        // Field at content (204, 160), 420 × 40: its right padding (x 412…417 inside the
        // field) stays white, and the text's tail ("WXYZ") is drawn just left of it.
        let padding = (616..<622).flatMap { x in (164..<196).map { (x, $0) } }
        let inked = padding.filter { !DemoOnSeat.isClose(shot.pixel(x: $0.0, y: $0.1) & 0xFF_FFFF, 0xFFFFFF) }
        #expect(inked.isEmpty, "ink in the padding at \(inked.prefix(5))")
        let tailWidth = Int(Self.font.measure("WXYZ").width)
        let tail = (614 - tailWidth..<614).filter { x in
            (164..<196).contains { !DemoOnSeat.isClose(shot.pixel(x: x, y: $0) & 0xFF_FFFF, 0xFFFFFF) }
        }
        #expect(tail.count > tailWidth / 2, "the end of the text is not in view")
    }

    @Test("Extending the selection by one cluster damages that cluster, its neighbour and the carets, not the line")
    func selectionDamageIsTight() throws {
        let text = "abcdefghijklmnop"
        let left = Self.textX + Self.font.caretOffset(atCharacter: text.count - 2, in: text) - 3
        let right = Self.textX + Self.font.caretOffset(atCharacter: text.count, in: text) + 4
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            scene text
            wait idle
            click 300 180
            type "\(text)"
            wait idle
            expect damage within 0 0 2000 2000
            key shift+Left
            wait frames 1
            expect damage within \(Int(left.rounded(.down))) 160 \(Int((right - left).rounded(.up)) + 1) 40

            """
        let run = try DemoRun.run(DemoLanguagesTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        #expect(right - left < 60, "the check must be narrower than the line")
    }

    @Test("Ctrl+C and Ctrl+V copy and paste, Ctrl+X cuts, and a middle click pastes the primary selection (offscreen pasteboards)")
    func clipboardHeadless() throws {
        let text = "hello world"
        let world = Int(Self.textX + Self.font.caretOffset(atCharacter: 8, in: text))
        let abc = Int(Self.textX + Self.font.caretOffset(atCharacter: 1, in: "abc def"))
        let shots = try Self.play(
            """
            type "\(text)"
            key ctrl+a
            key ctrl+c
            key End
            key ctrl+v
            key Escape
            wait idle
            SHOT(copied)
            click 300 180
            key ctrl+a
            type "\(text)"
            click \(world) 180 double
            key ctrl+x
            key Home
            key ctrl+v
            key Escape
            wait idle
            SHOT(cut)
            click 300 180
            key ctrl+a
            type "abc def"
            click \(abc) 180 double
            click 300 180
            click 300 180 middle
            key Escape
            wait idle
            SHOT(primary)
            """, shots: ["copied", "cut", "primary"])
        #expect(try DemoLanguagesTests.fieldShows("hello worldhello world", in: try #require(shots["copied"])) < 20)
        #expect(try DemoLanguagesTests.fieldShows("worldhello ", in: try #require(shots["cut"])) < 20)
        #expect(try DemoLanguagesTests.fieldShows("abc defabc", in: try #require(shots["primary"])) < 20)
    }

    @Test("A triple click selects the whole line; the script's text, clipboard and primary checks see the field and both pasteboards")
    func tripleClickSelectsAllWithTextChecks() throws {
        let script = """
            scene text
            wait idle
            click 300 180
            type "hello wide world"
            expect text "hello wide world"
            click 250 180 triple
            expect primary "hello wide world"
            key ctrl+c
            expect clipboard "hello wide world"
            type "x"
            expect text "x"
            key ctrl+v
            expect text "xhello wide world"
            click 206 180 middle
            expect text "hello wide worldxhello wide world"

            """
        let run = try DemoRun.run(DemoLanguagesTests.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")

        // The same checks fail, with the line and column and both values, when they do not hold.
        // (--timeout 1: a text check that fails looks again until the timeout.)
        let wrong = try DemoRun.run(
            DemoLanguagesTests.fast + ["--timeout", "1"],
            script: "scene text\nwait idle\nclick 300 180\ntype \"abc\"\nclick 250 180 triple\nkey ctrl+x\n  expect text \"abc\"\n")
        defer { wrong.removeDirectory() }
        #expect(wrong.status != 0)
        #expect(wrong.output.contains(#":7:3: expectation failed: expect text "abc": expected "abc", actual """#), "\(wrong.output)")
    }
}

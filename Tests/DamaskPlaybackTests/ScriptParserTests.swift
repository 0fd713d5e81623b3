import Foundation
import Testing

@testable import DamaskPlayback

/// Parses `text` as one script named `test.dsc`.
func parseScript(
    _ text: String, registry: ScriptCommandRegistry = ScriptCommandRegistry(),
    baseDirectory: String? = nil
) throws(ScriptError) -> Script {
    try ScriptParser(registry: registry).parse(text, file: "test.dsc", baseDirectory: baseDirectory)
}

/// The single command of a one-line script.
func parseCommand(_ line: String) throws -> ScriptCommand {
    let commands = try parseScript(line).commands
    try #require(commands.count == 1)
    return commands[0]
}

@Suite("Script parser", .timeLimit(.minutes(5)))
struct ScriptParserTests {
    @Test("every built-in command parses to its value")
    func everyCommandParses() throws {
        let cases: [(String, ScriptCommand)] = [
            ("size 800x600", .size(width: 800, height: 600)),
            ("scale 2", .scale(2)),
            ("scale 1.5", .scale(1.5)),
            ("layout de", .layout(KeyboardLayout(layout: "de"))),
            ("layout us:intl", .layout(KeyboardLayout(layout: "us", variant: "intl"))),
            ("move 120 80", .move(CGPoint(x: 120, y: 80))),
            ("move -3.5 1e2", .move(CGPoint(x: -3.5, y: 100))),
            ("press", .press(.left)),
            ("press right", .press(.right)),
            ("release middle", .release(.middle)),
            ("click 120 80", .click(CGPoint(x: 120, y: 80), button: .left, count: 1)),
            ("click 1 2 right", .click(CGPoint(x: 1, y: 2), button: .right, count: 1)),
            ("click 1 2 double", .click(CGPoint(x: 1, y: 2), button: .left, count: 2)),
            ("click 1 2 middle double", .click(CGPoint(x: 1, y: 2), button: .middle, count: 2)),
            ("click 1 2 triple", .click(CGPoint(x: 1, y: 2), button: .left, count: 3)),
            ("click 1 2 right triple", .click(CGPoint(x: 1, y: 2), button: .right, count: 3)),
            ("drag 10 10 200 200", .drag(from: CGPoint(x: 10, y: 10), to: CGPoint(x: 200, y: 200), steps: 10)),
            ("drag 0 0 5 5 steps 3", .drag(from: .zero, to: CGPoint(x: 5, y: 5), steps: 3)),
            ("scroll 0 3", .scroll(dx: 0, dy: 3)),
            ("scroll -1 -2", .scroll(dx: -1, dy: -2)),
            ("key ctrl+shift+a", .key(KeyChord(modifiers: [.control, .shift], keyName: "a"))),
            ("key Return", .key(KeyChord(keyName: "Return"))),
            ("key ctrl++", .key(KeyChord(modifiers: [.control], keyName: "plus"))),
            ("keydown Shift_L", .keyDown("Shift_L")),
            ("keyup Shift_L", .keyUp("Shift_L")),
            ("type \"hi\"", .type("hi")),
            ("type \"a \\\"b\\\" \\\\ \\n\\t\\u{41}\"", .type("a \"b\" \\ \n\tA")),
            ("touch down 1 10 20", .touchDown(id: 1, at: CGPoint(x: 10, y: 20))),
            ("touch move 1 11 21", .touchMove(id: 1, to: CGPoint(x: 11, y: 21))),
            ("touch up 1", .touchUp(id: 1)),
            ("wait 250ms", .wait(.duration(milliseconds: 250))),
            ("wait 2s", .wait(.duration(milliseconds: 2000))),
            ("wait 0.5s", .wait(.duration(milliseconds: 500))),
            ("wait frames 3", .wait(.frames(3))),
            ("wait idle", .wait(.idle)),
            ("screenshot out.png", .screenshot(path: "out.png")),
            ("screenshot \"my shot.png\"", .screenshot(path: "my shot.png")),
            ("expect pixel 3 4 #FFaa00", .expectPixel(CGPoint(x: 3, y: 4), color: PixelColor(red: 255, green: 170, blue: 0), tolerance: 0)),
            ("expect pixel 3 4 #000000 ±2", .expectPixel(CGPoint(x: 3, y: 4), color: PixelColor(red: 0, green: 0, blue: 0), tolerance: 2)),
            ("expect pixel 3 4 #000000 +-7", .expectPixel(CGPoint(x: 3, y: 4), color: PixelColor(red: 0, green: 0, blue: 0), tolerance: 7)),
            ("expect damage within 0 0 10 10", .expectDamageWithin([CGRect(x: 0, y: 0, width: 10, height: 10)])),
            ("expect damage exactly 1 2 3 4 5 6 7 8", .expectDamageExactly([CGRect(x: 1, y: 2, width: 3, height: 4), CGRect(x: 5, y: 6, width: 7, height: 8)])),
            ("expect damage exactly at scale 2 1 2 3 4", .expectDamageAtScale(2, exactly: true, [CGRect(x: 1, y: 2, width: 3, height: 4)])),
            ("expect damage within at scale 1.5 0 0 10 10", .expectDamageAtScale(1.5, exactly: false, [CGRect(x: 0, y: 0, width: 10, height: 10)])),
            ("expect no-damage", .expectNoDamage),
            ("expect draws 2", .expectDraws(2)),
            ("expect text \"hello wörld\"", .expectText("hello wörld")),
            ("expect text \"\"", .expectText("")),
            ("expect clipboard \"a \\\"b\\\"\"", .expectPasteboard(.clipboard, text: "a \"b\"")),
            ("expect primary \"sel\"", .expectPasteboard(.primarySelection, text: "sel")),
        ]
        for (line, expected) in cases {
            #expect(try parseCommand(line) == expected, "\(line)")
        }
    }

    @Test("expect image reads a reference relative to the base directory")
    func expectImageResolvesAgainstBaseDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "damask-parser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeTinyPNG(to: directory.appendingPathComponent("ref.png").path)
        let script = try parseScript("expect image ref.png ±4", baseDirectory: directory.path)
        #expect(script.commands == [.expectImage(path: "ref.png", tolerance: 4)])
        #expect(script.resolve("ref.png") == directory.path + "/ref.png")
    }

    @Test("comments, blank lines and colour literals are told apart")
    func commentsAndColours() throws {
        let script = try parseScript(
            """
            # a comment line
              #another
            size 10x10   # trailing comment
            expect pixel 1 1 #ffffff # white
            type "# not a comment"

            """)
        #expect(
            script.commands == [
                .size(width: 10, height: 10),
                .expectPixel(CGPoint(x: 1, y: 1), color: PixelColor(red: 255, green: 255, blue: 255), tolerance: 0),
                .type("# not a comment"),
            ])
        #expect(script.statements.map(\.location.line) == [3, 4, 5])
        #expect(script.statements[0].location.column == 1)
    }

    @Test("statements record the line and column of their command")
    func statementLocations() throws {
        let script = try parseScript("\n\n   move 1 2\r\n\tpress")
        #expect(script.statements.map(\.location) == [
            SourceLocation(file: "test.dsc", line: 3, column: 4),
            SourceLocation(file: "test.dsc", line: 4, column: 2),
        ])
    }

    @Test("registered commands parse their own arguments")
    func customCommandParses() throws {
        let registry = ScriptCommandRegistry([
            ScriptCommandDefinition(
                name: "scene", usage: "scene NAME [SPEED]",
                parse: { (reader: inout ArgumentReader) throws(ScriptError) -> String in
                    let name = try reader.word("NAME")
                    if reader.peek() != nil { _ = try reader.number("SPEED", in: 0...10) }
                    return name
                },
                handler: { _, _ in })
        ])
        let script = try parseScript("scene \"blue box\" 2", registry: registry)
        guard case .custom(let invocation) = try #require(script.commands.first) else {
            Issue.record("not a custom command")
            return
        }
        #expect(invocation.name == "scene")
        #expect(invocation.payload as? String == "blue box")
        #expect(invocation.arguments == [ScriptArgument("blue box", isQuoted: true), ScriptArgument("2")])
        #expect(throws: ScriptError.self) { try parseScript("scene a 11", registry: registry) }
        #expect(throws: ScriptError.self) { try parseScript("scene a 1 x", registry: registry) }
    }
}

/// Writes a valid 1×1 PNG (bytes of a known-good file) to `path`.
func writeTinyPNG(to path: String) throws {
    let base64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    let data = try #require(Data(base64Encoded: base64))
    try data.write(to: URL(fileURLWithPath: path))
}

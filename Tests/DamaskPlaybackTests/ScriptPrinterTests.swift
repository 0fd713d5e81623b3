import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskPlayback

@Suite("Script printer", .timeLimit(.minutes(5)))
struct ScriptPrinterTests {
    static let sample = """
        # every command once
        size 800x600
        scale 1.25
        layout de
        move 120 80.5
        press
        release right
        click 1 2 middle double
        click 3 4 triple
        drag 10 10 200 200 steps 4
        scroll -1 3
        key ctrl+shift+a
        keydown Shift_L
        keyup Shift_L
        type "quote \\" backslash \\\\ tab\\t ü"
        touch down 3 1 2
        touch move 3 4 5
        touch up 3
        wait 250ms
        wait 1.5s
        wait frames 2
        wait idle
        screenshot "dir with space/shot.png"
        expect pixel 1 2 #A0b0C0 ±3
        expect damage within 0 0 10 10 20 20 5 5
        expect damage exactly 0.5 0 1e-3 4
        expect no-damage
        expect draws 0
        expect text "field ü"
        expect clipboard "copied \\" text"
        expect primary ""
        """

    @Test("parse, print, parse gives the same commands")
    func roundTrip() throws {
        let first = try parseScript(Self.sample)
        let printed = ScriptPrinter.print(first)
        let second = try parseScript(printed)
        #expect(first.commands == second.commands)
        #expect(ScriptPrinter.print(second) == printed)
        #expect(first.commands.count == 30)
    }

    @Test("printed lines are canonical")
    func canonicalLines() {
        #expect(ScriptPrinter.line(for: .move(CGPoint(x: 1, y: 2.5))) == "move 1 2.5")
        #expect(ScriptPrinter.line(for: .wait(.duration(milliseconds: 2000))) == "wait 2000ms")
        #expect(ScriptPrinter.line(for: .type("a\"\n\u{1}")) == "type \"a\\\"\\n\\u{1}\"")
        #expect(ScriptPrinter.line(for: .screenshot(path: "#x.png")) == "screenshot \"#x.png\"")
        #expect(
            ScriptPrinter.line(for: .expectPixel(.zero, color: PixelColor(red: 1, green: 2, blue: 255), tolerance: 0))
                == "expect pixel 0 0 #0102ff")
        #expect(ScriptPrinter.line(for: .click(.zero, button: .left, count: 3)) == "click 0 0 left triple")
        #expect(ScriptPrinter.line(for: .click(.zero, button: .left, count: 1)) == "click 0 0 left")
        #expect(ScriptPrinter.line(for: .expectPasteboard(.primarySelection, text: "a\n")) == "expect primary \"a\\n\"")
        #expect(ScriptPrinter.line(for: .expectText("x")) == "expect text \"x\"")
    }

    @Test("application commands print their arguments as written")
    func customCommandRoundTrip() throws {
        let registry = ScriptCommandRegistry([
            ScriptCommandDefinition(
                name: "paint", usage: "paint ARGS…",
                parse: { (reader: inout ArgumentReader) throws(ScriptError) -> [String] in
                    var words: [String] = []
                    while let word = reader.optionalWord() { words.append(word) }
                    return words
                },
                handler: { _, _ in })
        ])
        let text = "paint #aabbcc \"#not a colour\" plain \"quoted\" \"\" a\"b"
        let first = try parseScript(text, registry: registry)
        let printed = ScriptPrinter.print(first)
        #expect(printed == "paint #aabbcc \"#not a colour\" plain \"quoted\" \"\" a\"b\n")
        let second = try parseScript(printed, registry: registry)
        #expect(second.commands == first.commands)
        guard case .custom(let invocation) = second.commands.first else {
            Issue.record("not a custom command")
            return
        }
        #expect(invocation.payload as? [String] == ["#aabbcc", "#not a colour", "plain", "quoted", "", "a\"b"])
    }

    @Test("random commands survive print and parse")
    func randomRoundTrip() throws {
        var random = SeededRandom(seed: 7)
        var commands: [ScriptCommand] = []
        for _ in 0..<500 { commands.append(randomCommand(&random)) }
        let reparsed = try parseScript(ScriptPrinter.print(commands)).commands
        #expect(reparsed == commands)
    }
}

/// A random valid command with awkward numbers and strings.
func randomCommand(_ random: inout SeededRandom) -> ScriptCommand {
    func coordinate() -> CGFloat {
        switch random.next(4) {
        case 0: return CGFloat(random.next(2000)) - 1000
        case 1: return CGFloat(Double(random.next(1 << 20)) / 1024 - 300)
        case 2: return CGFloat(Double(random.next(1000)) * 1e-7)
        default: return CGFloat(Double(random.next(1 << 20)) / 3)
        }
    }
    func point() -> CGPoint { CGPoint(x: coordinate(), y: coordinate()) }
    func text() -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "\n", "\t", "#", "1", "~", "@"]
        var s = String.UnicodeScalarView()
        for _ in 0..<random.next(12) { s.append(alphabet[random.next(alphabet.count)]) }
        return String(s)
    }
    let button = ScriptButton.allCases[random.next(3)]
    switch random.next(16) {
    case 0: return .move(point())
    case 1: return .click(point(), button: button, count: 1 + random.next(3))
    case 2: return .drag(from: point(), to: point(), steps: 1 + random.next(50))
    case 3: return .type(text())
    case 4: return .screenshot(path: "x" + text())
    case 5: return .wait(.duration(milliseconds: Double(random.next(100_000)) / 8))
    case 6:
        let rects = (0...random.next(3)).map { _ in
            CGRect(x: coordinate(), y: coordinate(), width: abs(coordinate()), height: abs(coordinate()))
        }
        switch random.next(3) {
        case 0: return .expectDamageWithin(rects)
        case 1: return .expectDamageExactly(rects)
        default: return .expectDamageAtScale([1, 2, 1.5, 3][random.next(4)], exactly: random.next(2) == 0, rects)
        }
    case 7:
        return .expectPixel(
            point(), color: PixelColor(red: UInt8(random.next(256)), green: UInt8(random.next(256)), blue: UInt8(random.next(256))),
            tolerance: random.next(256))
    case 8: return .touchDown(id: Int32(random.next(1000)), at: point())
    case 9: return .scroll(dx: random.next(21) - 10, dy: random.next(21) - 10)
    case 10: return .press(button)
    case 11: return .key(KeyChord(modifiers: [.alt, .logo], keyName: ["a", "F5", "Return", "space"][random.next(4)]))
    case 12: return .expectDraws(random.next(100))
    case 13: return .expectText(text())
    case 14: return .expectPasteboard(random.next(2) == 0 ? .clipboard : .primarySelection, text: text())
    default: return .size(width: 1 + random.next(4000), height: 1 + random.next(4000))
    }
}

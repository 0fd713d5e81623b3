import Foundation
import Testing

@testable import DamaskPlayback

@Suite("Script errors", .timeLimit(.minutes(5)))
struct ScriptErrorTests {
    /// The error message for `text`, or nil if it parsed.
    private func message(_ text: String) -> String? {
        do {
            _ = try parseScript(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("each kind of error has its exact message and points at the offending token")
    func exactMessages() {
        let cases: [(String, String)] = [
            ("jump 1 2", "test.dsc:1:1: error: unknown command 'jump'"),
            ("type \"üü\" x", "test.dsc:1:11: error: unexpected argument 'x' for 'type'"),
            ("\tmove\t1\t\"\\u{7}\"", "test.dsc:1:9: error: bad number '\\u{7}' for Y"),
            ("move 1\n  move 1 y", "test.dsc:1:7: error: missing argument Y for 'move'"),
            ("size 10x10\nmove 1 y", "test.dsc:2:8: error: bad number 'y' for Y"),
            ("move nan 1", "test.dsc:1:6: error: bad number 'nan' for X"),
            ("move 1 2 3", "test.dsc:1:10: error: unexpected argument '3' for 'move'"),
            ("type \"abc", "test.dsc:1:6: error: unterminated string"),
            ("type abc", "test.dsc:1:6: error: expected a quoted string for TEXT, found 'abc'"),
            ("type \"a\\qb\"", "test.dsc:1:8: error: unknown escape '\\q' in string"),
            ("type \"\\u{zz}\"", "test.dsc:1:7: error: bad unicode escape (expected \\u{HEX} with 1 to 6 hex digits)"),
            ("type \"a\"b", "test.dsc:1:9: error: expected a space after the closing quote"),
            ("\"move\" 1 2", "test.dsc:1:1: error: expected a command, found a string"),
            ("key ctrl+nosuchkey", "test.dsc:1:5: error: unknown key name 'nosuchkey'"),
            ("key hyper+a", "test.dsc:1:5: error: unknown modifier 'hyper' in 'hyper+a' (expected shift, ctrl, alt or super)"),
            ("key ctrl+ctrl+a", "test.dsc:1:5: error: modifier 'ctrl' repeated in 'ctrl+ctrl+a'"),
            ("keydown Bogus_L", "test.dsc:1:9: error: unknown key name 'Bogus_L'"),
            ("keydown udiaeresis", "test.dsc:1:9: error: layout 'us' has no key for 'udiaeresis'"),
            ("type \"Damask ü\"", "test.dsc:1:6: error: character 'ü' (U+00FC) cannot be typed with layout 'us'"),
            ("layout zz", "test.dsc:1:8: error: unknown keyboard layout 'zz'"),
            ("layout d/e", "test.dsc:1:8: error: bad layout 'd/e' (expected NAME or NAME:VARIANT)"),
            ("size 800by600", "test.dsc:1:6: error: bad size '800by600' (expected WIDTHxHEIGHT, e.g. 800x600)"),
            ("size 0x600", "test.dsc:1:6: error: size 0x600 is out of range 1…16384 per side"),
            ("scale 0", "test.dsc:1:7: error: SCALE 0 is out of range 0.25…16"),
            ("press sideways", "test.dsc:1:7: error: unknown button 'sideways' (expected left, right or middle)"),
            ("click 1 2 left left", "test.dsc:1:16: error: unexpected argument 'left' for 'click'"),
            ("drag 0 0 1 1 count 3", "test.dsc:1:14: error: unexpected argument 'count' for 'drag' (expected 'steps N')"),
            ("drag 0 0 1 1 steps 0", "test.dsc:1:20: error: N 0 is out of range 1…10000"),
            ("scroll 1.5 0", "test.dsc:1:8: error: bad number '1.5' for DX (expected an integer)"),
            ("touch tap 1", "test.dsc:1:7: error: unknown touch phase 'tap' (expected down, move or up)"),
            ("touch down 1 2", "test.dsc:1:15: error: missing argument Y for 'touch down'"),
            ("expect no-damage now", "test.dsc:1:18: error: unexpected argument 'now' for 'expect no-damage'"),
            ("touch up -1", "test.dsc:1:10: error: ID -1 is out of range 0…2147483647"),
            ("wait 5", "test.dsc:1:6: error: bad duration '5' (expected e.g. 250ms or 2s, 'frames N' or 'idle')"),
            ("wait 2h", "test.dsc:1:6: error: bad duration '2h' (expected e.g. 250ms or 2s, 'frames N' or 'idle')"),
            ("wait 99999s", "test.dsc:1:6: error: duration '99999s' is out of range 0ms…3600s"),
            ("wait", "test.dsc:1:5: error: missing argument DURATION for 'wait'"),
            ("expect pixel 1 2 red", "test.dsc:1:18: error: bad colour 'red' (expected #rrggbb)"),
            ("expect pixel 1 2 #12345", "test.dsc:1:17: error: missing argument #rrggbb for 'expect pixel'"),
            ("expect pixel 1 2 #123456 ~3", "test.dsc:1:26: error: bad tolerance '~3' (expected ±N)"),
            ("expect pixel 1 2 #123456 ±300", "test.dsc:1:26: error: tolerance 300 is out of range 0…255"),
            ("screenshot \"\"", "test.dsc:1:12: error: bad path ''"),
            ("screenshot", "test.dsc:1:11: error: missing argument PATH for 'screenshot'"),
            ("expect image missing.png", "test.dsc:1:14: error: cannot read reference image 'missing.png': no such file"),
            ("expect damage within 0 0 10", "test.dsc:1:28: error: missing argument H for 'expect damage within'"),
            ("expect damage around 0 0 1 1", "test.dsc:1:15: error: unknown damage check 'around' (expected within or exactly)"),
            ("expect damage within 0 0 -1 1", "test.dsc:1:26: error: W -1 is out of range 0…1000000"),
            ("expect sound", "test.dsc:1:8: error: unknown expectation 'sound' (expected pixel, image, damage, no-damage, draws, text, clipboard or primary)"),
            ("expect text", "test.dsc:1:12: error: missing argument TEXT for 'expect text'"),
            ("  expect text hello", "test.dsc:1:15: error: expected a quoted string for TEXT, found 'hello'"),
            ("expect clipboard \"a\" b", "test.dsc:1:22: error: unexpected argument 'b' for 'expect clipboard'"),
            ("expect primary \"unterminated", "test.dsc:1:16: error: unterminated string"),
            ("click 1 2 triple double", "test.dsc:1:18: error: unexpected argument 'double' for 'click'"),
            ("expect draws -1", "test.dsc:1:14: error: N -1 is out of range 0…2147483647"),
        ]
        for (text, expected) in cases {
            #expect(message(text) == expected, "\(text)")
        }
    }

    @Test("a reference image that is not a PNG is rejected at parse time")
    func unreadableReferenceImage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "damask-not-png-\(UUID().uuidString).png").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            message("expect image \(path)")
                == "test.dsc:1:14: error: cannot read reference image '\(path)': not a PNG file")
    }

    @Test("invalid UTF-8 is read as U+FFFD and reported at its column")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("move 1 ".utf8) + [0xFF, 0xFE] + Array(" 2".utf8)
        #expect(throws: ScriptError("bad number '\u{FFFD}\u{FFFD}' for Y", at: SourceLocation(file: "b.dsc", line: 1, column: 8))) {
            try ScriptParser().parse(bytes: bytes, file: "b.dsc")
        }
    }

    @Test("an error anywhere rejects the whole script")
    func errorRejectsWholeScript() {
        #expect(message("move 1 2\nclick 3 4\nbogus\nmove 5 6") == "test.dsc:3:1: error: unknown command 'bogus'")
    }

    @Test("an unreadable script file is an error at 1:1")
    func unreadableScriptFile() {
        #expect(throws: ScriptError("cannot read script", at: SourceLocation(file: "/nonexistent/x.dsc", line: 1, column: 1))) {
            try ScriptParser().parse(contentsOfFile: "/nonexistent/x.dsc")
        }
    }
}

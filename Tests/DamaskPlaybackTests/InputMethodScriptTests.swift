import DamaskGraphics
import Foundation
import Testing

@testable import DamaskPlayback

/// `ime preedit`, `ime commit` and `ime delete`: parsed, printed and rejected with a located error.
@Suite("Script ime commands", .timeLimit(.minutes(5)))
struct InputMethodScriptTests {
    @Test("each ime form parses to its update and prints back to the same line")
    func parseAndPrint() throws {
        let cases: [(String, InputMethodUpdate, String)] = [
            ("ime preedit \"하\" cursor 3", InputMethodUpdate(preedit: "하", preeditCursor: 3..<3), "ime preedit \"하\" cursor 3"),
            ("ime preedit \"하\"", InputMethodUpdate(preedit: "하", preeditCursor: 3..<3), "ime preedit \"하\" cursor 3"),
            ("ime preedit \"ni hao\" cursor 0", InputMethodUpdate(preedit: "ni hao", preeditCursor: 0..<0), "ime preedit \"ni hao\" cursor 0"),
            ("ime preedit \"한\" cursor hidden", InputMethodUpdate(preedit: "한", preeditCursor: nil), "ime preedit \"한\" cursor hidden"),
            ("ime commit \"한\"", InputMethodUpdate(commit: "한"), "ime commit \"한\""),
            ("ime delete before 1 after 0", InputMethodUpdate(deleteBefore: 1, deleteAfter: 0), "ime delete before 1 after 0"),
        ]
        for (line, update, printed) in cases {
            let command = try parseCommand(line)
            #expect(command == .inputMethod(update), "\(line)")
            #expect(ScriptPrinter.line(for: command) == printed)
            #expect(try parseCommand(printed) == command)
        }
    }

    @Test("ime language and ime direction parse to settings and print back to the same line")
    func settingsParseAndPrint() throws {
        let cases: [(String, InputMethodSetting)] = [
            ("ime language \"ko\"", .language("ko")), ("ime language \"zh-Hant-TW\"", .language("zh-Hant-TW")),
            ("ime direction rtl", .direction(.rightToLeft)), ("ime direction ltr", .direction(.leftToRight)),
            ("ime direction auto", .direction(.automatic)),
        ]
        for (line, setting) in cases {
            let command = try parseCommand(line)
            #expect(command == .inputMethodSetting(setting), "\(line)")
            #expect(ScriptPrinter.line(for: command) == line)
        }
        #expect(InputMethodCommandChannel.lines(for: .language("ko")) == ["language \"ko\""])
        #expect(InputMethodCommandChannel.lines(for: .direction(.rightToLeft)) == ["direction rtl"])
        #expect(InputMethodCommandChannel.lines(for: .direction(.automatic)) == ["direction auto"])
    }

    @Test("a bad ime line is an error naming what is wrong, at its line and column")
    func errors() {
        let cases: [(String, String)] = [
            ("ime preedit \"하\" cursor 4", "test.dsc:1:24"),
            ("ime preedit 하", "test.dsc:1:13"),
            ("ime compose \"x\"", "test.dsc:1:5"),
            ("ime delete before 1", "test.dsc:1:"),
            ("ime delete after 1 before 0", "test.dsc:1:12"),
            ("ime preedit \"x\" caret 1", "test.dsc:1:17"),
            ("ime direction up", "test.dsc:1:15"),
            ("ime language \"\"", "test.dsc:1:"),
            ("ime language \"ko kr\"", "test.dsc:1:"),
            ("ime language ko", "test.dsc:1:14"),
        ]
        for (line, location) in cases {
            do {
                _ = try parseScript(line)
                Issue.record("'\(line)' parsed")
            } catch {
                #expect(error.description.hasPrefix(location), "\(line): \(error.description)")
                #expect(error.description.contains("error:"))
            }
        }
    }

    @Test("a live ime update becomes the input method's command lines: quoted, a deletion followed by its commit")
    func commandLines() throws {
        typealias Channel = InputMethodCommandChannel
        #expect(Channel.lines(for: InputMethodUpdate(preedit: "하", preeditCursor: 3..<3)) == ["preedit \"하\" cursor 3"])
        #expect(Channel.lines(for: InputMethodUpdate(preedit: "한", preeditCursor: nil)) == ["preedit \"한\" cursor -1"])
        #expect(Channel.lines(for: InputMethodUpdate(commit: "a\"b\\c\u{7F}")) == ["commit \"a\\\"b\\\\c\\x7F\""])
        #expect(Channel.lines(for: InputMethodUpdate(deleteBefore: 3, deleteAfter: 1)) == ["delete -3 4", "commit \"\""])
        #expect(Channel.lines(for: InputMethodUpdate()) == ["preedit \"\" cursor -1"], "removing the preedit")
        // Written to a FIFO nobody reads: a clear error naming it.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-ime-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: InputMethodCommandChannel.WriteError.self) { try Channel(path: path).send(InputMethodUpdate(commit: "x")) }
    }
}

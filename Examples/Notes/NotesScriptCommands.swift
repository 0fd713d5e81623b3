import Foundation
import DamaskPlayback

/// The script commands `damask-notes --play` adds to the player's (registered through the
/// public ``ScriptCommandRegistry``): checks on the notes themselves, which pixels alone
/// could state only through reference images.
///
/// - `expect-notes N`: there are N notes.
/// - `expect-note ROW "TEXT"`: the note in row ROW (from 0) holds exactly TEXT, and its row
///   in the list shows TEXT's first line.
///
/// A check that does not hold stops playback with an error naming the script line.
@MainActor enum NotesScriptCommands {
    /// The two commands, checking `notesView` (held weakly: a closed window checks nothing).
    static func registry(checking notesView: NotesView?) -> ScriptCommandRegistry {
        let count = ScriptCommandDefinition(
            name: "expect-notes", usage: "expect-notes N",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> Int in
                try reader.integer("N", in: 0...1_000_000)
            },
            handler: { [weak notesView] expected, player in
                guard let notesView else { return }
                let actual = notesView.notes.count
                guard actual == expected else {
                    throw failure("expected \(expected) notes, found \(actual)", player: player)
                }
            })
        let note = ScriptCommandDefinition(
            name: "expect-note", usage: "expect-note ROW \"TEXT\"",
            parse: { (reader: inout ArgumentReader) throws(ScriptError) -> NoteExpectation in
                let row = try reader.integer("ROW", in: 0...1_000_000)
                let text = try reader.quotedString("TEXT")
                return NoteExpectation(row: row, text: text)
            },
            handler: { [weak notesView] expected, player in
                guard let notesView else { return }
                guard expected.row < notesView.notes.count else {
                    throw failure(
                        "expected a note in row \(expected.row), but there are \(notesView.notes.count)", player: player)
                }
                let note = notesView.notes[expected.row]
                guard note.text == expected.text else {
                    throw failure(
                        "note \(expected.row): expected \(quoted(expected.text)), found \(quoted(note.text))", player: player)
                }
                let shown = notesView.listView.cellForRow(at: expected.row)?.text
                guard shown == nil || shown == note.title else {
                    throw failure(
                        "note \(expected.row): the list shows \(quoted(shown ?? "")), expected \(quoted(note.title))",
                        player: player)
                }
            })
        return ScriptCommandRegistry([count, note])
    }

    /// `expect-note`'s arguments.
    struct NoteExpectation: Sendable {
        var row: Int
        var text: String
    }

    private static func failure(_ message: String, player: ScriptPlayer) -> PlaybackError {
        PlaybackError(message, at: player.currentLocation ?? SourceLocation(file: "script", line: 1, column: 1))
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

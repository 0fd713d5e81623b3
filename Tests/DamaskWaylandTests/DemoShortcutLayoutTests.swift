import DamaskTestSupport
import Foundation
import Testing

/// Shortcuts work on every layout: the demo's Ctrl+A/C/X/V in the text field, the global
/// 1–8, S, D and Ctrl+Q, played through input scripts that press the keys a person with
/// that layout presses (the key labelled C types `Cyrillic_es` on `ru`), while the text
/// typed is the layout's own.
@Suite("Shortcuts on every layout", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct DemoShortcutLayoutTests {
    /// A layout, a word in its script, and the keysyms its keys A, C, X, V, Q, S and D type.
    struct Layout: CustomStringConvertible, Sendable {
        var name: String
        var word: String
        var keys: [Character: String]
        var description: String { name }
    }

    static let layouts: [Layout] = [
        Layout(name: "ru", word: "привет", keys: [
            "a": "Cyrillic_ef", "c": "Cyrillic_es", "x": "Cyrillic_che", "v": "Cyrillic_em",
            "q": "Cyrillic_shorti", "s": "Cyrillic_yeru", "d": "Cyrillic_ve",
        ]),
        Layout(name: "gr", word: "γεια", keys: [
            "a": "Greek_alpha", "c": "Greek_psi", "x": "Greek_chi", "v": "Greek_omega",
            "q": "semicolon", "s": "Greek_sigma", "d": "Greek_delta",
        ]),
        Layout(name: "ara", word: "سلام", keys: [
            "a": "Arabic_sheen", "c": "Arabic_hamzaonwaw", "x": "Arabic_hamza", "v": "Arabic_ra",
            "q": "Arabic_dad", "s": "Arabic_seen", "d": "Arabic_yeh",
        ]),
        Layout(name: "il", word: "שלום", keys: [
            "a": "hebrew_shin", "c": "hebrew_bet", "x": "hebrew_samech", "v": "hebrew_he",
            "q": "slash", "s": "hebrew_dalet", "d": "hebrew_gimel",
        ]),
        Layout(name: "us", word: "hello", keys: ["a": "a", "c": "c", "x": "x", "v": "v", "q": "q", "s": "s", "d": "d"]),
        Layout(name: "de", word: "grüße", keys: ["a": "a", "c": "c", "x": "x", "v": "v", "q": "q", "s": "s", "d": "d"]),
    ]

    @Test("Ctrl+A, C, X, V edit the field, 3 and 1 switch scenes, S shows statistics, Ctrl+Q quits", arguments: layouts)
    func shortcutsWork(_ layout: Layout) throws {
        let k = layout.keys
        // The field is at (204, 160); the paths scene's star is yellow at (614, 300); the
        // statistics panel is dark at (570, 540). (D, which only tints damage as it is
        // presented, is checked where its keysym is chosen: ShortcutKeysymTests.) After Ctrl+Q nothing more may run: the
        // failing pixel check at the end would make the status non-zero.
        let script = """
            layout \(layout.name)
            scene text
            click 300 180
            type "\(layout.word)"
            key ctrl+\(k["a"]!)
            key ctrl+\(k["c"]!)
            expect clipboard "\(layout.word)"
            key ctrl+\(k["x"]!)
            expect text ""
            key ctrl+\(k["v"]!)
            key ctrl+\(k["v"]!)
            expect text "\(layout.word)\(layout.word)"
            key Escape
            key 3
            wait idle
            expect pixel 614 300 #FFCC00 ±8
            key \(k["s"]!)
            wait idle
            expect pixel 570 540 #34373F ±8
            key 1
            wait idle
            expect pixel 30 80 #4278D9 ±4
            key ctrl+\(k["q"]!)
            expect pixel 0 0 #010203

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(layout.name): \(run.output)")
        #expect(!run.output.contains("expect"), "\(layout.name): \(run.output)")
    }
}

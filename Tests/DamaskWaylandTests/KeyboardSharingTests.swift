import DamaskTestSupport
import DamaskXKB
import Foundation
import Testing

@testable import DamaskWayland

/// Keyboards that share a compiled keymap and compose table (what the keymap fuzz target
/// does per input), and the keymap text the fuzzer found refused.
@Suite("Keyboards sharing a keymap and compose table", .exclusive, .timeLimit(.minutes(5)))
struct KeyboardSharingTests {
    static let circumflex: UInt32 = 41 + 8, e: UInt32 = 18 + 8, y: UInt32 = 21 + 8

    @Test("A keyboard sharing another's compose table composes like it, in a state of its own")
    func sharedComposeTable() throws {
        let template = try XKBKeyboard(layout: "de", composeLocale: "en_US.UTF-8")
        // The template is half-way through a sequence; the new keyboard starts fresh.
        #expect(template.press(Self.circumflex).text == "")
        let shared = try XKBKeyboard(composeTableOf: template)
        #expect(shared.press(Self.e).text == "e")
        #expect(shared.press(Self.circumflex).text == "")
        #expect(shared.press(Self.e) == .init(keysym: 0xEA, text: "ê"))
        #expect(template.press(Self.e) == .init(keysym: 0xEA, text: "ê"))
        // Modifiers are per keyboard too.
        shared.updateModifiers(depressed: shared.mask(of: ["Shift"]), latched: 0, locked: 0, group: 0)
        #expect(shared.translate(Self.e).text == "E")
        #expect(template.translate(Self.e).text == "e")
    }

    @Test("A keyboard on another keymap keeps that keymap and the template's compose table")
    func otherKeymapSharedTable() throws {
        let template = try XKBKeyboard(layout: "us", composeLocale: "en_US.UTF-8")
        let german = try #require(XKBKeymap(layout: "de"))
        let keyboard = try XKBKeyboard(keymap: german, composeTableOf: template)
        #expect(keyboard.translate(Self.y).text == "z")  // AD06 is z on a German layout
        #expect(keyboard.press(Self.circumflex).text == "")  // dead_circumflex, through the shared table
        #expect(keyboard.press(Self.e).text == "ê")
    }

    /// Fuzz finding keymap-leak-a33182fc (scripts/fuzz keymap, 2 December 2026): a complete
    /// keymap followed by one more byte. xkbcommon 1.5.0 refuses it — and leaks the keymap
    /// it had parsed (757 bytes; reproduced in C against libxkbcommon alone, see
    /// docs/testing.md), which is why the input is not in the replayed corpus.
    @Test("A keymap text with bytes after its closing block is refused, the same text without them compiles")
    func trailingBytesRefused() throws {
        let keymap = #"xkb_keymap { xkb_keycodes { include "evdev" }; xkb_types { include "complete" }; "#
            + #"xkb_compat { include "complete" }; xkb_symbols { include "pc+us+inet(evdev)" }; };"#
        let keyboard = try XKBKeyboard(keymapText: keymap, composeLocale: "C")
        #expect(keyboard.translate(Self.e).text == "e")
        // libxkbcommon's leak on this refusal is exempt from LeakSanitizer (the ASan pass),
        // for this call on this thread only.
        LeakCheckExemption.run {
            #expect(throws: XKBKeyboard.KeymapError.invalidKeymap) {
                try XKBKeyboard(keymapText: keymap + "\u{02}", composeLocale: "C")
            }
        }
    }
}

import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// Keymaps and keyboard state through xkbcommon, as `wl_keyboard` feeds them.
@Suite("Keyboard (xkb)", .exclusive, .timeLimit(.minutes(5)))
struct KeyboardTests {
    /// xkb keycodes (evdev + 8) of a few keys.
    enum Key {
        static let a: UInt32 = 30 + 8
        static let q: UInt32 = 16 + 8
        static let y: UInt32 = 21 + 8      // AD06: "y" on US, "z" on German layouts
        static let bracket: UInt32 = 26 + 8  // AD11: "[" on US, "ü" on German layouts
        static let leftShift: UInt32 = 42 + 8
    }

    @Test("A key press gives its keysym and UTF-8 text; modifiers from the compositor apply")
    func textAndModifiers() throws {
        let keyboard = try XKBKeyboard(layout: "us")
        #expect(keyboard.translate(Key.a) == .init(keysym: 0x61, text: "a"))
        keyboard.updateModifiers(depressed: keyboard.mask(of: ["Shift"]), latched: 0, locked: 0, group: 0)
        #expect(keyboard.translate(Key.a) == .init(keysym: 0x41, text: "A"))
        #expect(keyboard.modifiers == [.shift])
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: keyboard.mask(of: ["Lock"]), group: 0)
        #expect(keyboard.modifiers == [.capsLock])
        #expect(keyboard.translate(Key.a).text == "A")
    }

    @Test("Non-ASCII text comes out as UTF-8 (ü on a German layout)")
    func nonASCIIText() throws {
        let keyboard = try XKBKeyboard(layout: "de")
        #expect(keyboard.translate(Key.bracket) == .init(keysym: 0xFC, text: "ü"))
    }

    @Test("Control characters are not text: Ctrl+Q gives the q keysym and no text")
    func controlCharactersAreNotText() throws {
        let keyboard = try XKBKeyboard(layout: "us")
        keyboard.updateModifiers(depressed: keyboard.mask(of: ["Control"]), latched: 0, locked: 0, group: 0)
        #expect(keyboard.translate(Key.q) == .init(keysym: 0x71, text: ""))
        #expect(keyboard.modifiers == [.control])
    }

    @Test("A keymap sent as text (as wl_keyboard.keymap does) compiles, and a change of keymap changes the keys")
    func keymapFromTextAndChange() throws {
        let us = try XKBKeyboard(layout: "us")
        let reloaded = try XKBKeyboard(keymapText: us.keymapText)
        #expect(reloaded.translate(Key.y).text == "y")
        let german = try XKBKeyboard(keymapText: XKBKeyboard(layout: "de").keymapText)
        #expect(german.translate(Key.y).text == "z")
    }

    @Test("A keymap that does not compile is an error")
    func badKeymapThrows() {
        #expect(throws: XKBKeyboard.KeymapError.invalidKeymap) {
            try XKBKeyboard(keymapText: "xkb_keymap { this is not a keymap")
        }
    }

    @Test("A dead key types nothing and composes with the next key (^ then e gives ê)")
    func deadKeysCompose() throws {
        let keyboard = try XKBKeyboard(layout: "de", composeLocale: "en_US.UTF-8")
        let circumflex: UInt32 = 41 + 8, e: UInt32 = 18 + 8, q: UInt32 = 16 + 8
        #expect(keyboard.press(circumflex).text == "")
        #expect(keyboard.press(e) == .init(keysym: 0xEA, text: "ê"))
        #expect(keyboard.press(e).text == "e")
        // A sequence that does not exist types nothing, and the next key types normally.
        #expect(keyboard.press(circumflex).text == "")
        #expect(keyboard.press(q).text == "")
        #expect(keyboard.press(q).text == "q")
        // Reset (focus loss) forgets a half-typed sequence.
        #expect(keyboard.press(circumflex).text == "")
        keyboard.resetCompose()
        #expect(keyboard.press(e).text == "e")
    }

    @Test("Greek dead keys: tonos (;) then ο gives ό, dialytika (Shift+;) then ι gives ϊ, tonos then Shift+ο gives Ό")
    func greekDeadKeysCompose() throws {
        let keyboard = try XKBKeyboard(layout: "gr", composeLocale: "el_GR.UTF-8")
        // AC10 (the US ";" key) is dead_acute, with Shift dead_diaeresis; AD09 is ο, AD08 ι, AC08 κ.
        let accent: UInt32 = 39 + 8, omicron: UInt32 = 24 + 8, iota: UInt32 = 23 + 8, kappa: UInt32 = 37 + 8
        #expect(keyboard.press(kappa).text == "κ")
        #expect(keyboard.press(accent).text == "")
        #expect(keyboard.press(omicron).text == "ό")
        keyboard.updateModifiers(depressed: keyboard.mask(of: ["Shift"]), latched: 0, locked: 0, group: 0)
        #expect(keyboard.press(accent).text == "")
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        #expect(keyboard.press(iota).text == "ϊ")
        // Capital with tonos: tonos, then Shift+ο.
        #expect(keyboard.press(accent).text == "")
        keyboard.updateModifiers(depressed: keyboard.mask(of: ["Shift"]), latched: 0, locked: 0, group: 0)
        #expect(keyboard.press(omicron).text == "Ό")
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        #expect(keyboard.press(omicron).text == "ο")
    }

    @Test("Letters repeat, modifiers do not")
    func repeatingKeys() throws {
        let keyboard = try XKBKeyboard(layout: "us")
        #expect(keyboard.repeats(Key.a))
        #expect(!keyboard.repeats(Key.leftShift))
    }

    @Test("Key commands match their key and exact modifiers, ignoring case and Caps Lock")
    func keyCommandMatching() {
        let quit = KeyCommand.quit
        #expect(quit.matches(KeyEvent(phase: .down, keysym: 0x71, modifiers: .control)))
        #expect(quit.matches(KeyEvent(phase: .down, keysym: 0x51, modifiers: [.control, .capsLock])))
        #expect(!quit.matches(KeyEvent(phase: .down, keysym: 0x71, modifiers: [.control, .shift])))
        #expect(!quit.matches(KeyEvent(phase: .down, keysym: 0x71)))
        #expect(!quit.matches(KeyEvent(phase: .up, keysym: 0x71, modifiers: .control)))
    }
}

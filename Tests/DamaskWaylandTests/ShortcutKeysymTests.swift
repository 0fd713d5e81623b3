import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// The keysym shortcuts match a key by (`KeyEvent.shortcutKeysym`), as a client on a real
/// seat computes it from the compositor's keymap: the key's Latin letter on every layout,
/// while the text stays the active layout's.
@Suite("Shortcut keysyms (xkb)", .exclusive, .timeLimit(.minutes(5)))
struct ShortcutKeysymTests {
    /// The xkb keycodes (evdev + 8) of the keys labelled A, C, X, V, Q, S, D, Z and 1…8.
    static let letterKeys: [(Character, UInt32)] = [
        ("a", 30 + 8), ("c", 46 + 8), ("x", 45 + 8), ("v", 47 + 8), ("q", 16 + 8), ("s", 31 + 8), ("d", 32 + 8),
    ]
    static let digitKeys: [(Character, UInt32)] = (1...8).map { (Character("\($0)"), UInt32($0 + 1 + 8)) }

    @Test("On every layout the keys labelled A, C, X, V, Q, S, D match their letter and 1–8 their digit",
        arguments: ["ru", "gr", "ara", "il", "us", "de"])
    func lettersOnEveryLayout(_ layout: String) throws {
        let keyboard = try XKBKeyboard(layout: layout)
        for (label, keycode) in Self.letterKeys + Self.digitKeys {
            let shortcut = keyboard.shortcutKeysym(keycode)
            #expect(shortcut == label.unicodeScalars.first!.value, "\(layout) key \(label): \(String(shortcut, radix: 16))")
        }
    }

    @Test("us,ru with Russian active: the C key types с and matches c; with US active it types c")
    func secondGroupActive() throws {
        let keyboard = try XKBKeyboard(layout: "us,ru")
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 1)
        #expect(keyboard.translate(46 + 8) == .init(keysym: 0x6D3, text: "с"))  // Cyrillic_es
        #expect(keyboard.shortcutKeysym(46 + 8) == 0x63)
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        #expect(keyboard.translate(46 + 8) == .init(keysym: 0x63, text: "c"))
        #expect(keyboard.shortcutKeysym(46 + 8) == 0x63)
    }

    @Test("Latin layouts keep their own keys: Z on German is y, the French M key is comma, ] on German is +")
    func latinLayoutsKeepTheirKeysyms() throws {
        #expect(try XKBKeyboard(layout: "de").shortcutKeysym(21 + 8) == 0x7A)  // AD06: z on de
        #expect(try XKBKeyboard(layout: "fr").shortcutKeysym(50 + 8) == 0x2C)  // AB07: comma on fr
        #expect(try XKBKeyboard(layout: "de").shortcutKeysym(27 + 8) == 0x2B)  // AD12: plus on de
        // Function keys are never replaced: Return on ru.
        #expect(try XKBKeyboard(layout: "ru").shortcutKeysym(28 + 8) == 0xFF0D)
    }

    @Test("On ru the keys [ and ] (Cyrillic х, ъ) match bracketleft and bracketright, for the paths scene")
    func bracketsOnRussian() throws {
        let keyboard = try XKBKeyboard(layout: "ru")
        #expect(keyboard.shortcutKeysym(26 + 8) == 0x5B)
        #expect(keyboard.shortcutKeysym(27 + 8) == 0x5D)
    }
}

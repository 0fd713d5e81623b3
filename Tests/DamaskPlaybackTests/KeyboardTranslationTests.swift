import Testing

@testable import DamaskPlayback

@Suite("Keyboard translation", .timeLimit(.minutes(5)))
struct KeyboardTranslationTests {
    /// The text xkb produces when `text` is typed key by key on `layout`.
    private func typed(_ text: String, layout: String) throws -> String {
        let name = try #require(KeyboardLayout(layout))
        let keymap = try #require(Keymap(layout: name))
        let keyboard = try #require(KeyboardState(keymap: keymap))
        var produced = ""
        for character in text.unicodeScalars {
            let stroke = try #require(keymap.stroke(for: character), "\(character)")
            produced += keyboard.type(stroke).map(\.text).joined()
        }
        #expect(keyboard.pressedKeys.isEmpty)
        return produced
    }

    @Test("us types ASCII text exactly, shifted characters included")
    func usTypesASCII() throws {
        let text = "Damask typed: ~!@#$%^&*()_+{}|:\"<>? `1234567890-=[]\\;',./ \t"
        #expect(try typed(text, layout: "us") == text)
    }

    @Test("us has no key for ü; de types \"Damask ü\"; us:intl reaches ü with AltGr")
    func umlautNeedsALayoutWithIt() throws {
        let us = try #require(Keymap(layout: .us))
        #expect(us.firstUntypableCharacter(in: "Damask ü") == "ü")
        #expect(try typed("Damask ü", layout: "de") == "Damask ü")
        #expect(try typed("Damask ü", layout: "us:intl") == "Damask ü")
        let intl = try #require(Keymap(layout: KeyboardLayout(layout: "us", variant: "intl")))
        #expect(intl.stroke(for: "ü")?.modifierKeycodes.count == 1)
    }

    @Test("de swaps y and z and puts @ on AltGr+q")
    func germanLayoutKeys() throws {
        let de = try #require(Keymap(layout: KeyboardLayout(layout: "de")))
        let us = try #require(Keymap(layout: .us))
        let (deZ, usY) = (try #require(de.stroke(for: "z")), try #require(us.stroke(for: "y")))
        let (deAt, usQ) = (try #require(de.stroke(for: "@")), try #require(us.stroke(for: "q")))
        #expect(deZ.keycode == usY.keycode)
        #expect(usY.keycode == 21 + 8)  // KEY_Y
        #expect(deAt.keycode == usQ.keycode)
        #expect(usQ.keycode == 16 + 8)  // KEY_Q
        #expect(deAt.modifierKeycodes == [108])  // AltGr (RALT)
    }

    @Test("digits and operators come from the main block, not the keypad")
    func mainBlockBeforeKeypad() throws {
        let us = try #require(Keymap(layout: .us))
        let keyboard = try #require(KeyboardState(keymap: us))
        for character in "*+-/1" {
            let scalar = try #require(character.unicodeScalars.first)
            let press = keyboard.type(try #require(us.stroke(for: scalar))).first { $0.text == String(character) }
            let keysym = try #require(press?.keysym)
            #expect(!(0xFF80...0xFFBD).contains(keysym), "\(character) typed on the keypad")
        }
    }

    @Test("a newline types Return")
    func newlineTypesReturn() throws {
        let us = try #require(Keymap(layout: .us))
        let keyboard = try #require(KeyboardState(keymap: us))
        let transitions = keyboard.type(try #require(us.stroke(for: "\n")))
        #expect(transitions.first?.keysym == 0xFF0D)
    }

    @Test("modifiers are reported as a real keyboard reports them")
    func modifiersFollowXKBState() throws {
        let us = try #require(Keymap(layout: .us))
        let keyboard = try #require(KeyboardState(keymap: us))
        let shift = try #require(us.keycode(for: .shift))
        let a = try #require(us.stroke(for: "a")).keycode
        let shiftDown = keyboard.press(shift)
        #expect(shiftDown.modifiers == [])
        let aDown = keyboard.press(a)
        #expect(aDown.modifiers == [.shift])
        #expect(aDown.text == "A")
        #expect(keyboard.release(a).text == "")
        _ = keyboard.release(shift)
        #expect(keyboard.activeModifiers.isEmpty)
        #expect(keyboard.press(a).text == "a")
    }

    @Test("dead keys compose as on a real seat: us:intl dead_acute then e types é, dead_diaeresis then u types ü")
    func deadKeysCompose() throws {
        let intl = try #require(Keymap(layout: KeyboardLayout(layout: "us", variant: "intl")))
        let keyboard = try #require(KeyboardState(keymap: intl, composeLocale: "en_US.UTF-8"))
        let acuteSym = try #require(Keymap.keysym(named: "dead_acute"))
        let diaeresisSym = try #require(Keymap.keysym(named: "dead_diaeresis"))
        let acute = try #require(intl.stroke(forKeysym: acuteSym))
        let diaeresis = try #require(intl.stroke(forKeysym: diaeresisSym))
        let e = try #require(intl.stroke(for: "e")), u = try #require(intl.stroke(for: "u"))
        let q = try #require(intl.stroke(for: "q"))
        let typed = { (stroke: KeyStroke) in keyboard.type(stroke).filter(\.isPress).map(\.text).joined() }
        #expect(typed(acute) == "")
        let composed = keyboard.type(e).first { $0.isPress && $0.keycode == e.keycode }
        #expect(composed?.text == "é")
        #expect(composed?.keysym == 0xE9)  // eacute
        #expect(typed(e) == "e")
        #expect(typed(diaeresis) == "")
        #expect(typed(u) == "ü")
        // A sequence the table lacks types nothing; the next key types normally.
        #expect(typed(acute) == "")
        #expect(typed(q) == "")
        #expect(typed(e) == "e")
        // A reset forgets a half-typed sequence.
        #expect(typed(acute) == "")
        keyboard.resetCompose()
        #expect(typed(e) == "e")
    }

    @Test("characters no key level has are found as compose sequences of the keymap's keys, shortest first")
    func composeSequencesForType() throws {
        let de = try #require(Keymap(layout: KeyboardLayout(layout: "de")))
        let keyboard = try #require(KeyboardState(keymap: de, composeLocale: "en_US.UTF-8"))
        // ü has its own key: one stroke; é needs dead_acute then e.
        #expect(keyboard.strokes(for: "ü")?.count == 1)
        let strokes = try #require(keyboard.strokes(for: "é"))
        #expect(strokes.count == 2)
        let acuteSym = try #require(Keymap.keysym(named: "dead_acute"))
        #expect(strokes.first == de.stroke(forKeysym: acuteSym))
        #expect(strokes.last == de.stroke(for: "e"))
        // What the sequence types, through the keyboard's own compose state.
        for text in ["é", "ê", "à", "É", "ô"] {
            let scalar = try #require(text.unicodeScalars.first)
            let typed = try #require(keyboard.strokes(for: scalar)).flatMap { keyboard.type($0) }.map(\.text).joined()
            #expect(typed == text)
        }
        #expect(keyboard.pressedKeys.isEmpty)
        #expect(de.firstUntypableCharacter(in: "Café", composeLocale: "en_US.UTF-8") == nil)
    }

    @Test("a character neither a key nor a compose sequence of the layout produces stays untypable")
    func untypableWithoutKeyOrSequence() throws {
        // us has no dead keys and no Compose key, so é cannot be typed there.
        let us = try #require(Keymap(layout: .us))
        #expect(us.strokes(for: "é", composeLocale: "en_US.UTF-8") == nil)
        #expect(us.firstUntypableCharacter(in: "Café", composeLocale: "en_US.UTF-8") == "é")
        // Without a compose table, de's dead keys compose nothing.
        let de = try #require(Keymap(layout: KeyboardLayout(layout: "de")))
        #expect(de.strokes(for: "é", composeLocale: "xx_NOSUCH.UTF-8") == nil)
        #expect(de.strokes(for: "ü", composeLocale: "xx_NOSUCH.UTF-8")?.count == 1)
        // No layout key or sequence types a Han character.
        #expect(de.strokes(for: "字", composeLocale: "en_US.UTF-8") == nil)
    }

    @Test("without a compose table (an unknown locale) a dead key types nothing and the next key types itself")
    func noComposeTable() throws {
        let intl = try #require(Keymap(layout: KeyboardLayout(layout: "us", variant: "intl")))
        let keyboard = try #require(KeyboardState(keymap: intl, composeLocale: "xx_NOSUCH.UTF-8"))
        let acuteSym = try #require(Keymap.keysym(named: "dead_acute"))
        let acute = try #require(intl.stroke(forKeysym: acuteSym))
        let e = try #require(intl.stroke(for: "e"))
        #expect(keyboard.type(acute).map(\.text).joined() == "")
        #expect(keyboard.type(e).map(\.text).joined() == "e")
    }

    @Test("unknown layouts do not compile")
    func unknownLayout() {
        #expect(Keymap(layout: KeyboardLayout(layout: "nosuchlayout")) == nil)
        #expect(Keymap(layout: KeyboardLayout(layout: "us", variant: "nosuchvariant")) == nil)
    }
}

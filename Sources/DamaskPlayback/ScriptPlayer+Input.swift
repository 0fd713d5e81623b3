import DamaskViews
import Foundation

/// Input: every event goes through `Window.dispatch(_:)`, one main-queue turn apart.
extension ScriptPlayer {
    /// Sends `event` to the window the way the seat does, advances the event clock, and lets
    /// the turn finish (so the window's display pass runs as after real input).
    public func send(_ event: Event) async {
        onDispatch?(event, clock)
        window.dispatch(event)
        clock &+= options.millisecondsPerEvent
        await nextTurn()
    }

    /// The modifiers the simulated keyboard holds, as event flags.
    public var modifierFlags: ModifierFlags {
        guard let keyboard else { return [] }
        return ScriptPlayer.flags(keyboard.activeModifiers, capsLock: keyboard.isCapsLockOn)
    }

    /// Moves the pointer (entering the window first if it has not yet).
    func movePointer(to point: CGPoint) async {
        pointerLocation = point
        let kind: PointerEvent.Kind = hasPointerEntered ? .moved : .entered
        hasPointerEntered = true
        await send(.pointer(pointerEvent(kind, button: nil, clickCount: 0)))
    }

    func pressButton(_ button: ScriptButton, clickCount: Int) async {
        await enterIfNeeded()
        await send(.pointer(pointerEvent(.down, button: button, clickCount: clickCount)))
    }

    func releaseButton(_ button: ScriptButton, clickCount: Int) async {
        await enterIfNeeded()
        await send(.pointer(pointerEvent(.up, button: button, clickCount: clickCount)))
    }

    func scroll(dx: Int, dy: Int) async {
        await enterIfNeeded()
        await send(
            .scroll(
                ScrollEvent(
                    location: pointerLocation, deltaX: CGFloat(dx) * options.scrollPointsPerStep,
                    deltaY: CGFloat(dy) * options.scrollPointsPerStep, discreteX: dx, discreteY: dy,
                    source: .wheel, modifiers: modifierFlags, timestamp: clock)))
    }

    /// A high-resolution wheel: `dx120`, `dy120` in 120ths of a detent, as `wl_pointer`
    /// version 8 delivers them: the whole movement in the steps, and a discrete step for
    /// each whole detent completed, counted from a remainder carried between commands (a
    /// turn the other way starts it from zero), as `WaylandPointer` counts them.
    func wheel(dx120: Int, dy120: Int) async {
        await enterIfNeeded()
        let detentsX = Self.detents(adding: dx120, to: &wheelRemainder120.x)
        let detentsY = Self.detents(adding: dy120, to: &wheelRemainder120.y)
        await send(
            .scroll(
                ScrollEvent(
                    location: pointerLocation, deltaX: CGFloat(dx120) / 120 * options.scrollPointsPerStep,
                    deltaY: CGFloat(dy120) / 120 * options.scrollPointsPerStep, discreteX: detentsX,
                    discreteY: detentsY, steps120X: dx120, steps120Y: dy120, source: .wheel,
                    modifiers: modifierFlags, timestamp: clock)))
    }

    /// Adds `value` 120ths to `remainder` (dropped first when `value` goes the other way)
    /// and returns the whole detents completed, keeping the rest in `remainder`.
    static func detents(adding value: Int, to remainder: inout Int) -> Int {
        guard value != 0 else { return 0 }
        if (remainder > 0 && value < 0) || (remainder < 0 && value > 0) { remainder = 0 }
        remainder += value
        let detents = remainder / 120
        remainder -= detents * 120
        return detents
    }

    /// Fingers on a touchpad scroll by `dx`, `dy` points; `ends`: they lift.
    func touchpad(dx: CGFloat, dy: CGFloat, ends: Bool) async {
        await enterIfNeeded()
        await send(
            .scroll(
                ScrollEvent(
                    location: pointerLocation, deltaX: dx, deltaY: dy, source: .finger, endsGesture: ends,
                    modifiers: modifierFlags, timestamp: clock)))
    }

    private func enterIfNeeded() async {
        guard !hasPointerEntered else { return }
        await movePointer(to: pointerLocation)
    }

    private func pointerEvent(
        _ kind: PointerEvent.Kind, button: ScriptButton?, clickCount: Int
    ) -> PointerEvent {
        PointerEvent(
            kind: kind, location: pointerLocation, button: button.map(ScriptPlayer.mouseButton),
            clickCount: clickCount, modifiers: modifierFlags, timestamp: clock)
    }

    // MARK: Keyboard

    /// Presses the chord's modifiers, the key (with the modifiers its level needs), then
    /// releases them in reverse.
    func press(_ chord: KeyChord, at location: SourceLocation) async throws(PlaybackError) {
        let keyboard = try requireKeyboard(at: location)
        guard let sym = Keymap.keysym(named: chord.keyName),
            let stroke = keyboard.keymap.stroke(forKeysym: sym)
        else {
            throw PlaybackError(
                "layout '\(keyboard.keymap.layout)' has no key for '\(chord.keyName)'", at: location)
        }
        var modifiers: [UInt32] = []
        for modifier in chord.modifiers {
            guard let keycode = keyboard.keymap.keycode(for: modifier) else {
                throw PlaybackError(
                    "layout '\(keyboard.keymap.layout)' has no key for '\(modifier.rawValue)'",
                    at: location)
            }
            modifiers.append(keycode)
        }
        for keycode in stroke.modifierKeycodes where !modifiers.contains(keycode) {
            modifiers.append(keycode)
        }
        await deliver(keyboard.type(KeyStroke(modifierKeycodes: modifiers, keycode: stroke.keycode)))
    }

    /// Presses or releases one key, named by its keysym, without touching other keys.
    func pressKey(named name: String, isDown: Bool, at location: SourceLocation) async throws(PlaybackError) {
        let keyboard = try requireKeyboard(at: location)
        guard let sym = Keymap.keysym(named: name),
            let stroke = keyboard.keymap.stroke(forKeysym: sym)
        else {
            throw PlaybackError("layout '\(keyboard.keymap.layout)' has no key for '\(name)'", at: location)
        }
        await deliver([isDown ? keyboard.press(stroke.keycode) : keyboard.release(stroke.keycode)])
    }

    /// Types `text` key by key as a person would: each character's key with the modifiers
    /// its level needs, or, for a character no key level has, its dead-key or `Multi_key`
    /// sequence through the keyboard's compose table (so the view gets the composed text
    /// on the key that ends the sequence, as from a real seat).
    func type(_ text: String, at location: SourceLocation) async throws(PlaybackError) {
        let keyboard = try requireKeyboard(at: location)
        for character in text.unicodeScalars {
            guard let strokes = keyboard.strokes(for: character) else {
                throw PlaybackError(
                    "character '\(ScriptPrinter.escaped(String(character)))' cannot be typed "
                        + "with layout '\(keyboard.keymap.layout)'", at: location)
            }
            for stroke in strokes { await deliver(keyboard.type(stroke)) }
        }
    }

    private func requireKeyboard(at location: SourceLocation) throws(PlaybackError) -> KeyboardState {
        guard let keyboard else {
            throw PlaybackError("no keyboard layout is loaded", at: location)
        }
        return keyboard
    }

    /// Gives the window keyboard focus (once), then sends each transition as a key event.
    private func deliver(_ transitions: [KeyTransition]) async {
        if !hasKeyboardFocus {
            hasKeyboardFocus = true
            await send(.keyboardFocus(true))
        }
        for transition in transitions {
            await send(.key(ScriptPlayer.keyEvent(transition, timestamp: clock)))
        }
    }

    // MARK: Conversions

    /// The key event a seat would deliver for `transition`.
    public static func keyEvent(_ transition: KeyTransition, timestamp: UInt32) -> KeyEvent {
        KeyEvent(
            phase: transition.isPress ? .down : .up, keysym: transition.keysym,
            keycode: transition.keycode, text: transition.text,
            modifiers: flags(transition.modifiers, capsLock: transition.isCapsLockOn),
            isRepeat: false, timestamp: timestamp, shortcutKeysym: transition.shortcutKeysym)
    }

    /// Event modifier flags for a set of keyboard modifiers.
    static func flags(_ modifiers: Set<KeyModifier>, capsLock: Bool) -> ModifierFlags {
        var flags: ModifierFlags = capsLock ? .capsLock : []
        for modifier in modifiers {
            switch modifier {
            case .shift: flags.insert(.shift)
            case .control: flags.insert(.control)
            case .alt: flags.insert(.alt)
            case .logo: flags.insert(.logo)
            }
        }
        return flags
    }

    static func mouseButton(_ button: ScriptButton) -> MouseButton {
        switch button {
        case .left: .left
        case .right: .right
        case .middle: .middle
        }
    }
}

import CXKBCommon

/// A simulated keyboard: an `xkb_state` fed with key presses and releases, reporting for each
/// one the keysym, text and modifiers a real keyboard with the same keymap would give.
///
/// Ownership: owns its `xkb_state` (unref in `deinit`) and keeps its `Keymap` alive.
/// Threading: use from one thread at a time (the player uses it on the main actor).
public final class KeyboardState {
    /// The keymap the state follows.
    public let keymap: Keymap
    private let state: OpaquePointer
    /// The keys currently held down (XKB keycodes).
    public private(set) var pressedKeys: Set<UInt32> = []

    /// Creates a state with no keys down; nil if XKB cannot allocate one.
    public init?(keymap: Keymap) {
        guard let state = xkb_state_new(keymap.keymap) else { return nil }
        self.keymap = keymap
        self.state = state
    }

    deinit { xkb_state_unref(state) }

    /// Presses `keycode`: reports the key as XKB sees it now, then updates the state.
    public func press(_ keycode: UInt32) -> KeyTransition {
        let transition = describe(keycode, isPress: true)
        xkb_state_update_key(state, keycode, XKB_KEY_DOWN)
        pressedKeys.insert(keycode)
        return transition
    }

    /// Releases `keycode`: reports the key, then updates the state.
    public func release(_ keycode: UInt32) -> KeyTransition {
        let transition = describe(keycode, isPress: false)
        xkb_state_update_key(state, keycode, XKB_KEY_UP)
        pressedKeys.remove(keycode)
        return transition
    }

    /// The transitions of one stroke: modifiers down, key down, key up, modifiers up in
    /// reverse. Modifier keys already held are neither pressed nor released again.
    public func type(_ stroke: KeyStroke) -> [KeyTransition] {
        let modifiers = stroke.modifierKeycodes.filter { !pressedKeys.contains($0) }
        var transitions = modifiers.map { press($0) }
        transitions.append(press(stroke.keycode))
        transitions.append(release(stroke.keycode))
        transitions += modifiers.reversed().map { release($0) }
        return transitions
    }

    /// The modifiers in effect now.
    public var activeModifiers: Set<KeyModifier> {
        var result: Set<KeyModifier> = []
        let names: [(String, KeyModifier)] = [
            ("Shift", .shift), ("Control", .control), ("Mod1", .alt), ("Mod4", .logo),
        ]
        for (name, modifier) in names
        where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            result.insert(modifier)
        }
        return result
    }

    /// Whether Caps Lock is locked now.
    public var isCapsLockOn: Bool {
        xkb_state_mod_name_is_active(state, "Lock", XKB_STATE_MODS_EFFECTIVE) > 0
    }

    private func describe(_ keycode: UInt32, isPress: Bool) -> KeyTransition {
        KeyTransition(
            keycode: keycode, isPress: isPress,
            keysym: xkb_state_key_get_one_sym(state, keycode),
            text: isPress ? Keymap.utf8(state: state, keycode: keycode) : "",
            modifiers: activeModifiers, isCapsLockOn: isCapsLockOn)
    }
}

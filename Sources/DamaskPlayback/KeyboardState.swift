import CXKBCommon
import Foundation

/// A simulated keyboard: an `xkb_state` fed with key presses and releases, reporting for each
/// one the keysym, text and modifiers a real keyboard with the same keymap would give.
///
/// Presses also go through the compose table of a locale, as a Damask client on a real seat
/// does: a dead key or `Multi_key` types nothing, and the key that ends a sequence types its
/// result (`dead_acute` then `e` types "é").
///
/// Ownership: owns its `xkb_state` and its compose table and state (unref'd in `deinit`) and
/// keeps its `Keymap` (and with it the `xkb_context`) alive.
/// Threading: use from one thread at a time (the player uses it on the main actor).
public final class KeyboardState {
    /// The keymap the state follows.
    public let keymap: Keymap
    private let state: OpaquePointer
    /// The keys currently held down (XKB keycodes).
    public private(set) var pressedKeys: Set<UInt32> = []

    /// The locale whose compose table presses go through.
    public let composeLocale: String
    /// The compose table (nil when the locale has none), owned by this object.
    private let composeTable: OpaquePointer?
    /// The compose state over ``composeTable``, owned by this object.
    private let composeState: OpaquePointer?

    /// Creates a state with no keys down; nil if XKB cannot allocate one.
    ///
    /// Compose sequences follow `composeLocale`'s table; nil means the user's locale
    /// (`LC_ALL`, `LC_CTYPE`, `LANG`, else "C"). libxkbcommon reads `XCOMPOSEFILE` or
    /// `~/.XCompose` instead of the locale's table when they exist, as X and Wayland
    /// clients do.
    public init?(keymap: Keymap, composeLocale: String? = nil) {
        guard let state = xkb_state_new(keymap.keymap) else { return nil }
        self.keymap = keymap
        self.state = state
        self.composeLocale = composeLocale ?? Self.userLocale
        composeTable = xkb_compose_table_new_from_locale(
            keymap.context, self.composeLocale, XKB_COMPOSE_COMPILE_NO_FLAGS)
        composeState = composeTable.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
    }

    deinit {
        if let composeState { xkb_compose_state_unref(composeState) }
        if let composeTable { xkb_compose_table_unref(composeTable) }
        xkb_state_unref(state)
    }

    /// `LC_ALL`, `LC_CTYPE` or `LANG`, whichever is set first and not empty; "C" otherwise.
    public static var userLocale: String {
        let environment = ProcessInfo.processInfo.environment
        return [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "C"
    }

    /// Presses `keycode`: reports the key as XKB sees it now (through the compose table),
    /// then updates the state.
    public func press(_ keycode: UInt32) -> KeyTransition {
        let transition = composed(describe(keycode, isPress: true))
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

    /// How a person types `character` on this keyboard: one key, or a dead-key or
    /// `Multi_key` sequence of this keyboard's compose table (see
    /// ``Keymap/strokes(for:composeLocale:)``); nil when neither produces it.
    public func strokes(for character: Unicode.Scalar) -> [KeyStroke]? {
        keymap.strokes(for: character, composeLocale: composeLocale)
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

    /// Forgets a half-typed compose sequence.
    public func resetCompose() {
        if let composeState { xkb_compose_state_reset(composeState) }
    }

    /// `press` fed through the compose state: within a sequence it types nothing, at its
    /// end it types the sequence's result (with its keysym), and a sequence that does not
    /// exist types nothing.
    private func composed(_ press: KeyTransition) -> KeyTransition {
        guard let composeState, xkb_compose_state_feed(composeState, press.keysym) == XKB_COMPOSE_FEED_ACCEPTED
        else { return press }
        var result = press
        switch xkb_compose_state_get_status(composeState) {
        case XKB_COMPOSE_COMPOSING:
            result.text = ""
        case XKB_COMPOSE_COMPOSED:
            let length = xkb_compose_state_get_utf8(composeState, nil, 0)
            var buffer = [CChar](repeating: 0, count: Int(max(length, 0)) + 1)
            xkb_compose_state_get_utf8(composeState, &buffer, buffer.count)
            result.text = String(decoding: buffer.prefix(Int(max(length, 0))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let keysym = xkb_compose_state_get_one_sym(composeState)
            if keysym != 0 { result.keysym = keysym }
            xkb_compose_state_reset(composeState)
        case XKB_COMPOSE_CANCELLED:
            result.text = ""
            xkb_compose_state_reset(composeState)
        default:
            break
        }
        return result
    }

    private func describe(_ keycode: UInt32, isPress: Bool) -> KeyTransition {
        let keysym = xkb_state_key_get_one_sym(state, keycode)
        return KeyTransition(
            keycode: keycode, isPress: isPress, keysym: keysym,
            text: isPress ? Keymap.utf8(state: state, keycode: keycode) : "",
            modifiers: activeModifiers, isCapsLockOn: isCapsLockOn,
            shortcutKeysym: keymap.shortcutKeysym(
                keycode, active: keysym, layout: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE)))
    }
}

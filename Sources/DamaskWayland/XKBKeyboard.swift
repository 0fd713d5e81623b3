import CXKBCommon
import DamaskViews
import DamaskXKB
import Foundation

/// A compiled xkb keymap with its keyboard state: turns keycodes into keysyms and text.
///
/// Dead keys and compose sequences (`^` then `e` gives "ê") follow the compose table of the
/// user's locale (`LC_ALL`, `LC_CTYPE`, `LANG`), when one exists.
///
/// Owns its keymap (an ``XKBKeymap``, the xkbcommon wrapper it shares with script playback),
/// its `xkb_state` and compose table and state (unref'd in `deinit`, before the keymap). Modifiers
/// come from the compositor (`wl_keyboard.modifiers` → ``updateModifiers(depressed:latched:locked:group:)``),
/// as the protocol asks, never from the key presses themselves. Not thread-safe: used on
/// the main actor by ``WaylandKeyboard`` (and by tests).
final class XKBKeyboard {
    /// What a key press produces.
    struct Translation: Equatable {
        /// The keysym with the current modifiers.
        var keysym: UInt32
        /// The text, without control characters ("" when the key types nothing).
        var text: String
    }

    /// Failure to compile a keymap.
    enum KeymapError: Error, Equatable {
        /// xkbcommon rejected the keymap (text or names).
        case invalidKeymap
    }

    /// The compiled keymap (owned; it outlives the state and compose objects made from it).
    private let xkb: XKBKeymap
    private var keymap: OpaquePointer { xkb.keymap }
    private let state: OpaquePointer
    private let composeTable: OpaquePointer?
    private let composeState: OpaquePointer?
    /// The keymap's index of each modifier ``modifiers`` reports (looked up once: by name,
    /// xkbcommon searches the keymap's modifier names at every call, five per key event).
    private let modifierIndices: [(index: xkb_mod_index_t, flag: ModifierFlags)]

    /// Compiles a keymap in xkb text format (what `wl_keyboard.keymap` sends); compose
    /// sequences follow `composeLocale` (default: the user's locale).
    convenience init(keymapText: String, composeLocale: String? = nil) throws {
        guard let xkb = XKBKeymap(text: keymapText) else { throw KeymapError.invalidKeymap }
        try self.init(xkb: xkb, composeLocale: composeLocale ?? Self.userLocale)
    }

    /// Compiles a keymap from RMLVO names (`layout: "de"`), as tests and fallbacks need.
    convenience init(layout: String, variant: String = "", composeLocale: String? = nil) throws {
        guard let xkb = XKBKeymap(layout: layout, variant: variant) else { throw KeymapError.invalidKeymap }
        try self.init(xkb: xkb, composeLocale: composeLocale ?? Self.userLocale)
    }

    /// `LC_ALL`, `LC_CTYPE` or `LANG`, whichever is set first; "C" otherwise.
    static var userLocale: String {
        let environment = ProcessInfo.processInfo.environment
        return [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "C"
    }

    private convenience init(xkb: XKBKeymap, composeLocale: String) throws {
        let table = xkb_compose_table_new_from_locale(xkb.context, composeLocale, XKB_COMPOSE_COMPILE_NO_FLAGS)
        defer { if let table { xkb_compose_table_unref(table) } }
        try self.init(keymap: xkb, composeTable: table)
    }

    /// A keyboard in a fresh state on `keymap` (default: `template`'s) with `template`'s
    /// compose table, both shared rather than compiled again: for a caller that makes many
    /// keyboards (the keymap fuzz target compiles the en_US.UTF-8 compose table once).
    convenience init(keymap: XKBKeymap? = nil, composeTableOf template: XKBKeyboard) throws {
        try self.init(keymap: keymap ?? template.xkb, composeTable: template.composeTable)
    }

    /// A keyboard on `xkb` with `table` (an `xkb_compose_table*`, nil for none), which stays
    /// the caller's: the keyboard takes a reference of its own.
    private init(keymap xkb: XKBKeymap, composeTable table: OpaquePointer?) throws {
        guard let state = xkb_state_new(xkb.keymap) else { throw KeymapError.invalidKeymap }
        self.xkb = xkb
        self.state = state
        let names: [(String, ModifierFlags)] = [
            (XKB_MOD_NAME_SHIFT, .shift), (XKB_MOD_NAME_CTRL, .control), (XKB_MOD_NAME_ALT, .alt),
            (XKB_MOD_NAME_LOGO, .logo), (XKB_MOD_NAME_CAPS, .capsLock),
        ]
        modifierIndices = names.compactMap { name, flag in
            let index = xkb_keymap_mod_get_index(xkb.keymap, name)
            return index == XKB_MOD_INVALID ? nil : (index, flag)
        }
        composeTable = table.flatMap { xkb_compose_table_ref($0) }
        composeState = composeTable.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
    }

    deinit {
        if let composeState { xkb_compose_state_unref(composeState) }
        if let composeTable { xkb_compose_table_unref(composeTable) }
        xkb_state_unref(state)
    }

    /// Applies the compositor's serialized modifier state.
    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
        storedModifiers = modifiersInEffect()
    }

    /// The modifiers the xkb state has in effect, asked of xkbcommon (five calls).
    private func modifiersInEffect() -> ModifierFlags {
        var flags = ModifierFlags()
        for (index, flag) in modifierIndices where xkb_state_mod_index_is_active(state, index, XKB_STATE_MODS_EFFECTIVE) > 0 {
            flags.insert(flag)
        }
        return flags
    }

    /// The keysym of `keycode` (xkb numbering: evdev + 8) with the current state, without its
    /// text: what a release needs (it types nothing).
    func keysym(_ keycode: UInt32) -> UInt32 {
        xkb_state_key_get_one_sym(state, keycode)
    }

    /// The keysym and text of `keycode` (xkb numbering: evdev + 8) with the current state.
    func translate(_ keycode: UInt32) -> Translation {
        let keysym = xkb_state_key_get_one_sym(state, keycode)
        // On the stack: this runs for every key press and release.
        var text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String in
            let length = Int(xkb_state_key_get_utf8(state, keycode, buffer.baseAddress, buffer.count))
            guard length > 0 else { return "" }
            let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(length, buffer.count - 1))
            return String(decoding: bytes, as: UTF8.self)
        }
        // A loop, not `contains(where:)`: every key (CONTRIBUTING.md, closures on hot paths).
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7f {
            text.unicodeScalars.removeAll { $0.value < 0x20 || $0.value == 0x7f }
            break
        }
        return Translation(keysym: keysym, text: text)
    }

    /// The keysym shortcuts match `keycode` by (``ShortcutKeysym``): its keysym now when
    /// that is Latin, else the first Latin letter at the key's first level on a layout of
    /// the keymap, in the keymap's order, else on US QWERTY.
    func shortcutKeysym(_ keycode: UInt32) -> UInt32 {
        let active = xkb_state_key_get_one_sym(state, keycode)
        let activeLayout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE)
        return xkb.shortcutKeysym(keycode, active: active, layout: activeLayout)
    }

    /// What a key press types, through the compose table: a dead key or the middle of a
    /// sequence types nothing, the end of a sequence types its result, a sequence that
    /// does not exist types nothing; any other key types as ``translate(_:)`` says.
    func press(_ keycode: UInt32) -> Translation {
        let plain = translate(keycode)
        guard let composeState,
            xkb_compose_state_feed(composeState, plain.keysym) == XKB_COMPOSE_FEED_ACCEPTED
        else { return plain }
        switch xkb_compose_state_get_status(composeState) {
        case XKB_COMPOSE_COMPOSING:
            return Translation(keysym: plain.keysym, text: "")
        case XKB_COMPOSE_COMPOSED:
            var buffer = [CChar](repeating: 0, count: 64)
            let length = Int(xkb_compose_state_get_utf8(composeState, &buffer, buffer.count))
            let bytes = buffer.prefix(max(0, min(length, buffer.count - 1))).map { UInt8(bitPattern: $0) }
            let result = Translation(
                keysym: xkb_compose_state_get_one_sym(composeState), text: String(decoding: bytes, as: UTF8.self))
            xkb_compose_state_reset(composeState)
            return result
        case XKB_COMPOSE_CANCELLED:
            xkb_compose_state_reset(composeState)
            return Translation(keysym: plain.keysym, text: "")
        default:
            return plain
        }
    }

    /// Forgets a half-typed compose sequence (focus lost, keymap changed).
    func resetCompose() {
        if let composeState { xkb_compose_state_reset(composeState) }
    }

    /// Whether `keycode` lies in the keymap's keycode range (a compositor can send anything).
    func knows(_ keycode: UInt32) -> Bool {
        keycode != XKB_KEYCODE_INVALID
            && (xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap)).contains(keycode)
    }

    /// Whether the keymap says `keycode` repeats when held.
    func repeats(_ keycode: UInt32) -> Bool {
        xkb_keymap_key_repeats(keymap, keycode) != 0
    }

    /// The modifiers in effect, as the last ``updateModifiers(depressed:latched:locked:group:)``
    /// left them (only it changes the state's modifiers): found once per `wl_keyboard.modifiers`,
    /// not by five xkbcommon calls at every key event. Debug builds check that the state
    /// agrees.
    var modifiers: ModifierFlags {
        assert(storedModifiers == modifiersInEffect(), "the xkb state's modifiers changed outside updateModifiers")
        return storedModifiers
    }
    private var storedModifiers = ModifierFlags()

    /// The keymap in xkb text format (what a compositor sends in `wl_keyboard.keymap`).
    var keymapText: String {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// The serialized mask of the named modifiers, for tests that fake `wl_keyboard.modifiers`.
    func mask(of modifierNames: [String]) -> UInt32 {
        modifierNames.reduce(0) { mask, name in
            let index = xkb_keymap_mod_get_index(keymap, name)
            return index == XKB_MOD_INVALID ? mask : mask | (1 << index)
        }
    }
}

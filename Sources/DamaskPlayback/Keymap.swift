import CXKBCommon
import DamaskViews
import DamaskXKB

/// An XKB keymap compiled from rule names (evdev rules, pc105, a layout and variant), with the
/// reverse lookups the player needs: which key and modifiers produce a character or keysym.
///
/// Ownership: the keymap owns its ``XKBKeymap`` (the `xkb_context` and `xkb_keymap`, shared
/// with DamaskWayland's keyboard through that wrapper).
/// Threading: use an instance from one thread at a time (it is not `Sendable`; libxkbcommon's
/// reference counts are not atomic). Separate instances are independent.
public final class Keymap {
    /// The layout this keymap was compiled from.
    public let layout: KeyboardLayout
    /// The compiled keymap (owned).
    private let xkb: XKBKeymap
    /// The `xkb_keymap*`, owned through ``xkb``.
    var keymap: OpaquePointer { xkb.keymap }
    /// The `xkb_context` the keymap was compiled in, owned through ``xkb``.
    var context: OpaquePointer { xkb.context }
    private var strokeByCharacter: [Unicode.Scalar: KeyStroke] = [:]
    private var strokeByKeysym: [UInt32: KeyStroke] = [:]
    private var modifierKeycode: [KeyModifier: UInt32] = [:]
    private var keypadKeycodes: Set<UInt32> = []
    /// Compose sequences found per resolved locale name (see ``strokes(for:composeLocale:)``).
    private var composeSequences: [String: ComposeSequences] = [:]
    /// Locales whose compose table libxkbcommon could not load.
    private var localesWithoutCompose: Set<String> = []

    /// Compiles the keymap for `layout`; nil if XKB cannot (an unknown layout or variant).
    public init?(layout: KeyboardLayout) {
        // Unknown names are reported to the caller through nil, not through stderr.
        guard let xkb = XKBKeymap(
            rules: "evdev", model: "pc105", layout: layout.layout, variant: layout.variant, options: "",
            quiet: true)
        else { return nil }
        self.layout = layout
        self.xkb = xkb
        buildTables()
    }

    /// The keysym for an XKB keysym name (`a`, `Return`, `Shift_L`, `udiaeresis`), exact case
    /// first, then case-insensitively; nil for an unknown name.
    public static func keysym(named name: String) -> UInt32? {
        guard !name.isEmpty, name.utf8.count < 64, !name.utf8.contains(0) else { return nil }
        var sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if sym == 0 { sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE) }
        return sym == 0 ? nil : sym
    }

    /// The keysym shortcuts match `keycode` by when it gives `active` with layout
    /// `activeLayout` (an index into this keymap's layouts) active (``ShortcutKeysym``):
    /// `active` when Latin, else the first Latin letter at the key's first level on a
    /// layout of this keymap, in order, else on US QWERTY (as a Damask client on a real
    /// seat computes it).
    public func shortcutKeysym(_ keycode: UInt32, active: UInt32, layout activeLayout: UInt32 = 0) -> UInt32 {
        xkb.shortcutKeysym(keycode, active: active, layout: activeLayout)
    }

    /// How to type `character` with this keymap (a key plus the modifiers of its level), or nil
    /// if no key and modifier combination produces it. `"\n"` types Return.
    public func stroke(for character: Unicode.Scalar) -> KeyStroke? {
        if character == "\n" { return strokeByKeysym[returnKeysym] }
        return strokeByCharacter[character]
    }

    /// How to produce `keysym` (the key that has it at the lowest level), or nil.
    public func stroke(forKeysym keysym: UInt32) -> KeyStroke? {
        strokeByKeysym[keysym]
    }

    /// The keycode of the key the player presses for `modifier`, or nil if the keymap has none.
    public func keycode(for modifier: KeyModifier) -> UInt32? {
        modifierKeycode[modifier]
    }

    /// How to type `character` as a person with this keymap would: its key (one stroke) when
    /// a key level produces it, otherwise the shortest dead-key or `Multi_key` sequence of
    /// the compose table of `composeLocale` (nil: the user's locale, as ``KeyboardState``
    /// uses; `XCOMPOSEFILE` or `~/.XCompose` replace the locale's table when they exist).
    /// Nil when neither produces it.
    public func strokes(for character: Unicode.Scalar, composeLocale: String? = nil) -> [KeyStroke]? {
        if let stroke = stroke(for: character) { return [stroke] }
        return sequences(composeLocale: composeLocale ?? KeyboardState.userLocale)?.strokes(for: character)
    }

    /// The first character of `text` (a Unicode scalar) that this keymap cannot type, neither
    /// with one key nor through the compose table of `composeLocale` (nil: the user's
    /// locale), or nil.
    public func firstUntypableCharacter(in text: String, composeLocale: String? = nil) -> Unicode.Scalar? {
        text.unicodeScalars.first { strokes(for: $0, composeLocale: composeLocale) == nil }
    }

    /// Every keysym a key level types, with its best stroke, best strokes first (fewer
    /// modifiers, main block before keypad, lower keycode).
    var keysymStrokes: [(keysym: UInt32, stroke: KeyStroke)] {
        strokeByKeysym.map { (keysym: $0.key, stroke: $0.value) }.sorted {
            rank($0.stroke) != rank($1.stroke) ? rank($0.stroke) < rank($1.stroke) : $0.keysym < $1.keysym
        }
    }

    /// The compose sequences of `locale`'s table on this keymap, loaded on first use; nil
    /// when libxkbcommon has no table for it.
    private func sequences(composeLocale locale: String) -> ComposeSequences? {
        if let known = composeSequences[locale] { return known }
        if localesWithoutCompose.contains(locale) { return nil }
        guard let table = xkb_compose_table_new_from_locale(context, locale, XKB_COMPOSE_COMPILE_NO_FLAGS) else {
            localesWithoutCompose.insert(locale)
            return nil
        }
        defer { xkb_compose_table_unref(table) }
        let sequences = ComposeSequences(table: table, keymap: self)
        composeSequences[locale] = sequences
        return sequences
    }

    /// The keysym of Return.
    private let returnKeysym: UInt32 = 0xFF0D

    // MARK: Building the reverse tables

    /// Fills the lookup tables by walking every key and level of the first layout group and
    /// checking, through a scratch `xkb_state`, what each combination really produces.
    private func buildTables() {
        let minKey = xkb_keymap_min_keycode(keymap)
        let maxKey = xkb_keymap_max_keycode(keymap)
        guard minKey <= maxKey else { return }

        // Modifier keys: for each level-1 keysym of interest, what pressing the key sets.
        var modifierKeys: [(keycode: UInt32, mask: UInt32)] = []
        let modifierSyms: Set<UInt32> = [
            0xFFE1, 0xFFE2,  // Shift_L, Shift_R
            0xFFE3, 0xFFE4,  // Control_L, Control_R
            0xFFE9, 0xFFEA,  // Alt_L, Alt_R
            0xFFEB, 0xFFEC,  // Super_L, Super_R
            0xFE03,  // ISO_Level3_Shift
            0xFE11,  // ISO_Level5_Shift
            0xFF7E,  // Mode_switch
        ]
        for key in minKey...maxKey {
            let syms = keysyms(key: key, level: 0)
            guard let sym = syms.first, syms.count == 1 else { continue }
            if let modifier = KeyModifier.allCases.first(where: {
                Keymap.keysym(named: $0.keysymName) == sym
            }), modifierKeycode[modifier] == nil {
                modifierKeycode[modifier] = key
            }
            if modifierSyms.contains(sym) {
                let mask = depressedMask(pressing: [key])
                if mask != 0 { modifierKeys.append((key, mask)) }
            }
        }

        // Keys a real keyboard has (Shift, Control, Alt, AltGr, logo) before the virtual
        // ones evdev keymaps add (such as <LVL3>, keycode 92).
        let realModifierKeys: [UInt32] = [50, 62, 37, 105, 64, 108, 133, 134]
        modifierKeys.sort {
            (realModifierKeys.firstIndex(of: $0.keycode) ?? Int.max, $0.keycode)
                < (realModifierKeys.firstIndex(of: $1.keycode) ?? Int.max, $1.keycode)
        }

        // Every key and level: the modifier masks that select the level, verified.
        for key in minKey...maxKey {
            let levels = xkb_keymap_num_levels_for_key(keymap, key, 0)
            guard levels > 0 else { continue }
            // Keypad keys (KP_*) type digits and operators too; people use the main block.
            if keysyms(key: key, level: 0).contains(where: { (0xFF80...0xFFBD).contains($0) }) {
                keypadKeycodes.insert(key)
            }
            for level in 0..<levels {
                let syms = keysyms(key: key, level: level)
                guard syms.count == 1, let sym = syms.first else { continue }
                let masks = levelMasks(key: key, level: level)
                for mask in masks.sorted(by: { $0.nonzeroBitCount < $1.nonzeroBitCount }) {
                    guard let modifiers = modifierKeycodes(for: mask, from: modifierKeys) else {
                        continue
                    }
                    let stroke = KeyStroke(modifierKeycodes: modifiers, keycode: key)
                    guard let (producedSym, text) = produce(stroke) else { continue }
                    if producedSym == sym, isBetter(stroke, than: strokeByKeysym[sym]) {
                        strokeByKeysym[sym] = stroke
                    }
                    let scalars = Array(text.unicodeScalars)
                    if scalars.count == 1, scalars[0].value >= 0x20, scalars[0].value != 0x7F,
                        isBetter(stroke, than: strokeByCharacter[scalars[0]])
                    {
                        strokeByCharacter[scalars[0]] = stroke
                    }
                    break
                }
            }
        }
        // Tab produces "\t", a control character the loop above skips on purpose.
        if let tab = strokeByKeysym[0xFF09] { strokeByCharacter["\t"] = tab }
    }

    /// Prefers the main key block over the keypad, then fewer modifier keys, then lower
    /// keycodes, so lookups are natural and deterministic.
    private func isBetter(_ candidate: KeyStroke, than current: KeyStroke?) -> Bool {
        guard let current else { return true }
        return rank(candidate) < rank(current)
    }

    /// How natural `stroke` is to press: main block before keypad, then fewer modifiers,
    /// then the lower keycode (lower is better).
    private func rank(_ stroke: KeyStroke) -> (Int, Int, UInt32) {
        (keypadKeycodes.contains(stroke.keycode) ? 1 : 0, stroke.modifierKeycodes.count, stroke.keycode)
    }

    /// The keysyms of `key` at `level` of the first group.
    private func keysyms(key: UInt32, level: UInt32) -> [UInt32] {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, key, 0, level, &syms)
        guard count > 0, let syms else { return [] }
        return Array(UnsafeBufferPointer(start: syms, count: Int(count)))
    }

    /// The modifier masks that select `level` of `key` in the first group.
    private func levelMasks(key: UInt32, level: UInt32) -> [UInt32] {
        var masks = [xkb_mod_mask_t](repeating: 0, count: 16)
        let count = xkb_keymap_key_get_mods_for_level(keymap, key, 0, level, &masks, masks.count)
        return Array(masks.prefix(Int(count)))
    }

    /// Modifier keys whose combined depressed mask is exactly `mask`, or nil. Lock (Caps Lock)
    /// is never used: it toggles rather than holds.
    private func modifierKeycodes(
        for mask: UInt32, from keys: [(keycode: UInt32, mask: UInt32)]
    ) -> [UInt32]? {
        if mask == 0 { return [] }
        var remaining = mask
        var chosen: [UInt32] = []
        while remaining != 0 {
            let bit = remaining & (~remaining &+ 1)
            guard let key = keys.first(where: { $0.mask & bit != 0 && $0.mask & ~mask == 0 })
            else { return nil }
            chosen.append(key.keycode)
            remaining &= ~key.mask
        }
        return chosen
    }

    /// The mods a fresh state reports as depressed after pressing `keys`.
    private func depressedMask(pressing keys: [UInt32]) -> UInt32 {
        guard let state = xkb_state_new(keymap) else { return 0 }
        defer { xkb_state_unref(state) }
        for key in keys { xkb_state_update_key(state, key, XKB_KEY_DOWN) }
        return xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED)
    }

    /// What `stroke` gives on a fresh state: the key's keysym and UTF-8 text.
    private func produce(_ stroke: KeyStroke) -> (UInt32, String)? {
        guard let state = xkb_state_new(keymap) else { return nil }
        defer { xkb_state_unref(state) }
        for key in stroke.modifierKeycodes { xkb_state_update_key(state, key, XKB_KEY_DOWN) }
        let sym = xkb_state_key_get_one_sym(state, stroke.keycode)
        return (sym, Keymap.utf8(state: state, keycode: stroke.keycode))
    }

    /// The UTF-8 text `keycode` produces in `state` (an `xkb_state*`).
    static func utf8(state: OpaquePointer, keycode: UInt32) -> String {
        let length = xkb_state_key_get_utf8(state, keycode, nil, 0)
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import CXKBCommon
import DamaskViews

/// A compiled xkb keymap and what every Damask keyboard asks of it beyond xkbcommon's own
/// calls: the keysym at a key's first level, whether a layout types Latin letters, and the
/// keysym shortcuts match a key by (``ShortcutKeysym``).
///
/// The one xkbcommon wrapper below the live keyboard (DamaskWayland's `XKBKeyboard`, keymaps
/// from `wl_keyboard.keymap`) and script playback (DamaskPlayback's `Keymap`, keymaps from
/// rule names), so both resolve shortcuts by the same code.
///
/// Ownership: owns its `xkb_context` and `xkb_keymap` (and, once compiled, the US QWERTY
/// keymap shortcuts fall back to) and unrefs them in `deinit`; ``context`` and ``keymap``
/// are borrowed by whoever creates states and compose tables from them, which must not
/// outlive this object. Threading: one thread at a time (libxkbcommon's reference counts
/// are not atomic); separate instances are independent.
public final class XKBKeymap {
    /// The `xkb_context`, owned by this object.
    public let context: OpaquePointer
    /// The `xkb_keymap`, owned by this object.
    public let keymap: OpaquePointer
    /// The US QWERTY keymap, compiled on the first non-Latin key; owned.
    private var usKeymap: OpaquePointer?
    /// Whether each layout of ``keymap`` types Latin letters (by layout index), as found so
    /// far. An array, not a dictionary: a keymap has at most four layouts, and every key
    /// event asks (no hashing per key; docs/performance.md, "The wake-ups of a key").
    @exclusivity(unchecked) private var latinLayouts: [Bool?]

    /// Compiles a keymap in xkb text format (what `wl_keyboard.keymap` sends); nil when
    /// xkbcommon rejects it.
    public convenience init?(text: String) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let keymap = xkb_keymap_new_from_string(
            context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            xkb_context_unref(context)
            return nil
        }
        self.init(context: context, keymap: keymap)
    }

    /// Compiles a keymap from rule names (nil rules and model: xkbcommon's defaults); nil for
    /// an unknown layout or variant. With `quiet`, xkbcommon reports only critical problems
    /// on stderr (the caller reports the nil).
    public convenience init?(
        rules: String? = nil, model: String? = nil, layout: String, variant: String = "",
        options: String? = nil, quiet: Bool = false
    ) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        if quiet { xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL) }
        guard let keymap = Self.compile(
            in: context, rules: rules, model: model, layout: layout, variant: variant, options: options)
        else {
            xkb_context_unref(context)
            return nil
        }
        self.init(context: context, keymap: keymap)
    }

    /// Takes ownership of `context` and `keymap` (one reference each).
    private init(context: OpaquePointer, keymap: OpaquePointer) {
        self.context = context
        self.keymap = keymap
        latinLayouts = Array(repeating: nil, count: Int(xkb_keymap_num_layouts(keymap)))
    }

    deinit {
        if let usKeymap { xkb_keymap_unref(usKeymap) }
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// `xkb_keymap_new_from_names` with Swift strings (nil fields: xkbcommon's defaults).
    private static func compile(
        in context: OpaquePointer, rules: String?, model: String?, layout: String, variant: String,
        options: String?
    ) -> OpaquePointer? {
        withOptionalCString(rules) { rules in
            withOptionalCString(model) { model in
                withOptionalCString(options) { options in
                    layout.withCString { layout in
                        variant.withCString { variant in
                            var names = xkb_rule_names(
                                rules: rules, model: model, layout: layout, variant: variant, options: options)
                            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with `string`'s C string, or with nil.
    private static func withOptionalCString<Result>(
        _ string: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }

    /// The keysym shortcuts match `keycode` by when it gives `active` while layout
    /// `activeLayout` (an index into this keymap's layouts) is active (``ShortcutKeysym``):
    /// `active` when Latin, else the first Latin letter at the key's first level on a layout
    /// of this keymap, in order, else on US QWERTY.
    public func shortcutKeysym(_ keycode: UInt32, active: UInt32, layout activeLayout: UInt32) -> UInt32 {
        let activeIsLatin = isLatin(layout: activeLayout)
        guard !ShortcutKeysym.keepsKeysym(active, activeLayoutIsLatin: activeIsLatin) else { return active }
        if usKeymap == nil {
            usKeymap = Self.compile(in: context, rules: nil, model: nil, layout: "us", variant: "", options: nil)
        }
        let layouts = (0..<xkb_keymap_num_layouts_for_key(keymap, keycode)).map { (keymap, $0) }
        let candidates = (layouts + [(usKeymap, xkb_layout_index_t(0))]).map {
            Self.firstLevelKeysym(of: keycode, in: $0, layout: $1)
        }
        return ShortcutKeysym.resolve(active: active, activeLayoutIsLatin: activeIsLatin, candidates: candidates)
    }

    /// Whether `layout` of the keymap types Latin letters (cached per layout).
    public func isLatin(layout: xkb_layout_index_t) -> Bool {
        let index = Int(layout)
        if index < latinLayouts.count, let known = latinLayouts[index] { return known }
        let latin = ShortcutKeysym.isLatinLayout(
            letterKeysyms: ShortcutKeysym.letterKeycodes.map { Self.firstLevelKeysym(of: $0, in: keymap, layout: layout) })
        if index < latinLayouts.count { latinLayouts[index] = latin }  // no layout of the keymap: not kept
        return latin
    }

    /// The single keysym at the first level of `keycode` in `layout` of `map`, else 0.
    static func firstLevelKeysym(of keycode: UInt32, in map: OpaquePointer?, layout: xkb_layout_index_t) -> UInt32 {
        var syms: UnsafePointer<xkb_keysym_t>?
        guard let map, xkb_keymap_key_get_syms_by_level(map, keycode, layout, 0, &syms) == 1, let syms else { return 0 }
        return syms.pointee
    }
}

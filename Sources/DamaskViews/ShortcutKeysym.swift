/// Chooses the keysym a key press matches shortcuts by, so that Ctrl+C is Ctrl+C on every
/// layout.
///
/// On a Russian, Greek, Arabic or Hebrew layout the key labelled C types a non-Latin letter
/// (`Cyrillic_es` on `ru`), so a shortcut matched on the active layout's keysym never fires.
/// As GTK and Qt do, such a key is matched by the Latin letter of the first layout of the
/// keymap that has one on that key (at its first level); when no layout of the keymap has
/// one, by the US QWERTY layout's letter for the same physical key. While a layout without
/// Latin letters is active this also holds for its keys that type Latin punctuation (the
/// Greek layout's Q key types `;`); a key with no letter anywhere keeps a Latin keysym and
/// takes the first ASCII one for a non-Latin keysym (Arabic-Indic digits match 1…9).
///
/// Keys of a Latin layout (us, de, fr, dvorak) and function keys (Return, arrows, F1…)
/// keep their keysym. Text is never affected: it always comes from the active layout.
public enum ShortcutKeysym {
    /// Whether `keysym` is a function or keypad key (the 0xFE00…0xFFFF blocks).
    static func isFunction(_ keysym: UInt32) -> Bool { (0xFE00...0xFFFF).contains(keysym) }

    /// Whether `keysym` is a printable ASCII or Latin-1 character.
    static func isLatin(_ keysym: UInt32) -> Bool { (0x20...0xFF).contains(keysym) }

    /// Whether `keysym` is an ASCII letter (a–z, A–Z).
    public static func isLetter(_ keysym: UInt32) -> Bool {
        (0x41...0x5A).contains(keysym) || (0x61...0x7A).contains(keysym)
    }

    /// Whether `keysym` is a printable ASCII character other than space.
    static func isASCII(_ keysym: UInt32) -> Bool { (0x21...0x7E).contains(keysym) }

    /// Whether a key's keysym can be used for shortcuts as is, whatever the layout: a
    /// function key, or a Latin character typed on a Latin layout.
    public static func keepsKeysym(_ active: UInt32, activeLayoutIsLatin: Bool) -> Bool {
        active == 0 || isFunction(active) || (isLatin(active) && activeLayoutIsLatin)
    }

    /// The keysym to match shortcuts by for a key whose active keysym is `active`.
    ///
    /// - Parameters:
    ///   - activeLayoutIsLatin: whether the active layout types Latin letters on its letter
    ///     keys (``isLatinLayout(letterKeysyms:)``).
    ///   - candidates: the key's first-level keysym on each layout of the keymap, in the
    ///     keymap's order, then on the US layout (0 where a layout has none).
    public static func resolve(active: UInt32, activeLayoutIsLatin: Bool, candidates: [UInt32]) -> UInt32 {
        if keepsKeysym(active, activeLayoutIsLatin: activeLayoutIsLatin) { return active }
        if let letter = candidates.first(where: isLetter) { return letter }
        if isLatin(active) { return active }
        return candidates.first(where: isASCII) ?? active
    }

    /// Whether a layout whose letter keys give `letterKeysyms` (at their first level) is a
    /// Latin layout: at least one of them is an ASCII letter.
    public static func isLatinLayout(letterKeysyms: [UInt32]) -> Bool {
        letterKeysyms.contains(where: isLetter)
    }

    /// The xkb keycodes of the three letter rows of a PC keyboard (Q…P, A…L, Z…M and their
    /// neighbours), which tell a Latin layout from another.
    public static let letterKeycodes: ClosedRange<UInt32> = 24...58
}

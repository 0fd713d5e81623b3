/// One key going down or up on a simulated keyboard, with what XKB made of it.
public struct KeyTransition: Hashable, Sendable {
    /// The XKB keycode (evdev code + 8).
    public var keycode: UInt32
    /// Whether the key went down (true) or up (false).
    public var isPress: Bool
    /// The keysym the key had in the state before this transition.
    public var keysym: UInt32
    /// The keysym shortcuts match the key by (``ShortcutKeysym``): ``keysym`` when Latin,
    /// else the key's Latin letter on another layout of the keymap or on US QWERTY.
    public var shortcutKeysym: UInt32
    /// The UTF-8 text the press produced (empty for releases and keys without text).
    public var text: String
    /// The modifiers in effect before this transition (as a client sees them for this key).
    public var modifiers: Set<KeyModifier>
    /// Whether Caps Lock was locked before this transition.
    public var isCapsLockOn: Bool

    /// Creates a transition (``shortcutKeysym`` defaults to `keysym`).
    public init(
        keycode: UInt32, isPress: Bool, keysym: UInt32, text: String,
        modifiers: Set<KeyModifier>, isCapsLockOn: Bool, shortcutKeysym: UInt32? = nil
    ) {
        self.keycode = keycode
        self.isPress = isPress
        self.keysym = keysym
        self.shortcutKeysym = shortcutKeysym ?? keysym
        self.text = text
        self.modifiers = modifiers
        self.isCapsLockOn = isCapsLockOn
    }
}

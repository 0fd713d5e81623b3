/// How to produce one key on a keymap: the XKB keycodes of the modifier keys to hold, then the
/// key itself.
public struct KeyStroke: Hashable, Sendable {
    /// XKB keycodes (evdev code + 8) of the modifier keys, pressed in order before `keycode`
    /// and released in reverse after it.
    public var modifierKeycodes: [UInt32]
    /// The XKB keycode (evdev code + 8) of the key.
    public var keycode: UInt32

    /// Creates a stroke.
    public init(modifierKeycodes: [UInt32] = [], keycode: UInt32) {
        self.modifierKeycodes = modifierKeycodes
        self.keycode = keycode
    }
}

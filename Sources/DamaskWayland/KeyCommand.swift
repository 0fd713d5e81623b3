import DamaskViews

/// A keyboard shortcut: a key with an exact set of modifiers (Ctrl+Q).
///
/// Letters match in either case, so Ctrl+Q also matches with Caps Lock on; Caps Lock itself
/// is ignored when comparing modifiers. The key is compared by its
/// ``DamaskViews/KeyEvent/shortcutKeysym``, so Ctrl+Q is Ctrl+Q on a Russian or Greek
/// layout too.
public struct KeyCommand: Hashable, Sendable {
    /// The xkb keysym (for Latin-1 characters, the character's code point).
    public var keysym: UInt32
    /// The modifiers that must be held, no more and no fewer.
    public var modifiers: ModifierFlags

    /// A command for a keysym.
    public init(keysym: UInt32, modifiers: ModifierFlags) {
        self.keysym = keysym
        self.modifiers = modifiers.subtracting(.capsLock)
    }

    /// A command for a Latin-1 character key (`KeyCommand("q", modifiers: .control)`).
    public init(_ character: Unicode.Scalar, modifiers: ModifierFlags) {
        self.init(keysym: Self.lowercased(character.value), modifiers: modifiers)
    }

    /// Ctrl+Q, the conventional "quit".
    public static let quit = KeyCommand("q", modifiers: .control)

    /// Whether a key press triggers this command.
    public func matches(_ event: KeyEvent) -> Bool {
        event.phase == .down && event.modifiers.subtracting(.capsLock) == modifiers
            && Self.lowercased(event.shortcutKeysym) == Self.lowercased(keysym)
    }

    /// Folds Latin-1 upper-case letter keysyms onto lower case.
    private static func lowercased(_ keysym: UInt32) -> UInt32 {
        switch keysym {
        case 0x41...0x5A, 0xC0...0xD6, 0xD8...0xDE: return keysym + 0x20
        default: return keysym
        }
    }
}

/// A key pressed with modifiers held, written `ctrl+shift+a` in scripts.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// The modifiers, in the order they are pressed (released in reverse).
    public var modifiers: [KeyModifier]
    /// The XKB keysym name of the key, e.g. `a`, `Return`, `F5`.
    public var keyName: String

    /// Creates a chord.
    public init(modifiers: [KeyModifier] = [], keyName: String) {
        self.modifiers = modifiers
        self.keyName = keyName
    }

    /// `mod+mod+key`.
    public var description: String {
        (modifiers.map(\.rawValue) + [keyName]).joined(separator: "+")
    }
}

/// The modifier keys held while an event happened.
public struct ModifierFlags: OptionSet, Sendable, Hashable {
    /// The raw bit set.
    public let rawValue: UInt32

    /// Creates a set from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = ModifierFlags(rawValue: 1 << 0)
    /// Control.
    public static let control = ModifierFlags(rawValue: 1 << 1)
    /// Alt (Mod1).
    public static let alt = ModifierFlags(rawValue: 1 << 2)
    /// The logo ("super", "Windows", "Command") key.
    public static let logo = ModifierFlags(rawValue: 1 << 3)
    /// Caps Lock is latched.
    public static let capsLock = ModifierFlags(rawValue: 1 << 4)
}

/// A pointer button as named in scripts.
public enum ScriptButton: String, CaseIterable, Hashable, Sendable {
    /// The primary button (the default).
    case left
    /// The secondary button.
    case right
    /// The wheel button.
    case middle
}

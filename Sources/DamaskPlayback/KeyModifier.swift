/// A modifier that a key chord such as `ctrl+shift+a` can hold down.
public enum KeyModifier: String, CaseIterable, Hashable, Sendable {
    /// Shift (pressed with the `Shift_L` key).
    case shift
    /// Control (`Control_L`).
    case control = "ctrl"
    /// Alt (`Alt_L`).
    case alt
    /// The logo ("super", "Windows") key (`Super_L`).
    case logo = "super"

    /// Parses a modifier name as written in chords (case-insensitive; also `control`, `logo`,
    /// `meta`).
    public init?(name: String) {
        switch name.lowercased() {
        case "shift": self = .shift
        case "ctrl", "control": self = .control
        case "alt", "meta": self = .alt
        case "super", "logo": self = .logo
        default: return nil
        }
    }

    /// The keysym name of the key that the player presses for this modifier.
    public var keysymName: String {
        switch self {
        case .shift: "Shift_L"
        case .control: "Control_L"
        case .alt: "Alt_L"
        case .logo: "Super_L"
        }
    }
}

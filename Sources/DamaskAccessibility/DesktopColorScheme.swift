/// The desktop's colour-scheme preference, as the XDG settings portal's
/// `org.freedesktop.appearance` `color-scheme` key states it (0, 1, 2) and GNOME's
/// `org.gnome.desktop.interface` `color-scheme` ('default', 'prefer-dark', 'prefer-light').
public enum DesktopColorScheme: Sendable, Equatable {
    /// No preference (the portal's 0, GNOME's 'default'): applications choose, usually light.
    case noPreference
    /// Dark (1, 'prefer-dark').
    case preferDark
    /// Light (2, 'prefer-light').
    case preferLight

    /// The portal's number; nil when it is not one the specification defines.
    init?(portalValue: UInt32) {
        switch portalValue {
        case 0: self = .noPreference
        case 1: self = .preferDark
        case 2: self = .preferLight
        default: return nil
        }
    }

    /// GNOME's enumeration nick; nil when unknown.
    init?(gnomeValue: String) {
        switch gnomeValue {
        case "default": self = .noPreference
        case "prefer-dark": self = .preferDark
        case "prefer-light": self = .preferLight
        default: return nil
        }
    }

    /// Whether the desktop asks for dark.
    public var isDark: Bool { self == .preferDark }
}

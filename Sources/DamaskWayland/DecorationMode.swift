/// Who draws a window's title bar and borders (`zxdg_toplevel_decoration_v1.mode`).
public enum DecorationMode: Sendable, Equatable {
    /// The application draws them (always the case on GNOME and without xdg-decoration).
    case clientSide
    /// The compositor draws them.
    case serverSide
}

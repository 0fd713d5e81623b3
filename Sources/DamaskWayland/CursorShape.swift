/// The pointer images Damask shows, each with the XCursor names themes use for it.
public enum CursorShape: Hashable, Sendable {
    /// The ordinary arrow.
    case arrow
    /// A hand over something clickable.
    case pointingHand
    /// An I-beam over editable text.
    case text
    /// A double arrow over a window edge or corner.
    case resize(ResizeEdge)
    /// No cursor at all.
    case hidden

    /// Names to try in a cursor theme, best first (freedesktop names, then X11 core names).
    public var themeNames: [String] {
        switch self {
        case .arrow: return ["default", "left_ptr", "arrow"]
        case .pointingHand: return ["pointer", "hand2", "hand1", "hand"]
        case .text: return ["text", "xterm", "ibeam"]
        case .hidden: return []
        case .resize(let edge):
            switch edge {
            case .top: return ["n-resize", "top_side", "ns-resize"]
            case .bottom: return ["s-resize", "bottom_side", "ns-resize"]
            case .left: return ["w-resize", "left_side", "ew-resize"]
            case .right: return ["e-resize", "right_side", "ew-resize"]
            case .topLeft: return ["nw-resize", "top_left_corner", "nwse-resize"]
            case .topRight: return ["ne-resize", "top_right_corner", "nesw-resize"]
            case .bottomLeft: return ["sw-resize", "bottom_left_corner", "nesw-resize"]
            case .bottomRight: return ["se-resize", "bottom_right_corner", "nwse-resize"]
            }
        }
    }
}

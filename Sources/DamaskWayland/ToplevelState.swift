/// The states an `xdg_toplevel` configure can carry.
public struct ToplevelState: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let maximized = ToplevelState(rawValue: 1 << 1)
    public static let fullscreen = ToplevelState(rawValue: 1 << 2)
    public static let resizing = ToplevelState(rawValue: 1 << 3)
    public static let activated = ToplevelState(rawValue: 1 << 4)
    public static let tiledLeft = ToplevelState(rawValue: 1 << 5)
    public static let tiledRight = ToplevelState(rawValue: 1 << 6)
    public static let tiledTop = ToplevelState(rawValue: 1 << 7)
    public static let tiledBottom = ToplevelState(rawValue: 1 << 8)

    /// Any tiled edge.
    public var isTiled: Bool {
        !intersection([.tiledLeft, .tiledRight, .tiledTop, .tiledBottom]).isEmpty
    }

    /// Builds the set from a configure's `wl_array` of `uint32` state values.
    init(protocolValues: some Sequence<UInt32>) {
        var state = ToplevelState()
        for value in protocolValues where value < 32 {
            state.insert(ToplevelState(rawValue: 1 << value))
        }
        self = state
    }
}

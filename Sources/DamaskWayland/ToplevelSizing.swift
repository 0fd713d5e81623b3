import Foundation

/// How an `xdg_toplevel`'s window size follows configures: the size limits, the floating
/// size to come back to, and which states let the compositor dictate the size.
///
/// A value type with no protocol objects, so its rules can be pinned without a
/// compositor. Sizes are window sizes in points (without a client-side shadow).
///
/// The rules, from the xdg-shell protocol:
/// - **Floating** (none of maximized, fullscreen, tiled): a configure's non-zero width or
///   height is a suggestion (an interactive resize); a zero one means "choose yourself",
///   and the client chooses its floating size — the size it had the last time it was
///   floating. This is what brings a window back to its earlier size when Weston
///   unmaximizes with `configure(0, 0)`. The result is kept within the minimum and
///   maximum size and remembered as the new floating size.
/// - **Maximized or fullscreen**: the configure's size is obeyed exactly (a maximized
///   window must not be larger or smaller; a fullscreen one is never made larger); a zero
///   width or height keeps the current one. The limits do not apply: the compositor has
///   chosen, and the floating size is left untouched for the restore.
/// - **Tiled** (an edge tiled, not maximized or fullscreen): the size is an upper bound;
///   the window keeps at least its minimum size where that still fits under the bound.
/// - **Back to floating** (the first floating configure after maximized, fullscreen or
///   tiled): the floating size, but no larger than a non-zero proposal on that axis. A
///   floating size is a suggestion, and the one mutter 43 suggests on restore is off (it
///   sends 212 × 182 for a 200 × 182 window with a 12-point client-side shadow); a smaller
///   proposal is kept, so a compositor that shrinks the window to fit an output still can.
public struct ToplevelSizing: Equatable, Sendable {
    /// The window size the last time the window was floating.
    public private(set) var floatingSize: CGSize
    /// The smallest window size the client accepts while floating (at least 1×1).
    public var minimumSize: CGSize {
        didSet { minimumSize = CGSize(width: max(1, minimumSize.width), height: max(1, minimumSize.height)) }
    }
    /// The largest window size while floating; 0 on an axis means unbounded (as in
    /// `xdg_toplevel.set_max_size`).
    public var maximumSize: CGSize {
        didSet { maximumSize = CGSize(width: max(0, maximumSize.width), height: max(0, maximumSize.height)) }
    }

    /// Whether the last configure had the compositor dictate the size (maximized,
    /// fullscreen or tiled).
    private var wasConstrained = false

    /// Creates the sizing of a window that starts floating at `initialSize`.
    public init(initialSize: CGSize, minimumSize: CGSize = CGSize(width: 1, height: 1), maximumSize: CGSize = .zero) {
        self.minimumSize = CGSize(width: max(1, minimumSize.width), height: max(1, minimumSize.height))
        self.maximumSize = CGSize(width: max(0, maximumSize.width), height: max(0, maximumSize.height))
        floatingSize = .zero
        floatingSize = limited(initialSize)
    }

    /// Whether the compositor dictates the size in `states`.
    public static func isConstrained(_ states: ToplevelState) -> Bool {
        states.contains(.maximized) || states.contains(.fullscreen) || states.isTiled
    }

    /// The window size to use for a configure proposing `width` × `height` (0 = the
    /// client's choice) with `states`, while the window is `current`; remembers the result
    /// as the floating size when the window is floating.
    public mutating func windowSize(proposedWidth width: Int32, height: Int32, states: ToplevelState, current: CGSize) -> CGSize {
        let restoring = wasConstrained && !Self.isConstrained(states)
        wasConstrained = Self.isConstrained(states)
        if restoring {
            let size = limited(CGSize(
                width: width > 0 ? min(floatingSize.width, CGFloat(width)) : floatingSize.width,
                height: height > 0 ? min(floatingSize.height, CGFloat(height)) : floatingSize.height))
            floatingSize = size
            return size
        }
        if states.contains(.maximized) || states.contains(.fullscreen) {
            return CGSize(
                width: width > 0 ? CGFloat(width) : current.width,
                height: height > 0 ? CGFloat(height) : current.height)
        }
        if states.isTiled {
            var size = CGSize(
                width: width > 0 ? CGFloat(width) : current.width,
                height: height > 0 ? CGFloat(height) : current.height)
            size.width = max(size.width, minimumSize.width)
            size.height = max(size.height, minimumSize.height)
            if width > 0 { size.width = min(size.width, CGFloat(width)) }
            if height > 0 { size.height = min(size.height, CGFloat(height)) }
            return size
        }
        let size = limited(CGSize(
            width: width > 0 ? CGFloat(width) : floatingSize.width,
            height: height > 0 ? CGFloat(height) : floatingSize.height))
        floatingSize = size
        return size
    }

    /// The floating size `current` should become after the limits changed, or `nil` when
    /// it is within them (or the window is not floating).
    public mutating func sizeAfterLimitsChanged(states: ToplevelState, current: CGSize) -> CGSize? {
        guard !Self.isConstrained(states) else { return nil }
        let size = limited(current)
        floatingSize = size
        return size == current ? nil : size
    }

    /// `size` kept within the minimum and maximum size (the minimum wins a conflict).
    public func limited(_ size: CGSize) -> CGSize {
        var result = size
        if maximumSize.width > 0 { result.width = min(result.width, maximumSize.width) }
        if maximumSize.height > 0 { result.height = min(result.height, maximumSize.height) }
        result.width = max(result.width, minimumSize.width)
        result.height = max(result.height, minimumSize.height)
        return result
    }
}

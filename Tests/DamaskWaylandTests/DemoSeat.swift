import Foundation

/// A private compositor with real input and demos on it, as the selection tests drive it:
/// ``DemoOnMutter`` (mutter, RemoteDesktop input) and ``DemosOnWestonSeat`` (Weston on
/// Xvfb, xdotool). The same test steps run on either.
protocol DemoSeat: AnyObject {
    /// Starts a demo with `arguments` (with `--size WxH`), focused and located.
    func launch(_ arguments: [String]) throws -> WaylandDebugDemo
    /// Moves the pointer to `demo`'s content point (x, y).
    func move(to x: Int, _ y: Int, in demo: WaylandDebugDemo) throws
    /// Clicks the left button where the pointer is; returns once `demo` received it.
    func click(in demo: WaylandDebugDemo) throws
    /// Clicks the middle button where the pointer is; returns once `demo` received it.
    func middleClick(in demo: WaylandDebugDemo) throws
    /// Presses chords ("ctrl+a", "End", "shift+Home") in turn; returns once `demo`
    /// received every press and release.
    func press(_ chords: String..., in demo: WaylandDebugDemo) throws
    /// Types `text` (lower-case letters, digits, space); returns once `demo` received it.
    func type(_ text: String, in demo: WaylandDebugDemo) throws
    /// Gives `demo` keyboard focus back if a wl-clipboard tool's surface took it.
    func refocus(_ demo: WaylandDebugDemo, clickingAt x: Int, _ y: Int) throws
    /// Runs `wl-copy` (its server stays).
    func wlCopy(_ arguments: [String]) throws -> TestProcess.Result
    /// Runs `wl-paste`.
    func wlPaste(_ arguments: [String]) throws -> TestProcess.Result
}

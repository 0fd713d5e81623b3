import Foundation
import Testing

/// Several `damask-demo` windows on one Weston nested in a private Xvfb, driven by real X
/// input (`xdotool`): every key and button reaches the demos through Weston's seat, with
/// serials Weston issued, as a person's would.
///
/// The demos run with `WAYLAND_DEBUG=1` (``WaylandDebugDemo``): a window is found from the
/// surface-local position of the pointer events it receives, and every input is waited for
/// where it lands (the demo's own `button` and `key` events), never for a fixed time.
/// Weston's desktop shell places each new window at a random spot of the output, so windows
/// may overlap; ``raise(_:under:)`` brings one back to the top with a click on a part of it
/// that another does not cover.
///
/// Owns the X server, the compositor and every demo it launched (stopped in ``stop()`` /
/// `deinit`, demos first). Use from one test.
final class DemosOnWestonSeat: DemoSeat {
    let display: XvfbDisplay
    let weston: PrivateCompositor
    private var demos: [WaylandDebugDemo] = []
    /// The output's size; a window of at most 640×480 content always covers its centre.
    static let outputSize = (width: 1280, height: 1000)
    /// The margin of shadow around the window geometry, in surface points.
    static let shadow = 12
    /// How far the next locating move goes from the output's centre (each move must differ
    /// from where the pointer is).
    private var nudge = 0

    init() throws {
        display = try XvfbDisplay(layout: "us")
        do {
            weston = try PrivateCompositor(
                .westonX11(display: display.name, size: "\(Self.outputSize.width)x\(Self.outputSize.height)"))
        } catch {
            display.stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the demos, Weston and the X server. Idempotent.
    func stop() {
        for demo in demos { demo.stop() }
        weston.stop()
        display.stop()
    }

    /// Variables added to the client environment (a private session bus's address).
    var extraEnvironment: [String: String] = [:]

    /// The client environment of this Weston, with ``extraEnvironment``.
    var environment: [String: String] { weston.clientEnvironment.merging(extraEnvironment) { $1 } }

    /// Starts `damask-demo` with `arguments` (which must contain `--size WxH`, at most
    /// 640×480), waits for its first commit and keyboard focus (Weston activates a new
    /// window) and finds its content area with the pointer (the new window is on top).
    func launch(_ arguments: [String]) throws -> WaylandDebugDemo {
        let demo = try WaylandDebugDemo(arguments, environment: environment)
        demos.append(demo)
        try #require(demo.waitForFocus(timeout: 30), "the demo never got keyboard focus: \(demo.process.transcript.suffix(3000))")
        let size = try #require(arguments.firstIndex(of: "--size").map { arguments[$0 + 1] }, "no --size in \(arguments)")
        let contentHeight = try #require(Int(size.split(separator: "x").last ?? ""), "bad --size \(size)")
        // Each move comes from outside Weston's X window: a move within it whose pointer
        // was already there when Weston's window appeared reached no client in two of
        // three runs (CI saw it too); entering from outside was delivered in every run.
        // Up to three moves, each to a fresh point near the centre.
        var missed: [String] = []
        for attempt in 1...3 {
            nudge += 1
            let (x, y) = (Self.outputSize.width / 2 + nudge, Self.outputSize.height / 2 + 7 * (attempt - 1))
            // From outside Weston's X window (the screen is 24 px taller than the output)
            // into it: X sends Weston an enter before the motion.
            try display.xdotool("mousemove", "\(x)", "\(Self.outputSize.height + 12)")
            let before = demo.process.lines.count
            try display.xdotool("mousemove", "\(x)", "\(y)")
            let event = demo.process.waitForLine(from: before, timeout: 5) {
                $0.contains("wl_pointer@") && ($0.contains(".enter(") || $0.contains(".motion("))
            }
            guard let line = event?.line else {
                missed.append("(\(x), \(y))")
                continue
            }
            demo.origin = try #require(
                demo.contentOrigin(pointerAt: x, y, event: line, contentHeight: contentHeight), "no window geometry in \(line)")
            return demo
        }
        let events = demo.process.lines.filter { $0.contains("wl_pointer@") || $0.contains("xdg_toplevel@") }
        throw PointerNotReceived(moves: missed, events: Array(events.suffix(20)))
    }

    /// No move of the pointer near the output's centre reached a new window.
    struct PointerNotReceived: Error, CustomStringConvertible {
        var moves: [String]
        /// The demo's last pointer and toplevel lines (WAYLAND_DEBUG).
        var events: [String]
        var description: String {
            "the demo received no pointer event near the output's centre (moves to \(moves.joined(separator: ", "))); "
                + "its last pointer and toplevel events: \(events.joined(separator: " | "))"
        }
    }

    // MARK: Input

    /// Moves the pointer to `demo`'s content point (x, y) and waits until the demo has the
    /// motion (or enter).
    func move(to x: Int, _ y: Int, in demo: WaylandDebugDemo) throws {
        let before = demo.process.lines.count
        try display.xdotool("mousemove", "\(demo.origin.x + x)", "\(demo.origin.y + y)")
        let arrived = demo.process.waitForLine(from: before, timeout: 10) {
            $0.contains("wl_pointer@") && ($0.contains(".enter(") || $0.contains(".motion("))
        }
        try #require(arrived != nil, "the demo did not receive the move to (\(x), \(y))")
    }

    /// Clicks the left button where the pointer is; returns once `demo` received the press
    /// and the release.
    func click(in demo: WaylandDebugDemo) throws { try click(button: 1, in: demo) }

    /// Clicks the middle button where the pointer is; returns once `demo` received the
    /// press and the release.
    func middleClick(in demo: WaylandDebugDemo) throws { try click(button: 2, in: demo) }

    /// Clicks X button `button` (1 left, 2 middle) where the pointer is; returns once
    /// `demo` received the press and the release.
    func click(button: Int, in demo: WaylandDebugDemo) throws {
        let buttons = { (lines: [String]) in lines.count { $0.contains("wl_pointer@") && $0.contains(".button(") } }
        let before = buttons(demo.process.lines)
        try display.xdotool("click", "\(button)")
        try #require(demo.process.waitUntil(timeout: 10) { buttons($0) >= before + 2 }, "the demo did not receive the click")
    }

    /// Presses xdotool key chords ("ctrl+a", "End", "a") in turn; returns once `demo`
    /// received every press and release.
    func press(_ chords: String..., in demo: WaylandDebugDemo) throws {
        let before = demo.keyEventCount
        let keys = chords.reduce(0) { $0 + $1.split(separator: "+").count }
        try display.run("xdotool", ["key", "--delay", "60"] + chords)
        try #require(
            demo.process.waitUntil(timeout: 10) { _ in demo.keyEventCount >= before + 2 * keys },
            "the demo did not receive \(chords)")
    }

    /// Types `text`, which must need no Shift (lower-case letters, digits, space, `-`):
    /// one key each; returns once `demo` received every press and release.
    func type(_ text: String, in demo: WaylandDebugDemo) throws {
        let before = demo.keyEventCount
        try display.run("xdotool", ["type", "--delay", "60", text])
        try #require(
            demo.process.waitUntil(timeout: 10) { _ in demo.keyEventCount >= before + 2 * text.unicodeScalars.count },
            "the demo did not receive the text \(text)")
    }

    /// Gives `demo` keyboard focus back if another client (a wl-clipboard tool's surface)
    /// took it: waits for Weston to return it, else clicks `demo`'s content at (x, y).
    func refocus(_ demo: WaylandDebugDemo, clickingAt x: Int, _ y: Int) throws {
        if demo.waitForFocus(timeout: 3) { return }
        try move(to: x, y, in: demo)
        try click(in: demo)
        try #require(demo.waitForFocus(), "the demo did not get keyboard focus back")
    }

    /// Brings `demo` to the top with a click on a point of its content right of the sidebar
    /// (x ≥ 200, where the text scene has no control but its field) that `other`'s surface
    /// does not cover, and waits for keyboard focus.
    func raise(_ demo: WaylandDebugDemo, under other: WaylandDebugDemo, contentSize: (width: Int, height: Int)) throws {
        let (left, top) = (other.origin.x - 2 * Self.shadow, other.origin.y - 3 * Self.shadow - 32)
        let (right, bottom) = (other.origin.x + contentSize.width + 2 * Self.shadow, other.origin.y + contentSize.height + 2 * Self.shadow)
        let covered = { (x: Int, y: Int) in
            let (screenX, screenY) = (demo.origin.x + x, demo.origin.y + y)
            return screenX >= left && screenX < right && screenY >= top && screenY < bottom
        }
        var spot: (x: Int, y: Int)?
        search: for y in stride(from: 10, to: contentSize.height - 10, by: 10) {
            for x in stride(from: 200, to: contentSize.width - 10, by: 10) where !covered(x, y) {
                spot = (x, y)
                break search
            }
        }
        let point = try #require(spot, "Weston placed one window over the other's whole content (\(demo.origin), \(other.origin))")
        try move(to: point.x, point.y, in: demo)
        try click(in: demo)
        try #require(demo.waitForFocus(), "the demo did not get keyboard focus from a click")
    }

    /// Runs `wl-copy` against this Weston (its server stays, see ``WlClipboard``).
    func wlCopy(_ arguments: [String]) throws -> TestProcess.Result {
        try WlClipboard.copy(arguments, environment: environment)
    }

    /// Runs `wl-paste` against this Weston.
    func wlPaste(_ arguments: [String]) throws -> TestProcess.Result {
        try WlClipboard.paste(arguments, environment: environment)
    }
}

import Foundation
import Testing
import DamaskTestSupport

/// `damask-demo` windows (one or more processes) on a private headless mutter (GNOME),
/// driven by real input from a RemoteDesktop session (the injector of
/// ``MutterRemoteInput``): mutter's virtual keyboard and pointer, so every key and button
/// carries a serial mutter issued, as a person's would.
///
/// mutter offers no screenshots here, so the demos run with `WAYLAND_DEBUG=1` and the
/// harness reads what they receive: pointer `enter` (to find a window), keyboard
/// `enter`/`leave` (focus) and `key` events (to wait until typed keys arrived).
///
/// Owns mutter's session script, the injector and every demo it launched (killed in
/// ``stop()`` / `deinit`, demos first). Use from one test.
final class DemoOnMutter: DemoSeat {
    /// One demo process on this mutter.
    typealias Demo = WaylandDebugDemo

    /// The environment of a client of this mutter (socket, runtime directory, session bus).
    let environment: [String: String]
    private let session: TestProcess
    private let injector: TestProcess
    private let scriptPath: String
    private var injectorLinesRead = 0
    private var demos: [Demo] = []

    /// Starts mutter with a `size` virtual monitor and the RemoteDesktop session, and makes
    /// mutter create its virtual keyboard and pointer (they appear with the first events).
    init(size: String = "1600x1000") throws {
        let python = "/usr/bin/python3"
        scriptPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-demo-mutter-\(getpid())-\(TemporaryName.next()).py").path
        try MutterRemoteInput.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let environment: [String: String]
        (session, environment) = try MutterRemoteInput.startMutter(size: size, base: DemoRun.environment(nil))
        self.environment = environment
        injector = try TestProcess(python, [scriptPath], environment: environment)
        guard readInjectorLine() == "started" else {
            injector.kill()
            session.kill()
            throw TestProcessError.didNotStart(
                program: "\(python) \(scriptPath)", waitingFor: "a RemoteDesktop session", output: injector.transcript)
        }
        send("nudge")
        // Shift_L creates the keyboard; a letter before any window exists warms up mutter's
        // keysym path (under load its first letter took seconds between press and release,
        // which a client rightly takes for a held, repeating key).
        for code in [0xffe1, 0x61] {
            keysym(code, down: true)
            keysym(code, down: false)
        }
    }

    deinit { stop() }

    /// Stops the demos, the input session and mutter. Idempotent.
    func stop() {
        for demo in demos {
            demo.stop()
        }
        if injector.isRunning {
            injector.closeInput()
            if injector.waitForExit(timeout: 10) == nil { injector.kill() }
        }
        if session.isRunning {
            session.closeInput()
            if session.waitForExit(timeout: 10) == nil { session.kill() }
        }
        try? FileManager.default.removeItem(atPath: scriptPath)
    }

    /// Starts `damask-demo` with `arguments`, waits until it has keyboard focus (mutter
    /// focuses a new window) and finds its content area with the pointer.
    func launch(_ arguments: [String]) throws -> Demo {
        let demo = try WaylandDebugDemo(arguments, environment: environment)
        demos.append(demo)
        try #require(demo.waitForFocus(timeout: 30), "the demo never got keyboard focus: \(demo.process.transcript.suffix(3000))")
        let size = arguments.firstIndex(of: "--size").map { arguments[$0 + 1] } ?? "800x600"
        let contentHeight = try #require(Int(size.split(separator: "x").last ?? ""), "bad --size \(size)")
        demo.origin = try #require(locate(demo, contentHeight: contentHeight), "the demo's window was not found under the pointer")
        return demo
    }

    // MARK: Input

    /// Moves the pointer to monitor point (x, y).
    func move(to x: Int, _ y: Int) { send("move \(x) \(y)") }

    /// Moves the pointer by (dx, dy) from where it is, without passing through the corner
    /// as ``move(to:_:)`` does (a drag must not take that detour).
    func move(by dx: Int, _ dy: Int) { send("rmove \(dx) \(dy)") }

    /// Presses (`down`) or releases a button (evdev code: 272 left) without waiting for a
    /// client to receive it: the end of a compositor grab (a move), whose release mutter
    /// keeps.
    func sendButton(_ button: Int = 272, down: Bool) {
        send("button \(button) \(down ? "down" : "up")")
    }

    /// Moves the pointer to `demo`'s content point (x, y).
    func move(to x: Int, _ y: Int, in demo: Demo) { move(to: demo.origin.x + x, demo.origin.y + y) }

    /// Presses and releases the left button where the pointer is; returns once `demo`
    /// received both.
    func click(in demo: Demo) throws { try click(button: 272, in: demo) }

    /// Presses and releases the middle button where the pointer is; returns once `demo`
    /// received both.
    func middleClick(in demo: Demo) throws { try click(button: 274, in: demo) }

    /// Presses and releases a button (evdev code: 272 left, 274 middle) where the pointer
    /// is; returns once `demo` received both.
    func click(button: Int, in demo: Demo) throws {
        let before = demo.process.lines.count { $0.contains("wl_pointer@") && $0.contains(".button(") }
        send("button \(button) down")
        send("button \(button) up")
        let arrived = demo.process.waitUntil(timeout: 10) { lines in
            lines.count { $0.contains("wl_pointer@") && $0.contains(".button(") } >= before + 2
        }
        try #require(arrived, "the demo did not receive the click")
    }

    /// Presses (`down`) or releases a button (evdev code: 272 left) where the pointer is;
    /// returns once `demo` received it.
    func button(_ button: Int = 272, down: Bool, in demo: Demo) throws {
        let before = demo.process.lines.count { $0.contains("wl_pointer@") && $0.contains(".button(") }
        send("button \(button) \(down ? "down" : "up")")
        let arrived = demo.process.waitUntil(timeout: 10) { lines in
            lines.count { $0.contains("wl_pointer@") && $0.contains(".button(") } >= before + 1
        }
        try #require(arrived, "the demo did not receive the button \(down ? "press" : "release")")
    }

    /// Presses chords such as "ctrl+a", "End", "a" (keysym names from ``keysyms``) in turn;
    /// returns once `demo` received at least every press and release.
    func press(_ chords: String..., in demo: Demo) throws {
        let before = demo.keyEventCount
        var keys = 0
        for chord in chords {
            let names = chord.split(separator: "+").map(String.init)
            let codes = try names.map { name in try #require(Self.keysyms[name], "no keysym for \(name)") }
            tap(codes)
            keys += codes.count
        }
        let arrived = demo.process.waitUntil(timeout: 10) { _ in demo.keyEventCount >= before + 2 * keys }
        try #require(arrived, "the demo did not receive \(chords)")
    }

    /// Types ASCII `text` key by key (mutter adds Shift where a keysym needs it).
    func type(_ text: String, in demo: Demo) throws {
        let before = demo.keyEventCount
        for scalar in text.unicodeScalars { tap([Int(scalar.value)]) }
        let arrived = demo.process.waitUntil(timeout: 10) { _ in demo.keyEventCount >= before + 2 * text.unicodeScalars.count }
        try #require(arrived, "the demo did not receive the text \(text)")
    }

    /// Keysyms the tests use by name.
    static let keysyms: [String: Int] = [
        "ctrl": 0xffe3, "shift": 0xffe1, "End": 0xff57, "Home": 0xff50, "Escape": 0xff1b,
        "BackSpace": 0xff08, "a": 0x61, "c": 0x63, "v": 0x76, "x": 0x78,
    ]

    /// Runs `wl-copy` against this mutter (its server stays, see ``WlClipboard``).
    func wlCopy(_ arguments: [String]) throws -> TestProcess.Result {
        try WlClipboard.copy(arguments, environment: environment)
    }

    /// Runs `wl-paste` against this mutter.
    func wlPaste(_ arguments: [String]) throws -> TestProcess.Result {
        try WlClipboard.paste(arguments, environment: environment)
    }

    /// Gives `demo` keyboard focus back if another client (a wl-clipboard tool's surface)
    /// took it: waits for mutter to return it, else clicks `demo`'s content at (x, y).
    func refocus(_ demo: Demo, clickingAt x: Int, _ y: Int) throws {
        if demo.waitForFocus(timeout: 3) { return }
        move(to: x, y, in: demo)
        try click(in: demo)
        try #require(demo.waitForFocus(), "the demo did not get keyboard focus back")
    }

    // MARK: Private

    /// Presses `codes` in order and releases them in reverse, in one injector command, so
    /// that no round trip to this process falls between a press and its release (a client
    /// takes a long gap for a held key and repeats it).
    private func tap(_ codes: [Int]) {
        send("tap " + codes.map { String($0, radix: 16) }.joined(separator: " "))
    }

    private func keysym(_ code: Int, down: Bool) {
        send("keysym \(String(code, radix: 16)) \(down ? "down" : "up")")
    }

    private func send(_ command: String) {
        injector.send(command)
        _ = readInjectorLine()
    }

    private func readInjectorLine() -> String {
        guard let answer = injector.waitForLine(from: injectorLinesRead, timeout: 30, where: { _ in true }) else {
            return ""
        }
        injectorLinesRead = answer.index + 1
        return answer.line
    }

    /// Moves over a grid until `demo` reports a pointer enter; the content area's top-left
    /// then follows from the surface-local position and the window geometry: its offset
    /// (the shadow), and its height less `contentHeight` (the title bar).
    private func locate(_ demo: Demo, contentHeight: Int) -> (x: Int, y: Int)? {
        for y in stride(from: 60, to: 1000, by: 80) {
            for x in stride(from: 60, to: 1600, by: 120) {
                let before = demo.process.lines.count
                move(to: x, y)
                let entered = demo.process.waitForLine(from: before, timeout: 0.3) {
                    $0.contains("wl_pointer@") && $0.contains(".enter(")
                }
                guard entered != nil else { continue }
                // Under load an enter can arrive after the short wait, while the pointer is
                // already at the next grid point: the enter found may belong to an earlier
                // point. Enter again at this one (move(to:) passes through the corner, so it
                // leaves and re-enters) and take the position from that enter alone.
                let confirming = demo.process.lines.count
                move(to: x, y)
                guard let confirmed = demo.process.waitForLine(from: confirming, timeout: 10, where: {
                    $0.contains("wl_pointer@") && $0.contains(".enter(")
                }) else { continue }
                return demo.contentOrigin(pointerAt: x, y, event: confirmed.line, contentHeight: contentHeight)
            }
        }
        return nil
    }
}

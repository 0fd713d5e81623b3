import Foundation
import DamaskTestSupport

/// A private headless mutter (GNOME) with the test client and a RemoteDesktop session that
/// injects real input: virtual pointer and keyboard devices appear on mutter's seat when the
/// session sends its first events, so the client also sees seat capabilities arrive at run
/// time.
///
/// mutter runs under `scripts/with-gnome` (its own D-Bus session); the input comes from
/// Debian's python3 with PyGObject calling `org.gnome.Mutter.RemoteDesktop` (a small script
/// written to a temporary file). Relative pointer motion is 1:1 and clamps at the monitor's
/// edges, so "move to (x, y)" is a large move to the top-left corner followed by (x, y).
///
/// Owns the three processes (stopped in ``stop()`` / `deinit`). Use from one test.
final class MutterRemoteInput {
    let client: InputTestClient
    private let session: TestProcess
    private let injector: TestProcess
    private let scriptPath: String
    /// How many of the helper's lines have been read.
    private var injectorLinesRead = 0

    enum MutterError: Error {
        case missing(String)
    }

    /// The helper: one command per stdin line, answering "ok" after each.
    static let script = #"""
    import sys, time
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    def call(path, interface, method, args=None, reply=None):
        return bus.call_sync('org.gnome.Mutter.RemoteDesktop', path, interface, method, args,
                             reply and GLib.VariantType(reply), 0, -1, None)
    session = call('/org/gnome/Mutter/RemoteDesktop', 'org.gnome.Mutter.RemoteDesktop',
                   'CreateSession', None, '(o)').unpack()[0]
    S = 'org.gnome.Mutter.RemoteDesktop.Session'
    call(session, S, 'Start')
    print('started', flush=True)
    for line in sys.stdin:
        w = line.split()
        if w[0] == 'move':
            call(session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (-100000.0, -100000.0)))
            call(session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (float(w[1]), float(w[2]))))
        elif w[0] == 'rmove':
            call(session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (float(w[1]), float(w[2]))))
        elif w[0] == 'nudge':
            call(session, S, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (1.0, 1.0)))
        elif w[0] == 'button':
            call(session, S, 'NotifyPointerButton', GLib.Variant('(ib)', (int(w[1]), w[2] == 'down')))
        elif w[0] == 'wheel':
            call(session, S, 'NotifyPointerAxisDiscrete', GLib.Variant('(ui)', (0, int(w[1]))))
        elif w[0] == 'keysym':
            call(session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(w[1], 16), w[2] == 'down')))
        elif w[0] == 'tap':
            for k in w[1:]:
                call(session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(k, 16), True)))
            for k in reversed(w[1:]):
                call(session, S, 'NotifyKeyboardKeysym', GLib.Variant('(ub)', (int(k, 16), False)))
        print('ok', flush=True)
    """#

    /// Starts mutter, the test client (with `clientArguments`, and `clientEnvironment` added
    /// to mutter's client environment) and the input session.
    init(clientArguments: [String] = [], clientEnvironment: [String: String] = [:]) throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw MutterError.missing(python) }
        scriptPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-remote-input-\(getpid())-\(TemporaryName.next()).py").path
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)

        let environment: [String: String]
        (session, environment) = try Self.startMutter(size: "800x600", base: ProcessInfo.processInfo.environment)
        client = try InputTestClient(
            arguments: clientArguments, environment: environment.merging(clientEnvironment) { $1 })

        injector = try TestProcess(python, [scriptPath], environment: environment)
        guard readInjectorLine() == "started" else {
            injector.kill()
            throw TestProcessError.didNotStart(
                program: "\(python) \(scriptPath)", waitingFor: "a RemoteDesktop session",
                output: injector.transcript)
        }
    }

    deinit { stop() }

    /// Starts a private headless mutter with a `size` virtual monitor under
    /// `scripts/with-gnome`; returns the script (ended by closing its stdin) and `base`
    /// with the socket, runtime directory and session bus of that mutter.
    static func startMutter(size: String, base: [String: String]) throws -> (TestProcess, [String: String]) {
        let withGnome = PrivateCompositor.packageRoot.appendingPathComponent("scripts/with-gnome").path
        let arguments = [
            "--size", size, "--", "sh", "-c",
            #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null"#,
        ]
        let session = try TestProcess(withGnome, arguments)
        let line = session.waitForLine(timeout: PrivateCompositor.startTimeout) { _ in true }?.line ?? ""
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, !fields[2].isEmpty else {
            session.kill()
            throw TestProcessError.didNotStart(
                program: ([withGnome] + arguments).joined(separator: " "), waitingFor: "mutter's socket and bus",
                output: session.transcript)
        }
        var environment = base
        environment["WAYLAND_DISPLAY"] = fields[0]
        environment["XDG_RUNTIME_DIR"] = fields[1]
        environment["DBUS_SESSION_BUS_ADDRESS"] = fields[2]
        return (session, environment)
    }

    /// Ends the RemoteDesktop session: mutter removes its virtual devices. Idempotent.
    func stopInput() {
        guard injector.isRunning else { return }
        injector.closeInput()
        if injector.waitForExit(timeout: 10) == nil { injector.kill() }
    }

    /// Ends the input session, the client and mutter. Idempotent.
    func stop() {
        stopInput()
        _ = client.waitForExit(timeout: 0)
        if session.isRunning {
            session.closeInput()
            if session.waitForExit(timeout: 10) == nil { session.kill() }
        }
        try? FileManager.default.removeItem(atPath: scriptPath)
    }

    /// Sends one command to the helper and waits for its answer.
    func send(_ command: String) {
        injector.send(command)
        _ = readInjectorLine()
    }

    /// Moves the pointer to (x, y) in monitor coordinates.
    func move(to x: Int, _ y: Int) { send("move \(x) \(y)") }

    /// Turns the wheel by `steps` detents (positive: down), through `NotifyPointerAxisDiscrete`.
    func wheel(_ steps: Int) { send("wheel \(steps)") }

    /// Presses and releases the left button.
    func click() {
        send("button 272 down")
        send("button 272 up")
    }

    /// Types `text` (characters the keymap has, as keysyms; mutter adds Shift as needed).
    func type(_ text: String) {
        for scalar in text.unicodeScalars {
            let keysym = String(scalar.value, radix: 16)
            send("keysym \(keysym) down")
            send("keysym \(keysym) up")
        }
    }

    /// Finds the surface's top-left in monitor coordinates by moving over a grid until the
    /// client reports an enter.
    func locateWindow() -> (x: Int, y: Int)? {
        for y in stride(from: 40, to: 600, by: 100) {
            for x in stride(from: 40, to: 800, by: 150) {
                let before = client.lines.count
                move(to: x, y)
                guard client.waitForLine(from: before, timeout: 0.3, where: { $0.hasPrefix("enter ") }) != nil else {
                    continue
                }
                // A late enter may belong to an earlier grid point: enter again at this one
                // (through the corner) and take the position from that enter alone.
                let confirming = client.lines.count
                move(to: x, y)
                guard let enter = client.waitForLine(from: confirming, timeout: 10, where: { $0.hasPrefix("enter ") })
                else { continue }
                let local = enter.line.split(separator: " ").compactMap { Int($0) }
                return (x - local[0], y - local[1])
            }
        }
        return nil
    }

    /// The helper's next line (it answers every command), or "" when it does not answer
    /// within 30 s or has ended.
    private func readInjectorLine() -> String {
        guard let answer = injector.waitForLine(from: injectorLinesRead, timeout: 30, where: { _ in true }) else {
            return ""
        }
        injectorLinesRead = answer.index + 1
        return answer.line
    }
}

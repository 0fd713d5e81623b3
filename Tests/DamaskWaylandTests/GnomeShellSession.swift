import Foundation

/// A private headless GNOME Shell for one test (`scripts/with-gnome-shell`): mutter with the
/// shell, whose IBus integration is GNOME's input method, the only input source an IBus
/// engine (Hangul by default). Keys are typed through `org.gnome.Mutter.RemoteDesktop` (the
/// helper script of ``MutterRemoteInput``), which also gives the seat its keyboard.
///
/// Owns the script's ``TestProcess`` (its process group holds the shell, its D-Bus session
/// and IBus; the script stops them by PID when its stdin closes) and the typing helper's.
/// Not thread-safe: use from one test.
final class GnomeShellSession {
    let socketPath: String
    let runtimeDirectory: String
    let sessionBus: String
    let logPath: String

    private let script: TestProcess
    private let injector: TestProcess
    private let injectorPath: String

    /// Starts the shell and a RemoteDesktop session, and leaves the overview the shell
    /// starts in (Escape).
    init(size: String = "1024x768", inputSource: String = "hangul") throws {
        let report = #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|$DBUS_SESSION_BUS_ADDRESS|$DAMASK_SHELL_LOG"; exec cat >/dev/null"#
        let executable = PrivateCompositor.packageRoot.appendingPathComponent("scripts/with-gnome-shell").path
        let arguments = ["--size", size, "--input-source", inputSource]
        script = try TestProcess(executable, arguments + ["--", "sh", "-c", report])
        let line = script.waitForLine(timeout: 120) { _ in true }?.line ?? ""
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4 else {
            script.kill()
            throw TestProcessError.didNotStart(
                program: ([executable] + arguments).joined(separator: " "), waitingFor: "GNOME Shell, within 120 s",
                output: script.transcript)
        }
        (socketPath, runtimeDirectory, sessionBus, logPath) = (fields[0], fields[1], fields[2], fields[3])
        injectorPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-shell-input-\(getpid())-\(UUID().uuidString).py").path
        try MutterRemoteInput.script.write(toFile: injectorPath, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBus
        injector = try TestProcess("/usr/bin/python3", [injectorPath], environment: environment)
        guard injector.waitForLine(timeout: 30, where: { $0 == "started" }) != nil else {
            throw TestProcessError.didNotStart(
                program: "/usr/bin/python3 \(injectorPath)", waitingFor: "a RemoteDesktop session", output: injector.transcript)
        }
        guard tap([0xFF1B]) else {
            throw TestProcessError.didNotStart(program: "RemoteDesktop", waitingFor: "Escape typed", output: injector.transcript)
        }
    }

    deinit { stop() }

    /// Stops the typing helper, then the shell (the script stops it by PID). Idempotent.
    func stop() {
        injector.kill(grace: 1)
        try? FileManager.default.removeItem(atPath: injectorPath)
        guard script.isRunning else { return }
        script.closeInput()
        if script.waitForExit(timeout: 20) == nil { script.kill() }
    }

    /// The environment a client of this shell needs.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBus
        return environment
    }

    /// Presses the keysyms in order and releases them in reverse (a chord: `[Control_L, a]`);
    /// returns whether mutter took them.
    @discardableResult
    func tap(_ keysyms: [UInt32]) -> Bool {
        let answered = injector.lines.count { $0 == "ok" }
        injector.send("tap " + keysyms.map { String($0, radix: 16) }.joined(separator: " "))
        return injector.waitUntil(timeout: 20) { lines in lines.count { $0 == "ok" } > answered }
    }

    /// Types `text` (ASCII letters and space) one key at a time.
    @discardableResult
    func type(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { tap([$0.value]) }
    }
}

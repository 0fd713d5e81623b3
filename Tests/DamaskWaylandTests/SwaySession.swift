import Foundation

/// A private headless sway (wlroots 0.15, the third compositor family after Weston and
/// mutter) for one test, started through `scripts/with-sway` and stopped by closing the
/// script's stdin, after which the script stops sway (and Fcitx 5, if asked for) by PID.
///
/// sway refuses to run as root; the script then runs it as `nobody` in a runtime directory
/// owned by `nobody`, which this (root) process can still reach.
///
/// Owns the script's ``TestProcess`` (and so its process group, which holds sway and
/// Fcitx). Not thread-safe: use from one test.
final class SwaySession {
    /// The socket as an absolute path, usable as `WAYLAND_DISPLAY`.
    let socketPath: String
    let runtimeDirectory: String
    /// sway's log (`--verbose`).
    let logPath: String
    /// sway's process id.
    let pid: Int32
    /// sway's IPC socket (`SWAYSOCK`, for `swaymsg`).
    let ipcSocketPath: String
    /// Fcitx 5's log with `WAYLAND_DEBUG=1` (every input-method request and event), when
    /// the session has Fcitx.
    let fcitxLogPath: String?

    private let script: TestProcess

    /// Starts sway with one output of `size`; every window floats at the size it asks for.
    ///
    /// - Parameter fcitx: an input method name (`hangul`, `pinyin`): Fcitx 5 starts with it as
    ///   its only, active input method, and the session waits until it has taken the seat's
    ///   input method.
    init(size: String = "1024x768", fcitx: String? = nil) throws {
        let report = #"echo "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY|$XDG_RUNTIME_DIR|$DAMASK_SWAY_LOG|$DAMASK_SWAY_PID|$SWAYSOCK|${DAMASK_FCITX_LOG:-}"; exec cat >/dev/null"#
        let executable = PrivateCompositor.packageRoot.appendingPathComponent("scripts/with-sway").path
        let arguments = ["--size", size] + (fcitx.map { ["--fcitx", $0] } ?? [])
        script = try TestProcess(executable, arguments + ["--", "sh", "-c", report])
        let line = script.waitForLine(timeout: PrivateCompositor.startTimeout) { _ in true }?.line ?? ""
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, let pid = Int32(fields[3]) else {
            script.kill()
            throw TestProcessError.didNotStart(
                program: ([executable] + arguments).joined(separator: " "),
                waitingFor: "sway's socket, within \(Int(PrivateCompositor.startTimeout)) s",
                output: script.transcript)
        }
        (socketPath, runtimeDirectory, logPath, self.pid, ipcSocketPath) = (fields[0], fields[1], fields[2], pid, fields[4])
        fcitxLogPath = fields[5].isEmpty ? nil : fields[5]
    }

    deinit { stop() }

    /// Stops sway (and Fcitx) and waits for the script to finish; a script that does not end
    /// within 10 s has its whole process group killed. Idempotent.
    func stop() {
        guard script.isRunning else { return }
        script.closeInput()
        if script.waitForExit(timeout: 10) == nil { script.kill() }
    }

    /// Whether sway still runs (sway 1.7 crashes on some input-method sequences: a test
    /// says so rather than timing out).
    var isRunning: Bool { Glibc.kill(pid, 0) == 0 }

    /// The environment a client of this sway needs.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["SWAYSOCK"] = ipcSocketPath
        return environment
    }

    /// The last lines of sway's log, for failure messages.
    var logTail: String {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// The lines of Fcitx's log that contain every one of `texts` (none without Fcitx).
    func fcitxLogLines(containing texts: String...) -> [String] {
        guard let fcitxLogPath else { return [] }
        let log = (try? String(contentsOfFile: fcitxLogPath, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init).filter { line in texts.allSatisfy { line.contains($0) } }
    }

    /// Waits until Fcitx holds sway's keyboard grab: sway has sent the grab its keymap, so it
    /// has the grab (Fcitx logs its `grab_keyboard` request before sway reads it: keys typed
    /// in between reach the window, not Fcitx). More than `count` such keymaps; returns
    /// whether it happened within `timeout`.
    func waitForFcitxGrab(beyond count: Int = 0, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while fcitxLogLines(containing: "zwp_input_method_keyboard_grab_v2@", ".keymap(").count <= count {
            guard Date() < deadline, isRunning else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Runs `swaymsg` with `arguments` against this sway; its output.
    func message(_ arguments: [String]) throws -> String {
        let result = try TestProcess.run("/usr/bin/swaymsg", arguments, environment: clientEnvironment, timeout: 30)
        guard result.status == 0 else { throw CompositorError.didNotStart("swaymsg \(arguments): \(result.output)") }
        return result.output
    }

    /// Takes a screenshot of the whole output with `grim` (wlr-screencopy) into `path` (PNG).
    func screenshot(to path: String) throws {
        let result = try TestProcess.run("/usr/bin/grim", [path], environment: clientEnvironment, timeout: 30)
        guard result.status == 0 else { throw CompositorError.screenshotFailed(result.output) }
    }
}

import Foundation
import Testing

/// A private X server (Xvfb) with a German keyboard layout, for nesting Weston or mutter and
/// driving them with real X input through `xdotool`.
///
/// Xvfb picks a free display number itself (`-displayfd`), runs with `-noreset` so that the
/// layout survives clients disconnecting, and is stopped by PID in ``stop()`` / `deinit`.
/// Missing programs are errors, not skips: `scripts/setup` installs them.
final class XvfbDisplay {
    /// The display name, e.g. ":3".
    let name: String
    private let process: TestProcess

    enum XError: Error, CustomStringConvertible {
        case missingProgram(String)
        case commandFailed(String, String)

        var description: String {
            switch self {
            case .missingProgram(let name): return "\(name) is not installed (run scripts/setup)"
            case .commandFailed(let command, let output): return "\(command) failed: \(output)"
            }
        }
    }

    /// Starts Xvfb with one 1280×1024 screen and sets the keyboard layout to `layout`
    /// (with `variant` and xkb `options`, e.g. "compose:menu", when given).
    init(layout: String = "de", variant: String = "", options: String = "") throws {
        for program in ["Xvfb", "xdotool", "setxkbmap"] where Self.path(of: program) == nil {
            throw XError.missingProgram(program)
        }
        let xvfb = Self.path(of: "Xvfb") ?? "Xvfb"
        process = try TestProcess(
            xvfb, ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "1280x1024x24"])
        let number = Self.displayNumber(from: process, timeout: PrivateCompositor.startTimeout)
        guard let number else {
            process.kill()
            throw TestProcessError.didNotStart(
                program: xvfb, waitingFor: "a display number on -displayfd", output: process.transcript)
        }
        name = ":" + number
        try run(
            "setxkbmap",
            ["-layout", layout] + (variant.isEmpty ? [] : ["-variant", variant])
                + (options.isEmpty ? [] : ["-option", options]))
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then SIGKILL after 2 s). Idempotent.
    func stop() {
        process.kill(grace: 2)
    }

    /// Waits for the number Xvfb prints once it accepts connections: a complete line, or
    /// digits that stay alone for 200 ms (Xvfb does not always end the line).
    private static func displayNumber(from process: TestProcess, timeout: TimeInterval) -> String? {
        let isNumber = { (text: String) in !text.isEmpty && text.allSatisfy(\.isNumber) }
        let deadline = Date().addingTimeInterval(timeout)
        var seen = ""
        while Date() < deadline {
            _ = process.waitForText(timeout: deadline.timeIntervalSinceNow) { !$0.isEmpty }
            var text = ""
            _ = process.waitForText(timeout: 0) { text = $0; return true }
            if let newline = text.firstIndex(of: "\n") {
                let line = String(text[..<newline]).trimmingCharacters(in: .whitespaces)
                return isNumber(line) ? line : nil
            }
            if isNumber(text) && text == seen { return text }
            if !process.isRunning && text.isEmpty { return nil }
            seen = text
            usleep(200_000)
        }
        return nil
    }

    /// Runs `xdotool` with `arguments` on this display.
    func xdotool(_ arguments: String...) throws {
        try run("xdotool", arguments)
    }

    /// Moves the pointer to screen point (x, y), which must differ from where it is, and
    /// returns once `weston` (nested in this display) has sent a pointer event for the move
    /// (motion, enter or leave, to whichever client is under the pointer).
    func movePointer(to x: Int, _ y: Int, seenBy weston: PrivateCompositor) throws {
        let before = weston.pointerEventCount
        try xdotool("mousemove", "\(x)", "\(y)")
        let events = { (lines: [String]) in lines.count { $0.contains(" ev ") } }
        let lines = weston.waitForLogLines(containing: "wl_pointer@") { events($0) > before }
        try #require(events(lines) > before, "Weston sent no pointer event for a move to (\(x), \(y))")
    }

    /// Runs an X client program on this display and fails when it fails.
    func run(_ program: String, _ arguments: [String]) throws {
        guard let path = Self.path(of: program) else { throw XError.missingProgram(program) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = name
        // xdotool reads its text argument in the locale's encoding: make that UTF-8.
        environment["LC_ALL"] = "C.UTF-8"
        let result = try TestProcess.run(path, arguments, environment: environment, timeout: 30)
        guard result.status == 0 else {
            throw XError.commandFailed("\(program) \(arguments.joined(separator: " "))", result.output)
        }
    }

    private static func path(of program: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories + ["/usr/bin"] {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

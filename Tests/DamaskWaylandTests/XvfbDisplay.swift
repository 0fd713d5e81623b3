import Foundation

/// A private X server (Xvfb) with a German keyboard layout, for nesting Weston or mutter and
/// driving them with real X input through `xdotool`.
///
/// Xvfb picks a free display number itself (`-displayfd`), runs with `-noreset` so that the
/// layout survives clients disconnecting, and is stopped by PID in ``stop()`` / `deinit`.
/// Missing programs are errors, not skips: `scripts/setup` installs them.
final class XvfbDisplay {
    /// The display name, e.g. ":3".
    let name: String
    private let process = Process()

    enum XError: Error, CustomStringConvertible {
        case missingProgram(String)
        case didNotStart(String)
        case commandFailed(String, String)

        var description: String {
            switch self {
            case .missingProgram(let name): return "\(name) is not installed (run scripts/setup)"
            case .didNotStart(let output): return "Xvfb did not start: \(output)"
            case .commandFailed(let command, let output): return "\(command) failed: \(output)"
            }
        }
    }

    /// Starts Xvfb with one 1280×1024 screen and sets the keyboard layout to `layout`.
    init(layout: String = "de") throws {
        for program in ["Xvfb", "xdotool", "setxkbmap"] where Self.path(of: program) == nil {
            throw XError.missingProgram(program)
        }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: Self.path(of: "Xvfb")!)
        process.arguments = ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "1280x1024x24"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes the number (not always with a newline) once it accepts connections.
        let data = output.fileHandleForReading.availableData
        let number = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(number) != nil else {
            process.terminate()
            throw XError.didNotStart(number)
        }
        name = ":" + number
        try run("setxkbmap", ["-layout", layout])
    }

    deinit { stop() }

    /// Stops the server. Idempotent.
    func stop() {
        guard process.isRunning else { return }
        // SIGTERM may be blocked in the child (it inherits the spawning thread's signal
        // mask), so fall back to SIGKILL.
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `xdotool` with `arguments` on this display.
    func xdotool(_ arguments: String...) throws {
        try run("xdotool", arguments)
    }

    /// Runs an X client program on this display and fails when it fails.
    func run(_ program: String, _ arguments: [String]) throws {
        guard let path = Self.path(of: program) else { throw XError.missingProgram(program) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = name
        // xdotool reads its text argument in the locale's encoding: make that UTF-8.
        environment["LC_ALL"] = "C.UTF-8"
        let result = try PrivateCompositor.run(path, arguments, environment: environment, timeout: 30)
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

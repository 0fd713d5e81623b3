/// The command line of `damask-inspect`.
public struct InspectOptions: Sendable, Equatable {
    public var logPath: String?
    public var evidenceDirectory: String?
    /// `--report FILE.html`: the self-contained HTML report.
    public var reportPath: String?
    public var failOver: Double?
    public var showHelp = false
    /// The client and its arguments (after `--`).
    public var command: [String] = []

    public static let help = """
        Usage: damask-inspect [options] -- CLIENT [ARGS…]

        Runs CLIENT on a private Wayland socket and forwards its connection to the compositor in
        WAYLAND_DISPLAY (or WAYLAND_SOCKET), checking every wl_shm commit: pixels changed
        outside the declared damage (under-damage), damage larger than the change
        (over-damage), and writes into buffers the compositor still holds.

        Options:
          --log FILE          write one JSON line per commit to FILE (also --log=FILE, and so on)
          --evidence DIR      write a PNG per under-damaged commit into DIR (changed pixels
                              outside the damage in magenta, damage bright, the rest dimmed)
          --report FILE.html  write a self-contained HTML page: summary table, a timeline of
                              every surface's commits, and before/after/difference images
                              with the declared damage drawn over them per offending commit
          --fail-over RATIO   also fail when a surface's median damage ÷ changed pixels is
                              above RATIO
          --help              show this help and exit

        The -- may be left out when CLIENT does not begin with '-'. SIGINT/SIGTERM/SIGHUP
        send CLIENT SIGTERM and end the run with the summary; a second one kills CLIENT.

        Exit status: 0 clean; 1 under-damage, held-buffer writes, protocol errors or
        --fail-over exceeded; 2 usage or connection errors (also a client that cannot be
        started, the compositor going away during the run, or a log or evidence that could not
        be written).
        """

    public init() {}

    /// The options that take a value (`--log FILE` or `--log=FILE`).
    static let valueOptions: Set<String> = ["--log", "--evidence", "--report", "--fail-over"]

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `InspectError.usage` naming the bad option or value.
    public init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst(), !value.isEmpty else { throw InspectError.usage("\(option) needs a value") }
            return value
        }
        while var argument = remaining.popFirst() {
            // `--log=FILE`: the option, then its value as the next argument.
            if let equals = argument.firstIndex(of: "="), Self.valueOptions.contains(String(argument[..<equals])) {
                remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
                argument = String(argument[..<equals])
            }
            switch argument {
            case "--": command = Array(remaining); remaining = []
            case "--help", "-h": showHelp = true
            case "--log": logPath = try value(for: argument)
            case "--evidence": evidenceDirectory = try value(for: argument)
            case "--report": reportPath = try value(for: argument)
            case "--fail-over":
                let text = try value(for: argument)
                guard let ratio = Double(text), ratio.isFinite, ratio >= 1 else {
                    throw InspectError.usage("--fail-over expects a ratio of at least 1, got '\(text)'")
                }
                failOver = ratio
            default:
                if argument.hasPrefix("-") { throw InspectError.usage("unknown option '\(argument)'") }
                command = [argument] + Array(remaining)
                remaining = []
            }
        }
        if command.isEmpty && !showHelp { throw InspectError.usage("no client to run (damask-inspect [options] -- CLIENT [ARGS…])") }
    }
}

import Foundation

/// The command line of `damask-notes`.
struct NotesOptions {
    /// The window's size in points.
    var size = (width: 640, height: 400)
    /// Render into memory instead of opening a Wayland window.
    var headless = false
    /// The input script to play, then exit.
    var playPath: String?
    /// Skip wall-clock waits while playing.
    var isFast = false
    /// Whether the text caret blinks (`--caret-blink`, default on).
    var caretBlinks = true
    /// Print the help and exit.
    var showHelp = false

    /// Printed by `--help`.
    static let help = """
        Usage: damask-notes [options]

        A small notes application built on DamaskControls' public API: a list of notes,
        the selected note's text, New and Delete, and a count. Tab moves keyboard focus.

        Options:
          --size WxH            window size in points (default 640x400)
          --headless            no compositor: render into memory with a simulated frame clock
          --play FILE           play an input script, then exit (0: every expect held,
                                1: an expect failed, 2: a usage or script error); besides the
                                player's commands: `expect notes N`, `expect note ROW "TEXT"`
          --speed fast|realtime fast skips wall-clock waits while playing (default realtime)
          --caret-blink on|off  blink the text caret (default on); off keeps it shown
          --help                show this help and exit
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `NotesError.usage` naming the bad option or value.
    init(arguments: [String]) throws(NotesError) {
        var remaining = arguments[...]
        func value(for option: String) throws(NotesError) -> String {
            guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": showHelp = true
            case "--headless": headless = true
            case "--play": playPath = try value(for: argument)
            case "--size":
                let text = try value(for: argument)
                let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                    (320...16_384).contains(width), (200...16_384).contains(height)
                else {
                    throw .usage("--size expects WxH, at least 320x200 and at most 16384 a side, got '\(text)'")
                }
                size = (width, height)
            case "--speed":
                let text = try value(for: argument)
                switch text {
                case "fast": isFast = true
                case "realtime": isFast = false
                default: throw .usage("--speed expects fast or realtime, got '\(text)'")
                }
            case "--caret-blink":
                let text = try value(for: argument)
                switch text {
                case "on": caretBlinks = true
                case "off": caretBlinks = false
                default: throw .usage("--caret-blink expects on or off, got '\(text)'")
                }
            default:
                throw .usage("unknown option '\(argument)' (see damask-notes --help)")
            }
        }
    }
}

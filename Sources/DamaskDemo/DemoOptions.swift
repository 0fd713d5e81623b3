import DamaskControls
import Foundation

/// The command line of `damask-demo`.
struct DemoOptions {
    /// How fast a script plays.
    enum Speed: String { case fast, realtime }

    var size = (width: 800, height: 600)
    var scene: String?
    var headless = false
    var scale: Double = 1
    var playPath: String?
    var stay = false
    var speed = Speed.realtime
    /// How long a script's wait or check may take before playback fails (`--timeout`).
    var timeout = Duration.seconds(20)
    var recordPath: String?
    var damageLogPath: String?
    var sequencePath: String?
    var keymap = "us"
    var screenshotDirectory: String?
    var snapshotPath: String?
    /// A fixed appearance; nil: follow the desktop (not with `--headless`, which is light).
    var appearance: Appearance?
    /// Whether text fields blink their caret (`--caret-blink`, default on).
    var caretBlinks = true
    var showHelp = false

    /// One line per option, printed by `--help`.
    static let help = """
        Usage: damask-demo [options]

        Opens the Damask demo window on the Wayland compositor in WAYLAND_DISPLAY.

        Options:
          --size WxH            initial window size in points (default 800x600)
          --scene NAME          scene to show first (progress, chromosome, paths, layers,
                                canvas, content-mode, text, motion, controls)
          --headless            no compositor: render into memory with a simulated frame clock
          --scale N             output scale in --headless mode (default 1)
          --play FILE           play an input script, then exit (0: every expect held,
                                1: an expect failed, 2: a usage or script error)
          --stay                keep the window open after --play finishes
          --speed fast|realtime fast skips wall-clock waits while playing (default realtime)
          --timeout SECONDS     how long one wait, or an expect text/clipboard/primary that
                                does not hold, may take while playing (default 20)
          --record FILE         write the real seat input as a script to FILE (on quit)
          --damage-log FILE     write one JSON line per commit (damage, repainted, draws, ms)
          --sequence FILE       FASTA file for the chromosome scene
          --keymap LAYOUT[:VARIANT]  xkb layout for scripted keys (default us)
          --screenshots DIR     with --play: write a screenshot of every scene into DIR
          --snapshot FILE       on SIGUSR1, write the window's last presented frame to FILE (PNG)
          --appearance light|dark  fixed appearance (default: the desktop's, followed live
                                through the settings portal; light with --headless)
          --caret-blink on|off  blink the text caret (default on); off keeps it shown
          --help                show this help and exit
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `DemoError.usage` naming the bad option or value.
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst() else {
                throw DemoError.usage("\(option) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": showHelp = true
            case "--size":
                let text = try value(for: argument)
                let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                    (1...16_384).contains(width), (1...16_384).contains(height)
                else {
                    throw DemoError.usage("--size expects WxH with sides from 1 to 16384, got '\(text)'")
                }
                size = (width, height)
            case "--scene": scene = try value(for: argument)
            case "--headless": headless = true
            case "--scale":
                let text = try value(for: argument)
                guard let number = Double(text), number > 0, number <= 8 else {
                    throw DemoError.usage("--scale expects a number above 0 and at most 8, got '\(text)'")
                }
                scale = number
            case "--play": playPath = try value(for: argument)
            case "--stay": stay = true
            case "--speed":
                let text = try value(for: argument)
                guard let parsed = Speed(rawValue: text) else {
                    throw DemoError.usage("--speed expects fast or realtime, got '\(text)'")
                }
                speed = parsed
            case "--timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw DemoError.usage("--timeout expects seconds above 0 and at most 3600, got '\(text)'")
                }
                timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
            case "--record": recordPath = try value(for: argument)
            case "--damage-log": damageLogPath = try value(for: argument)
            case "--sequence": sequencePath = try value(for: argument)
            case "--keymap": keymap = try value(for: argument)
            case "--screenshots": screenshotDirectory = try value(for: argument)
            case "--snapshot": snapshotPath = try value(for: argument)
            case "--appearance":
                let text = try value(for: argument)
                guard let parsed = Appearance(rawValue: text) else {
                    throw DemoError.usage("--appearance expects light or dark, got '\(text)'")
                }
                appearance = parsed
            case "--caret-blink":
                let text = try value(for: argument)
                switch text {
                case "on": caretBlinks = true
                case "off": caretBlinks = false
                default: throw DemoError.usage("--caret-blink expects on or off, got '\(text)'")
                }
            default:
                throw DemoError.usage("unknown option '\(argument)' (see damask-demo --help)")
            }
        }
    }
}

/// The command line of `damask-bench`.
struct BenchOptions {
    /// The measurement suites, in the order `all` runs them.
    static let suiteNames = [
        "graphics", "views", "controls", "typing", "damage", "latency", "idle", "memory", "startup", "typing-peers",
        "inspect",
    ]

    /// The suites to run.
    var suites: [String] = []
    /// Where to write the JSON report, if anywhere.
    var jsonPath: String?
    /// Samples kept per figure.
    var repeats = 15
    /// Runs discarded before sampling.
    var warmUps = 3
    /// The least CPU time of one sample, in nanoseconds.
    var minimumSampleNanoseconds: UInt64 = 3_000_000
    /// How long the idle windows are watched, in seconds.
    var idleSeconds = 5.0
    /// Frames measured per damage scenario.
    var frames = 30
    /// Whether to skip everything that needs a private Weston.
    var offscreenOnly = false
    /// A damage scenario to run alone, without baselines, for a profiler (`--profile`).
    var profiledScenario: DamageScenario?
    /// Whether `--profile` runs each frame after a full repaint elsewhere (`--cold`).
    var profilesColdCaches = false
    /// Whether to count the pages one 64×64 frame touches (`--pages`) instead of running suites.
    var countsPages = false
    /// Only the figures whose name contains this (`--case`), if set.
    var caseFilter: String?
    /// The damask-demo the startup suite starts (`--demo`); nil: the one `scripts/build-demo-release` builds.
    var demoPath: String?
    /// Whether `--help` was asked for.
    var showHelp = false
    /// Whether this process is a measured window (`client`), not the bench.
    var clientMode: ClientOptions?

    /// What a `damask-bench client` process shows.
    struct ClientOptions {
        /// Window size in points.
        var width = 800
        /// Window size in points.
        var height = 600
        /// Whether a caret blinks (a ``FrameTimer`` toggles it every 500 ms).
        var blinks = false
        /// Whether a progress bar and its percentage advance on every frame of a display link.
        var animates = false
        /// Whether a spinner link runs that changes the picture every 5th frame only.
        var spins = false
    }

    /// Printed by `--help`.
    static let help = """
        Usage: damask-bench [SUITE…] [options]

        Measures Damask against baselines measured in the same run and prints a table.
        Build it in release mode: swift run -c release damask-bench all

        Suites (default: all):
          graphics   rasterizer throughput vs pixman_image_fill_rectangles, memset, memcpy
          views      a pass over 1,000 views, 10 dirty vs none; one changed view among
             10/100/1,000/10,000; an idle pass; passes per drawing frame
          controls   a 100,000-row list at 3840x2160 scrolled by one row per frame vs
                     memcpy of the window; memory after showing every row vs the first
                     screen; 200 controls in stacks made and presented vs 200 plain views
          typing     a keystroke (edit, layout, damage, draw, present) at the end of a
                     100,000-character field vs a 10-character one; 10,000 keys typed
                     into an empty field, the last 1,000 vs the first 1,000
          damage     named scenarios at 1920x1080 and 3840x2160: damage, repaint, CPU per
                     frame, vs a full repaint and vs memcpy of the frame
          latency    input event to commit (offscreen and under a private headless Weston),
                     commit to presentation (wp_presentation)
          idle       wake-ups, commits and CPU time of an idle window, a 2 Hz caret blink,
                     a progress animation (wake-ups per frame, beside weston-simple-shm
                     and weston-simple-damage; under pixman Weston also pinned to one CPU
                     and to two) and a spinner that changes every 5th frame (commits per
                     link frame), 5 s each
          memory     peak RSS and shm bytes of an empty window and of damask-demo at
                     1920x1080 and 3840x2160; backing-store bytes of a sparse tree
          startup    damask-demo against foot under one private headless Weston with a
                     seat, --repeats starts each, interleaved: exec to the first commit
                     with a buffer (Weston's protocol log), CPU until then, peak RSS
          typing-peers  160 keys typed through the test seat of one private headless
                     Weston into damask-demo's text field, foot (cat), a GTK 4 Gtk.Entry
                     and a Qt 6 QLineEdit, in a short line and at the end of a
                     10,000-character line, clients interleaved, max(2, --repeats / 5)
                     runs: key→commit (stamped inside Weston) and the client's CPU per
                     key, against foot
          inspect    damask-inspect's CPU per 1920x1080 commit (copy, compare, release
                     check) vs memcpy of the frame, and a full change vs its memory floor
          all        every suite above

        Options:
          --json FILE          also write every figure and the machine facts as JSON
          --repeats N          samples per figure (default 15)
          --warmups N          discarded runs before sampling (default 3)
          --frames N           frames per damage scenario (default 30)
          --idle-seconds S     how long idle windows are watched (default 5)
          --case TEXT          measure only the figures whose name contains TEXT
                               (case-insensitive), e.g. --case "star fill" for perf record
          --quick              a smoke run: 3 repeats, 1 warm-up, 4 frames, 1 s idle
          --offscreen          skip the parts that need a private Weston
          --demo PATH          the damask-demo executable the startup and typing-peers suites
                               start (default: the one scripts/build-demo-release builds,
                               .build/static/release),
                               e.g. .build/release/damask-demo for the shared Swift runtime
          --profile SCENARIO   run one damage scenario alone at 3840x2160 (no baselines), for
                               valgrind --tool=callgrind --toggle-collect='*profiledFrames*'
                               or perf; SCENARIO is one of: \(DamageScenario.allCases.map(\.rawValue).joined(separator: ", "))
          --cold               with --profile: each frame follows a full repaint of another
                               3840x2160 window (in evictCaches), as in the paired figures
          --pages              count the memory pages one frame of the 64x64 change at
                               3840x2160 touches, per mapping (code of each library, heap,
                               bitmaps), for Damask's pass and both floors (needs
                               /proc/self/clear_refs); runs nothing else
          --help               show this help and exit

        Exit status: 0 when every target holds, 3 when a target is missed (the table's
        MISSES lines), 1 when the run failed, 2 for a bad command line.

        damask-bench client [--size WxH] [--blink] [--animate] [--spin] is the plain window
        (optionally with a 2 Hz caret blink, a progress animation or a spinner) that the
        idle and memory suites start and measure.

        The Weston parts start a private headless Weston through scripts/with-weston; when
        WAYLAND_DISPLAY is set (scripts/with-weston -- damask-bench latency) the latency
        suite uses that compositor instead. The memory suite runs damask-demo when it is
        built next to damask-bench.
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `BenchError.usage` naming the bad argument.
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst() else { throw BenchError.usage("\(option) needs a value") }
            return value
        }
        func number(for option: String, in range: ClosedRange<Double>) throws -> Double {
            let text = try value(for: option)
            guard let number = Double(text), range.contains(number) else {
                throw BenchError.usage("\(option) expects a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return number
        }
        if remaining.first == "client" {
            remaining.removeFirst()
            var client = ClientOptions()
            while let argument = remaining.popFirst() {
                switch argument {
                case "--size":
                    let parts = try value(for: argument).split(separator: "x").compactMap { Int($0) }
                    guard parts.count == 2, parts.allSatisfy({ (1...16_384).contains($0) }) else {
                        throw BenchError.usage("--size expects WxH")
                    }
                    (client.width, client.height) = (parts[0], parts[1])
                case "--blink": client.blinks = true
                case "--animate": client.animates = true
                case "--spin": client.spins = true
                default: throw BenchError.usage("unknown client option '\(argument)'")
                }
            }
            clientMode = client
            return
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": showHelp = true
            case "--json": jsonPath = try value(for: argument)
            case "--repeats": repeats = Int(try number(for: argument, in: 1...10_000))
            case "--warmups": warmUps = Int(try number(for: argument, in: 0...10_000))
            case "--frames": frames = Int(try number(for: argument, in: 2...10_000))
            case "--idle-seconds": idleSeconds = try number(for: argument, in: 0.1...600)
            case "--offscreen": offscreenOnly = true
            case "--case":
                let text = try value(for: argument)
                guard !text.isEmpty else { throw BenchError.usage("--case needs a non-empty name fragment") }
                caseFilter = text
            case "--demo": demoPath = try value(for: argument)
            case "--cold": profilesColdCaches = true
            case "--pages": countsPages = true
            case "--profile":
                let name = try value(for: argument)
                guard let scenario = DamageScenario(rawValue: name) else {
                    throw BenchError.usage("unknown scenario '\(name)' for --profile (see --help)")
                }
                profiledScenario = scenario
            case "--quick":
                repeats = 3
                warmUps = 1
                frames = 4
                idleSeconds = 1
                minimumSampleNanoseconds = 300_000
            case "all": suites.append(contentsOf: Self.suiteNames)
            default:
                guard Self.suiteNames.contains(argument) else {
                    throw BenchError.usage("unknown suite or option '\(argument)' (see --help)")
                }
                suites.append(argument)
            }
        }
        if suites.isEmpty { suites = Self.suiteNames }
        var seen = Set<String>()
        suites = suites.filter { seen.insert($0).inserted }
    }

    /// The sampler these options ask for.
    var sampler: Sampler {
        Sampler(
            warmUps: warmUps, repeats: repeats, minimumSampleNanoseconds: minimumSampleNanoseconds,
            caseFilter: caseFilter)
    }
}

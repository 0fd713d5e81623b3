import DamaskTestSupport
import Foundation
import Testing

/// `damask-bench`: its command line, and that quick runs print a table and write
/// well-formed JSON with every figure and the machine facts.
@Suite("damask-bench", .exclusive, .timeLimit(.minutes(5)))
struct BenchTests {
    static let executable = PrivateCompositor.productsDirectory.appendingPathComponent("damask-bench").path

    /// Runs the bench with `arguments`, writing JSON into a fresh directory; returns the exit
    /// status, stdout+stderr and the decoded JSON (nil when none was written). The run is
    /// killed after `timeout` seconds.
    static func run(
        _ arguments: [String], timeout: TimeInterval = 30
    ) throws -> (status: Int32, output: String, json: [String: Any]?) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bench.json").path
        #expect(FileManager.default.isExecutableFile(atPath: executable), "damask-bench is not built next to the tests")
        let result = try TestProcess.run(executable, arguments + ["--json", path], timeout: timeout)
        let data = FileManager.default.contents(atPath: path)
        let json = try data.map { try JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? nil
        return (result.status, result.output, json)
    }

    @Test("--help names every suite and option and exits 0")
    func helpNamesEverySuiteAndOption() throws {
        let result = try TestProcess.run(Self.executable, ["--help"], timeout: 10)
        #expect(result.status == 0)
        for word in [
            "graphics", "views", "controls", "typing", "damage", "latency", "idle", "memory", "startup", "typing-peers", "all", "--demo",
            "--json",
            "--repeats",
            "--warmups", "--frames", "--idle-seconds", "--quick", "--offscreen", "--pages", "--help",
        ] {
            #expect(result.output.contains(word), "\(word) missing from --help")
        }
    }

    @Test("--pages counts the pages one 64x64 frame touches for Damask's pass and both floors, and Damask's own code is among them only for its pass")
    func pagesCountsEachFramesPages() throws {
        let result = try Self.run(["--pages", "--frames", "3", "--warmups", "1"], timeout: 120)
        #expect(result.status == 0, "\(result.output)")
        let json = try #require(result.json)
        let figures = try #require(json["figures"] as? [[String: Any]])
        func median(_ label: String, _ metric: String) -> Double? {
            let figure = figures.first {
                ($0["name"] as? String) == "64x64 change 3840x2160: \(label), pages touched per frame"
                    && ($0["metric"] as? String) == metric
            }
            return (figure?["value"] as? [String: Any])?["median"] as? Double
        }
        // Every frame writes 64 rows of window-sized bitmaps (15 KiB apart, a page each), which
        // malloc places in the heap or in mappings of their own, and has a total.
        for label in ["Damask's pass", "pixel work alone", "minimal client"] {
            #expect(median(label, "all pages") != nil, "no total for \(label): \(result.output)")
            let bitmaps = (median(label, "heap") ?? 0) + (median(label, "bitmaps (anonymous ≥ 8 MiB)") ?? 0)
            #expect(bitmaps >= 64, "\(label) touched \(bitmaps) pages of bitmaps")
        }
        // The pass runs Damask's code (in this executable); the floors run none of it.
        let passCode = try #require(median("Damask's pass", "code: damask-bench"), "\(result.output)")
        #expect(passCode > (median("minimal client", "code: damask-bench") ?? 0))
        #expect(passCode > (median("pixel work alone", "code: damask-bench") ?? 0))
    }

    @Test("an unknown suite exits 2 and names it")
    func unknownSuiteExitsTwo() throws {
        let result = try TestProcess.run(Self.executable, ["teapot"], timeout: 10)
        #expect(result.status == 2)
        #expect(result.output.contains("'teapot'"))
    }

    @Test("a quick offscreen run prints the table and writes every figure, target and machine fact as JSON")
    func quickOffscreenRunWritesWellFormedJSON() throws {
        let result = try Self.run(["views", "latency", "memory", "--quick", "--offscreen"])
        #expect(result.output.contains("== views =="))
        #expect(result.output.contains("== latency =="))
        let json = try #require(result.json)

        let machine = try #require(json["machine"] as? [String: Any])
        #expect(((machine["cores"] as? Int) ?? 0) >= 1)
        #expect(!((machine["cpuModel"] as? String) ?? "").isEmpty)
        let pixman = try #require(machine["pixmanVersion"] as? String)
        #expect(pixman.split(separator: ".").count == 3)

        let figures = try #require(json["figures"] as? [[String: Any]])
        #expect(Set(figures.compactMap { $0["suite"] as? String }) == ["views", "latency", "memory"])
        for figure in figures {
            let value = try #require(figure["value"] as? [String: Any])
            // The summary is ordered: minimum ≤ lower quartile ≤ median ≤ upper ≤ maximum.
            let order = try ["minimum", "lowerQuartile", "median", "upperQuartile", "maximum"].map {
                try #require(value[$0] as? Double, "\($0) missing: \(figure)")
            }
            #expect(order.allSatisfy { $0.isFinite && $0 >= 0 } && order == order.sorted(), "\(figure)")
            #expect(((value["count"] as? Int) ?? 0) >= 1)
            if figure["baseline"] != nil {
                #expect(figure["ratio"] is [String: Any], "a figure with a baseline has a ratio: \(figure)")
            }
        }
        // The none-dirty pass over 1,000 views commits nothing.
        let idlePass = try #require(figures.first { ($0["metric"] as? String) == "commits" })
        #expect((idlePass["value"] as? [String: Any])?["median"] as? Double == 0)
        // 500 views of which 50 draw: exactly 50 backing stores of 40×25 points, 4 bytes each.
        let sparse = try #require(figures.first { ($0["name"] as? String) == "500 views, 50 draw" })
        #expect((sparse["value"] as? [String: Any])?["median"] as? Double == Double(50 * 40 * 25 * 4) / 1024, "\(sparse)")

        // The offscreen latency targets are there, and the printed table gives each target
        // the verdict the JSON gives it.
        let targets = try #require(json["targets"] as? [[String: Any]])
        let statements = targets.compactMap { $0["statement"] as? String }
        #expect(statements.contains("input event to commit for a small change ≤ 1 ms CPU (offscreen)"), "\(statements)")
        #expect(statements.contains { $0.hasPrefix("input to commit never more than one frame callback later") }, "\(statements)")
        let missed = targets.contains { ($0["holds"] as? Bool) == false }
        #expect(result.status == (missed ? 3 : 0), "exit 3 exactly when a target is missed: \(result.output)")
        for target in targets {
            let statement = try #require(target["statement"] as? String)
            let holds = try #require(target["holds"] as? Bool)
            #expect(result.output.contains("\(holds ? "HOLDS " : "MISSES") \(statement)"), "table and JSON disagree on \(statement)")
        }
        let skipped = try #require(json["skipped"] as? [String: String])
        #expect(skipped.keys.contains { $0.hasPrefix("latency") }, "--offscreen skips the Weston latency")
    }

    @Test("the idle suite measures a real window process under a private Weston", .integration)
    func idleSuiteMeasuresARealProcess() throws {
        // Sixteen private Westons (the peers and the pinned placements included), each
        // started, settled and measured for half a second: about 40 s on a loaded machine.
        let result = try Self.run(["idle", "--quick", "--idle-seconds", "0.5"], timeout: 120)
        let json = try #require(result.json, "\(result.output)")
        let missed = ((json["targets"] as? [[String: Any]]) ?? []).contains { ($0["holds"] as? Bool) == false }
        #expect(result.status == (missed ? 3 : 0), "exit 3 exactly when a target is missed: \(result.output)")
        let figures = try #require(json["figures"] as? [[String: Any]])
        let names = Set(figures.compactMap { $0["name"] as? String })
        #expect(names.contains { $0.hasPrefix("idle window") })
        #expect(names.contains { $0.hasPrefix("2 Hz caret blink") })
        // The animation is measured beside Weston's own wl_shm clients and, where there are
        // two CPUs, with Weston and the client pinned to one CPU and to separate CPUs.
        #expect(names.contains { $0.hasPrefix("weston-simple-damage (pixman Weston)") })
        let twoCPUs = ProcessInfo.processInfo.activeProcessorCount >= 2
        #expect(names.contains { $0.hasPrefix("progress animation (pixman Weston, Weston and client on one CPU)") } == twoCPUs)
        #expect(names.contains { $0.hasPrefix("weston-simple-shm (pixman Weston, Weston and client on separate CPUs)") } == twoCPUs)
        let targets = try #require(json["targets"] as? [[String: Any]])
        #expect(targets.contains { ($0["statement"] as? String)?.contains("0 wake-ups") == true })
    }
}

extension BenchTests {
    @Test("latency under a private Weston times input to commit and commit to wp_presentation feedback", .integration)
    func latencyUnderWestonUsesPresentationFeedback() throws {
        let result = try Self.run(["latency", "--quick"])
        let json = try #require(result.json, "\(result.output)")
        let missed = ((json["targets"] as? [[String: Any]]) ?? []).contains { ($0["holds"] as? Bool) == false }
        #expect(result.status == (missed ? 3 : 0), "exit 3 exactly when a target is missed: \(result.output)")
        let figures = try #require(json["figures"] as? [[String: Any]])
        let presented = try #require(figures.first { ($0["metric"] as? String) == "commit→presented" })
        let value = try #require(presented["value"] as? [String: Any])
        let median = try #require(value["median"] as? Double)
        // Presented after the commit, and within a second at 60 Hz.
        #expect(median > 0 && median < 1000, "commit→presented \(median) ms")
        let waited = figures.filter { ($0["metric"] as? String) == "frames waited" }
        #expect(waited.count == 4)
        for figure in waited {
            let maximum = try #require((figure["value"] as? [String: Any])?["maximum"] as? Double)
            #expect(maximum <= 1, "\(figure["name"] ?? "") waited \(maximum) frame callbacks")
        }
    }
}

extension BenchTests {
    @Test("startup runs damask-demo and foot under one Weston with a seat and times each from exec to its first frame", .integration)
    func startupComparesDemoWithFoot() throws {
        // The demo of this build (the default is the one scripts/build-demo-release builds,
        // which a test run does not make).
        let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo").path
        let result = try Self.run(["startup", "--quick", "--demo", demo])
        let json = try #require(result.json, "\(result.output)")
        let missed = ((json["targets"] as? [[String: Any]]) ?? []).contains { ($0["holds"] as? Bool) == false }
        #expect(result.status == (missed ? 3 : 0), "exit 3 exactly when a target is missed: \(result.output)")
        let figures = try #require(json["figures"] as? [[String: Any]], "no figures: \(result.output)")
        let startup = figures.filter { ($0["suite"] as? String) == "startup" }
        #expect(Set(startup.compactMap { $0["metric"] as? String }) == ["exec→first commit", "CPU to first commit", "peak RSS"])
        for figure in startup {
            #expect(figure["baseline"] as? String == "foot")
            let value = try #require(figure["value"] as? [String: Any])
            let baseline = try #require(figure["baselineValue"] as? [String: Any])
            // 3 starts each (--quick); every one found its frame and took some time and memory.
            #expect(value["count"] as? Int == 3 && baseline["count"] as? Int == 3, "\(figure)")
            for summary in [value, baseline] {
                let minimum = try #require(summary["minimum"] as? Double)
                let maximum = try #require(summary["maximum"] as? Double)
                #expect(minimum > 0 && maximum < 20_000, "\(figure)")
            }
        }
        // A program's first frame comes after it was started, and a Swift program with
        // Foundation needs more than a mebibyte.
        let rss = try #require(startup.first { ($0["metric"] as? String) == "peak RSS" })
        #expect(((rss["value"] as? [String: Any])?["minimum"] as? Double ?? 0) > 1, "\(rss)")
        let targets = try #require(json["targets"] as? [[String: Any]])
        #expect(targets.contains { ($0["statement"] as? String)?.contains("peak RSS ≤ 20 MiB") == true })
        #expect(targets.contains { ($0["statement"] as? String)?.contains("≤ foot's") == true })
    }
}

extension BenchTests {
    @Test("startup with a --demo that is not an executable skips the suite and names the path")
    func startupNamesAMissingDemo() throws {
        let missing = "/nonexistent/damask-demo-\(getpid())"
        let result = try TestProcess.run(Self.executable, ["startup", "--quick", "--demo", missing], timeout: 30)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("== startup == skipped: --demo \(missing) is not an executable"), "\(result.output)")
    }

    @Test("typing-peers with a --demo that is not an executable skips the suite and names the path")
    func typingPeersNamesAMissingDemo() throws {
        let missing = "/nonexistent/damask-demo-\(getpid())"
        let result = try TestProcess.run(Self.executable, ["typing-peers", "--quick", "--demo", missing], timeout: 30)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("== typing-peers == skipped: --demo \(missing) is not an executable"), "\(result.output)")
    }
}

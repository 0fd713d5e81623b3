import Foundation

/// Wake-ups, commits and CPU time of a real Damask window process under a private Weston:
/// left alone; with only a caret that a ``FrameTimer`` toggles every 500 ms (the demo text
/// field's blink); animating a progress bar on every frame (wake-ups per frame, under
/// Weston's pixman and GL renderers); and with a spinner link that changes the picture
/// every 5th frame (commits per link frame).
@MainActor struct IdleSuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (idle duration, offscreen-only).
    let options: BenchOptions

    /// One measured client: its name, its `damask-bench client` options, and whether its
    /// Weston uses the GL renderer.
    private struct Case {
        let name: String
        let arguments: [String]
        var glRenderer = false
    }

    /// What one interval of a client measured.
    private struct Measurement {
        var commits = 0.0
        var linkFrames = 0.0
        var wakeUps = 0.0
        var mainWakeUps = 0
        var threads = 0
        var cpuMilliseconds = 0.0
    }

    /// Runs every case.
    func run() throws {
        guard !options.offscreenOnly else {
            report.skip("idle", reason: "--offscreen")
            return
        }
        let cases = [
            Case(name: "idle window", arguments: []),
            Case(name: "2 Hz caret blink", arguments: ["--blink"]),
            Case(name: "progress animation (pixman Weston)", arguments: ["--animate"]),
            Case(name: "progress animation (GL Weston)", arguments: ["--animate"], glRenderer: true),
            Case(name: "spinner, changes every 5th frame", arguments: ["--spin"]),
        ]
        let seconds = options.idleSeconds
        let label = BenchReport.format(seconds)
        for item in cases {
            let measured: Measurement
            do {
                measured = try measure(item, seconds: seconds)
            } catch BenchError.helper(let reason) where item.glRenderer {
                // llvmpipe may be missing on a machine without Mesa: say so, do not fail.
                report.skip("idle", reason: "\(item.name): \(reason)")
                continue
            }
            let name = "\(item.name), \(label) s"
            report.add(
                Figure(
                    suite: "idle", name: name, metric: "commits", unit: "count",
                    value: Statistics(exactly: measured.commits), note: "wl_surface.commit, bare ones included"))
            report.add(
                Figure(
                    suite: "idle", name: name, metric: "wake-ups", unit: "count",
                    value: Statistics(exactly: measured.wakeUps),
                    note: "context switches of all \(measured.threads) threads; main thread \(measured.mainWakeUps)"))
            report.add(
                Figure(
                    suite: "idle", name: name, metric: "CPU", unit: "ms",
                    value: Statistics(exactly: measured.cpuMilliseconds)))
            switch item.arguments.first {
            case nil:
                report.check(
                    Target(
                        statement: "idle window: 0 wake-ups over \(label) s", measured: measured.wakeUps, limit: 0,
                        unit: "wake-ups"))
                report.check(
                    Target(
                        statement: "idle window: 0 commits over \(label) s", measured: measured.commits, limit: 0,
                        unit: "commits"))
            case "--blink":
                report.check(
                    Target(
                        statement: "2 Hz caret blink: ≤ 2.5 commits/s", measured: measured.commits / seconds,
                        limit: 2.5, unit: "commits/s"))
                report.check(
                    Target(
                        statement: "2 Hz caret blink: ≤ 10 process wake-ups/s", measured: measured.wakeUps / seconds,
                        limit: 10, unit: "wake-ups/s"))
            case "--animate":
                let perFrame = measured.wakeUps / max(1, measured.commits)
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "wake-ups/frame", unit: "count",
                        value: Statistics(exactly: perFrame),
                        note: "every commit is a frame; \(Int(measured.commits)) frames"))
                if item.glRenderer {
                    report.check(
                        Target(
                            statement: "progress animation (GL Weston): ≤ 1.5 process wake-ups per frame",
                            measured: perFrame, limit: 1.5, unit: "wake-ups/frame"))
                }
            default:
                let perLinkFrame = measured.commits / max(1, measured.linkFrames)
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "commits/link frame", unit: "ratio",
                        value: Statistics(exactly: perLinkFrame),
                        note: "\(Int(measured.linkFrames)) link frames; the picture changes on every 5th"))
                report.check(
                    Target(
                        statement: "spinner: commits only the frames where it changes (≤ 1 per 5 link frames)",
                        measured: perLinkFrame, limit: 0.2 + 1 / max(1, measured.linkFrames),
                        unit: "commits/link frame"))
            }
        }
    }

    /// Starts the client of `item` under its own Weston and measures it for `seconds`.
    private func measure(_ item: Case, seconds: Double) throws -> Measurement {
        let weston = try WestonSession(size: "1024x768", glRenderer: item.glRenderer)
        defer { weston.stop() }
        let client = try ChildProcess(
            ChildProcess.benchExecutable, ["client", "--size", "640x480"] + item.arguments,
            environment: weston.clientEnvironment)
        defer { client.stop() }
        guard client.waitForLine(startingWith: "ready", timeout: 10) else {
            throw BenchError.helper("the bench client did not show its window")
        }
        usleep(300_000)  // let the first frame callback and buffer release settle
        let countsBefore = try Self.counts(of: client)
        // Let the threads the query woke go back to sleep; an animation is never asleep, and
        // its frames are counted between the two queries, so its interval starts at once.
        if !item.arguments.contains("--animate") && !item.arguments.contains("--spin") { usleep(100_000) }
        let probe = ProcessProbe(pid: client.pid)
        let before = probe.read()
        usleep(UInt32(seconds * 1_000_000))
        let after = probe.read()
        let countsAfter = try Self.counts(of: client)
        var result = Measurement()
        result.commits = Double(countsAfter.commits - countsBefore.commits)
        result.linkFrames = Double(countsAfter.frames - countsBefore.frames)
        result.wakeUps = Double(after.contextSwitches - before.contextSwitches)
        result.mainWakeUps = after.mainThreadContextSwitches - before.mainThreadContextSwitches
        result.threads = after.threads
        result.cpuMilliseconds = Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6
        return result
    }

    /// Asks the bench client how many commits and link frames it made so far (the query
    /// wakes it, so it is made outside the measured interval; an animating client's reply
    /// includes the frames it drew meanwhile, which is at most one or two either side).
    private static func counts(of client: ChildProcess) throws -> (commits: Int, frames: Int) {
        client.send("c")
        guard let line = client.line(startingWith: "commits ", timeout: 5) else {
            throw BenchError.helper("the bench client did not report its commit count")
        }
        let words = line.split(separator: " ")
        guard words.count == 4, let commits = Int(words[1]), let frames = Int(words[3]) else {
            throw BenchError.helper("the bench client's count line '\(line)' is not 'commits N frames F'")
        }
        return (commits, frames)
    }
}

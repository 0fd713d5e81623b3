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
        var voluntaryWakeUps = 0
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
        try measurePeers(seconds: seconds, label: label)
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
                    note: "context switches of all \(measured.threads) threads; main thread \(measured.mainWakeUps); "
                        + "\(Int(measured.wakeUps) - measured.voluntaryWakeUps) of them preemptions"))
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
                // Both counts, because they answer different questions: a sleep that ends is
                // a wake-up; a preemption (another thread, often Weston answering the commit,
                // takes the CPU) is a context switch without one, and a loaded machine adds them.
                let perFrame = measured.wakeUps / max(1, measured.commits)
                let sleepsPerFrame = Double(measured.voluntaryWakeUps) / max(1, measured.commits)
                let renderer = item.glRenderer ? "GL" : "pixman"
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "wake-ups/frame", unit: "count",
                        value: Statistics(exactly: perFrame),
                        note: "all context switches; every commit is a frame; \(Int(measured.commits)) frames"))
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "sleeps/frame", unit: "count",
                        value: Statistics(exactly: sleepsPerFrame),
                        note: "voluntary context switches only (a thread slept and was woken), preemptions left out"))
                report.check(
                    Target(
                        statement: "progress animation (\(renderer) Weston): ≤ 1.5 process wake-ups (sleeps) per frame",
                        measured: sleepsPerFrame, limit: 1.5, unit: "sleeps/frame"))
                report.check(
                    Target(
                        statement: "progress animation (\(renderer) Weston): ≤ 1.5 context switches per frame",
                        measured: perFrame, limit: 1.5, unit: "switches/frame"))
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

    /// The baseline for wake-ups per animated frame: `weston-simple-shm`, Weston's own
    /// `wl_shm` animation (one thread, a blocking `wl_display_dispatch` loop), under the
    /// same two renderers; frames are the commits in Weston's protocol log.
    private func measurePeers(seconds: Double, label: String) throws {
        let peer = "/usr/bin/weston-simple-shm"
        guard FileManager.default.isExecutableFile(atPath: peer) else {
            report.skip("idle", reason: "\(peer) is missing (Debian package weston)")
            return
        }
        for glRenderer in [false, true] {
            let name = "weston-simple-shm (\(glRenderer ? "GL" : "pixman") Weston), \(label) s"
            do {
                let weston = try WestonSession(size: "1024x768", glRenderer: glRenderer)
                defer { weston.stop() }
                let client = try ChildProcess(peer, [], environment: weston.clientEnvironment)
                defer { client.stop() }
                usleep(1_000_000)  // its window up and animating
                let probe = ProcessProbe(pid: client.pid)
                let commitsBefore = weston.logLineCount(containing: ".commit()")
                let before = probe.read()
                usleep(UInt32(seconds * 1_000_000))
                let after = probe.read()
                let commits = Double(weston.logLineCount(containing: ".commit()") - commitsBefore)
                guard commits > 0 else { throw BenchError.helper("weston-simple-shm made no commit") }
                let wakeUps = Double(after.contextSwitches - before.contextSwitches)
                let sleeps = Double(after.voluntaryContextSwitches - before.voluntaryContextSwitches)
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "wake-ups/frame", unit: "count",
                        value: Statistics(exactly: wakeUps / commits),
                        note: "baseline: context switches ÷ commits, \(Int(commits)) frames"))
                report.add(
                    Figure(
                        suite: "idle", name: name, metric: "sleeps/frame", unit: "count",
                        value: Statistics(exactly: sleeps / commits), note: "voluntary context switches only"))
            } catch BenchError.helper(let reason) {
                report.skip("idle", reason: "\(name): \(reason)")
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
        result.voluntaryWakeUps = after.voluntaryContextSwitches - before.voluntaryContextSwitches
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

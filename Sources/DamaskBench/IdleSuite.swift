import DamaskProcess
import Foundation

/// Wake-ups, commits and CPU time of a real Damask window process under a private Weston:
/// left alone; with only a caret that a ``FrameTimer`` toggles every 500 ms (the demo text
/// field's blink); animating a progress bar on every frame (wake-ups per frame, under
/// Weston's pixman and GL renderers, beside `weston-simple-shm` and `weston-simple-damage`;
/// under pixman also with Weston and the client pinned to one CPU and to separate CPUs,
/// which decides whether Weston's buffer release wakes a client a second time); and with a
/// spinner link that changes the picture every 5th frame (commits per link frame).
@MainActor struct IdleSuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (idle duration, offscreen-only).
    let options: BenchOptions

    /// One measured client: its name, its `damask-bench client` options, whether its
    /// Weston uses the GL renderer, and where the two may run.
    private struct Case {
        let name: String
        let arguments: [String]
        var glRenderer = false
        var placement = Placement.free
    }

    /// Where a client and its Weston may run. An animating `wl_shm` client's wake-ups per
    /// frame under the pixman renderer depend on it: Weston answers each commit with a
    /// buffer release, and whether that answer wakes the client a second time depends on
    /// whether Weston ran on the client's CPU (docs/performance.md, "Why 2 under pixman").
    enum Placement: Equatable {
        /// Wherever the kernel puts them (the targets are checked here).
        case free
        /// Both pinned to CPU 0 (`taskset`): Weston runs only when the client sleeps or is
        /// preempted.
        case oneCPU
        /// Weston on CPU 1, the client on CPU 0: Weston answers in parallel.
        case separateCPUs

        /// The suffix of a figure's name.
        var label: String {
            switch self {
            case .free: ""
            case .oneCPU: ", Weston and client on one CPU"
            case .separateCPUs: ", Weston and client on separate CPUs"
            }
        }

        /// The CPUs of (Weston, the client), or nil when free.
        var cpus: (weston: Int, client: Int)? {
            switch self {
            case .free: nil
            case .oneCPU: (0, 0)
            case .separateCPUs: (1, 0)
            }
        }

        /// Pins every thread of Weston and of the client to their CPUs (nothing when free).
        func pin(weston: Int32, client: Int32) throws {
            guard let cpus else { return }
            try Self.pin(weston, to: cpus.weston)
            try Self.pin(client, to: cpus.client)
        }

        /// Pins every thread of `pid` to `cpu` with util-linux's `taskset`.
        private static func pin(_ pid: Int32, to cpu: Int) throws {
            let result: ChildProcess.Result
            do {
                result = try ChildProcess.run("/usr/bin/taskset", ["-a", "-p", "-c", String(cpu), String(pid)], timeout: 30)
            } catch {
                throw BenchError.helper("taskset cannot run: \(error)")
            }
            guard result.status == 0 else {
                throw BenchError.helper("taskset could not pin process \(pid) to CPU \(cpu): \(result.output)")
            }
        }
    }

    /// The placements measured for the animation under the pixman renderer: all three on a
    /// machine with two CPUs or more, else only the free one.
    private static var animationPlacements: [Placement] {
        ProcessInfo.processInfo.activeProcessorCount >= 2 ? [.free, .oneCPU, .separateCPUs] : [.free]
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
        var cases = [
            Case(name: "idle window", arguments: []),
            Case(name: "2 Hz caret blink", arguments: ["--blink"]),
        ]
        for placement in Self.animationPlacements {
            cases.append(
                Case(name: "progress animation (pixman Weston\(placement.label))", arguments: ["--animate"], placement: placement))
        }
        cases += [
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
            } catch BenchError.helper(let reason) where item.glRenderer || item.placement != .free {
                // llvmpipe may be missing on a machine without Mesa, taskset on one without
                // util-linux: say so, do not fail.
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
                // The pinned placements explain the free one; the targets are the free one's.
                guard item.placement == .free else { break }
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

    /// The baselines for wake-ups per animated frame: `weston-simple-shm` and
    /// `weston-simple-damage`, Weston's own `wl_shm` animations (one thread, a blocking
    /// `wl_display_dispatch` loop), under the same renderers and placements as Damask's
    /// animation; frames are the commits in Weston's protocol log.
    private func measurePeers(seconds: Double, label: String) throws {
        for peerName in ["weston-simple-shm", "weston-simple-damage"] {
            let peer = "/usr/bin/\(peerName)"
            guard FileManager.default.isExecutableFile(atPath: peer) else {
                report.skip("idle", reason: "\(peer) is missing (Debian package weston)")
                continue
            }
            let runs = Self.animationPlacements.map { (glRenderer: false, placement: $0) } + [(true, .free)]
            for (glRenderer, placement) in runs {
                let name = "\(peerName) (\(glRenderer ? "GL" : "pixman") Weston\(placement.label)), \(label) s"
                try measurePeer(peer, name: name, glRenderer: glRenderer, placement: placement, seconds: seconds)
            }
        }
    }

    /// Measures one peer animation; a Weston or placement that cannot be had is reported
    /// as skipped.
    private func measurePeer(_ peer: String, name: String, glRenderer: Bool, placement: Placement, seconds: Double) throws {
        do {
            let weston = try PrivateCompositor.benchWeston(size: "1024x768", glRenderer: glRenderer)
            defer { weston.stop() }
            let client = try ChildProcess(peer, [], environment: weston.clientEnvironment)
            defer { client.stop() }
            try placement.pin(weston: weston.pid, client: client.pid)
            usleep(1_000_000)  // its window up and animating
            let probe = ProcessProbe(pid: client.pid)
            let commitsBefore = weston.logLineCount(containing: ".commit()")
            let before = probe.read()
            usleep(UInt32(seconds * 1_000_000))
            let after = probe.read()
            let commits = Double(weston.logLineCount(containing: ".commit()") - commitsBefore)
            guard commits > 0 else { throw BenchError.helper("\(peer) made no commit") }
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

    /// Starts the client of `item` under its own Weston and measures it for `seconds`.
    private func measure(_ item: Case, seconds: Double) throws -> Measurement {
        let weston = try PrivateCompositor.benchWeston(size: "1024x768", glRenderer: item.glRenderer)
        defer { weston.stop() }
        let client = try ChildProcess(
            ChildProcess.benchExecutable, ["client", "--size", "640x480"] + item.arguments,
            environment: weston.clientEnvironment)
        defer { client.stop() }
        guard client.waitForLine(startingWith: "ready", timeout: 10) else {
            throw BenchError.helper("the bench client did not show its window")
        }
        try item.placement.pin(weston: weston.pid, client: client.pid)
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
        let start = client.lines.count  // the reply to this query, not an earlier one
        client.write("c")
        guard let line = client.waitForLine(from: start, timeout: 5, where: { $0.hasPrefix("commits ") })?.line else {
            throw BenchError.helper("the bench client did not report its commit count")
        }
        let words = line.split(separator: " ")
        guard words.count == 4, let commits = Int(words[1]), let frames = Int(words[3]) else {
            throw BenchError.helper("the bench client's count line '\(line)' is not 'commits N frames F'")
        }
        return (commits, frames)
    }
}

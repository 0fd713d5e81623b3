import Foundation

/// Wake-ups, commits and CPU time of a real Damask window process under a private Weston:
/// left alone, and with only a caret that a ``FrameTimer`` toggles every 500 ms (the demo
/// text field's blink).
@MainActor struct IdleSuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (idle duration, offscreen-only).
    let options: BenchOptions

    /// Runs both cases.
    func run() throws {
        guard !options.offscreenOnly else {
            report.skip("idle", reason: "--offscreen")
            return
        }
        let weston = try WestonSession(size: "1024x768")
        defer { weston.stop() }
        let seconds = options.idleSeconds
        let label = BenchReport.format(seconds)
        for (name, arguments) in [("idle window", [String]()), ("2 Hz caret blink", ["--blink"])] {
            let client = try ChildProcess(
                ChildProcess.benchExecutable, ["client", "--size", "640x480"] + arguments,
                environment: weston.clientEnvironment)
            defer { client.stop() }
            guard client.waitForLine(startingWith: "ready", timeout: 10) else {
                throw BenchError.helper("the bench client did not show its window")
            }
            usleep(300_000)  // let the first frame callback and buffer release settle
            let commitsBefore = try Self.commitCount(of: client)
            usleep(100_000)  // let the threads the query woke go back to sleep
            let probe = ProcessProbe(pid: client.pid)
            let before = probe.read()
            usleep(UInt32(seconds * 1_000_000))
            let after = probe.read()
            let commitsAfter = try Self.commitCount(of: client)
            let commits = Double(commitsAfter - commitsBefore)
            report.add(
                Figure(
                    suite: "idle", name: "\(name), \(label) s", metric: "commits", unit: "count",
                    value: Statistics(exactly: commits), note: "wl_surface.commit, bare ones included"))
            let wakeUps = Double(after.contextSwitches - before.contextSwitches)
            let mainWakeUps = after.mainThreadContextSwitches - before.mainThreadContextSwitches
            let cpu = Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6
            report.add(
                Figure(
                    suite: "idle", name: "\(name), \(label) s", metric: "wake-ups", unit: "count",
                    value: Statistics(exactly: wakeUps),
                    note: "context switches of all \(after.threads) threads; main thread \(mainWakeUps)"))
            report.add(
                Figure(
                    suite: "idle", name: "\(name), \(label) s", metric: "CPU", unit: "ms",
                    value: Statistics(exactly: cpu)))
            if arguments.isEmpty {
                report.check(
                    Target(
                        statement: "idle window: 0 wake-ups over \(label) s", measured: wakeUps, limit: 0,
                        unit: "wake-ups"))
                report.check(
                    Target(
                        statement: "idle window: 0 commits over \(label) s", measured: commits, limit: 0,
                        unit: "commits"))
            } else {
                report.check(
                    Target(
                        statement: "2 Hz caret blink: ≤ 2.5 commits/s", measured: commits / seconds, limit: 2.5,
                        unit: "commits/s"))
                report.check(
                    Target(
                        statement: "2 Hz caret blink: ≤ 10 process wake-ups/s", measured: wakeUps / seconds,
                        limit: 10, unit: "wake-ups/s"))
            }
        }
    }

    /// Asks the bench client how many commits it made so far (the query wakes it, so it is
    /// made outside the measured interval).
    private static func commitCount(of client: ChildProcess) throws -> Int {
        client.send("c")
        guard let line = client.line(startingWith: "commits ", timeout: 5),
            let count = Int(line.dropFirst("commits ".count))
        else { throw BenchError.helper("the bench client did not report its commit count") }
        return count
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo at rest: every scene, once it has settled, makes no commit and never wakes up.
///
/// The issue's target is 10 s per scene. Measured one after another, nine scenes would cost
/// about two minutes of the suite; instead every scene runs at once, each in its own demo
/// process under its own Weston, and one 10 s window is measured after all of them have
/// settled. Each process is still watched for the whole 10 s, and a sleeping process's
/// counters do not move whatever the others do, so this is 10 s per scene.
@Suite("damask-demo at rest under Weston", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoIdleTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")
    /// Every scene of the demo (`damask-demo --help`).
    static let scenes = ["progress", "chromosome", "paths", "layers", "canvas", "content-mode", "text", "motion", "controls"]
    /// The window over which a settled scene must stay still (the issue's target).
    static let restSeconds: UInt32 = 10

    /// One scene's demo and compositor.
    final class Run {
        let scene: String
        let weston: PrivateCompositor
        let client: ClientProcess

        init(scene: String, extraArguments: [String] = []) throws {
            self.scene = scene
            weston = try PrivateCompositor(.weston())
            client = try ClientProcess(
                DemoIdleTests.demo, ["--scene", scene] + extraArguments, environment: weston.clientEnvironment)
        }

        /// The process's context switches and Weston's commit count now.
        var counters: (wakeUps: Int, commits: Int) {
            (client.contextSwitches(), weston.logLines(containing: ".commit()").count)
        }

        func stop() {
            withExtendedLifetime(client) {}  // its deinit ends the demo
            weston.stop()
        }
    }

    /// Whether process `pid` is running (exists and is not a zombie), from `/proc/PID/stat`.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z"
    }

    /// Waits (up to 60 s) until, for every run, neither the process's context switches nor
    /// Weston's commit count change over one 1.5 s step (longer than a once-a-second timer, so
    /// one is not mistaken for rest). Returns the scenes that never settled.
    static func waitUntilSettled(_ runs: [Run]) -> [String] {
        var last = runs.map(\.counters)
        var settled = Set<String>()
        for _ in 0..<40 where settled.count < runs.count {
            usleep(1_500_000)
            for (index, run) in runs.enumerated() {
                let now = run.counters
                if now == last[index] { settled.insert(run.scene) } else { settled.remove(run.scene) }
                last[index] = now
            }
        }
        return runs.map(\.scene).filter { !settled.contains($0) }
    }

    @Test("Every scene, once settled, makes 0 commits and 0 wake-ups over 10 s")
    func settledScenesAreIdle() throws {
        var runs: [Run] = []
        defer { runs.forEach { $0.stop() } }
        for scene in Self.scenes { runs.append(try Run(scene: scene)) }
        let unsettled = Self.waitUntilSettled(runs)
        #expect(unsettled.isEmpty, "never settled: \(unsettled.joined(separator: ", "))")
        let before = runs.map(\.counters)
        sleep(Self.restSeconds)
        for (index, run) in runs.enumerated() {
            let after = run.counters
            let wakeUps = after.wakeUps - before[index].wakeUps
            let commits = after.commits - before[index].commits
            #expect(wakeUps == 0, "\(run.scene): \(wakeUps) wake-ups in \(Self.restSeconds) s")
            #expect(commits == 0, "\(run.scene): \(commits) commits in \(Self.restSeconds) s")
        }
    }

    @Test("A script's wait leaves the demo asleep: no thread is left waking once a second")
    func scriptWaitIsIdle() throws {
        // `Task.sleep` started libdispatch's worker pool, one of whose threads then woke every
        // second for as long as the script waited (11 wake-ups in 10 s).
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-wait.damask")
        try "wait 40s\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let run = try Run(scene: "paths", extraArguments: ["--play", script.path])
        defer { run.stop() }
        // Settled means still for 1.5 s while the script waits; a demo that kept waking
        // "settles" only once its script ended and it exited.
        let unsettled = Self.waitUntilSettled([run])
        #expect(unsettled.isEmpty && Self.isAlive(run.client.pid), "the demo never settled while its script waited")
        let before = run.counters
        sleep(Self.restSeconds)
        let after = run.counters
        #expect(Self.isAlive(run.client.pid), "the demo ended before the interval did")
        #expect(after.wakeUps - before.wakeUps == 0, "\(after.wakeUps - before.wakeUps) wake-ups in \(Self.restSeconds) s")
        #expect(after.commits - before.commits == 0, "\(after.commits - before.commits) commits in \(Self.restSeconds) s")
    }

    /// The main thread's context switches of process `pid` (`/proc/PID/task/PID/status`).
    static func mainThreadWakeUps(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n")
            .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
            .compactMap { $0.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            .reduce(0, +)
    }

    @Test("A script's wait idle with the caret blinking sleeps between the blinks, and no thread of the demo wakes once the script ends (--stay)")
    func waitIdleWithBlinkingCaretSleeps() throws {
        // `wait idle` polled every millisecond while the caret's blink kept an idle frame
        // pending (up to 500 ms at a time): about 15 % of a core and thousands of main-thread
        // wake-ups over the 10 blinks (5 s) it waits for. Event-driven, each blink costs a few.
        // After the script, libdispatch's manager thread woke once a second for good: the
        // player's resumptions went through a worker thread of Swift's global executor, whose
        // first start arms libdispatch's workqueue monitor (a 1 s timer never cancelled). The
        // player's task now prefers a main-queue task executor (MainQueueTaskExecutor).
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-blink.damask")
        try "wait idle\nclick 300 180\ntype \"ab\"\nwait idle\nexpect text \"ab\"\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let run = try Run(scene: "text", extraArguments: ["--play", script.path, "--stay"])
        defer { run.stop() }
        let pid = run.client.pid
        // Settled: the main thread still for 1.5 s (up to 60 s).
        var last = Self.mainThreadWakeUps(pid), settled = false
        for _ in 0..<40 where !settled {
            usleep(1_500_000)
            let now = Self.mainThreadWakeUps(pid)
            settled = now == last
            last = now
        }
        #expect(settled && Self.isAlive(pid), "the demo's main thread never settled after its script")
        // Start-up, the typing, ten blinks and the wait: tens to hundreds, not thousands.
        #expect(last < 1_500, "\(last) main-thread wake-ups until the demo settled")
        let (processWakeUps, commits) = run.counters
        sleep(5)
        #expect(Self.isAlive(pid), "the demo ended (--stay keeps it open)")
        let wakeUps = Self.mainThreadWakeUps(pid) - last
        #expect(wakeUps == 0, "\(wakeUps) main-thread wake-ups in 5 s after the script")
        let allWakeUps = run.counters.wakeUps - processWakeUps
        #expect(allWakeUps == 0, "\(allWakeUps) wake-ups of the demo's threads in 5 s after the script")
        #expect(run.counters.commits == commits, "commits in 5 s after the script")
    }
}

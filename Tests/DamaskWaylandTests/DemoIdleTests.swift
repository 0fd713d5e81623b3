import DamaskTestSupport
import Foundation
import Testing

/// The demo at rest: every scene, once it has settled, makes no commit and never wakes up.
///
/// The issue's target is 10 s per scene. Measured one after another, eight scenes would cost
/// about two minutes of the suite; instead every scene runs at once, each in its own demo
/// process under its own Weston, and one 10 s window is measured after all of them have
/// settled. Each process is still watched for the whole 10 s, and a sleeping process's
/// counters do not move whatever the others do, so this is 10 s per scene.
@Suite("damask-demo at rest under Weston", .serialized, .exclusive, .integration)
struct DemoIdleTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")
    /// Every scene of the demo (`damask-demo --help`).
    static let scenes = ["progress", "chromosome", "paths", "layers", "canvas", "content-mode", "text", "motion"]
    /// The window over which a settled scene must stay still (the issue's target).
    static let restSeconds: UInt32 = 10

    /// One scene's demo and compositor.
    final class Run {
        let scene: String
        let weston: PrivateCompositor
        let client: ClientProcess

        init(scene: String) throws {
            self.scene = scene
            weston = try PrivateCompositor(.weston())
            client = try ClientProcess(DemoIdleTests.demo, ["--scene", scene], environment: weston.clientEnvironment)
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
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo at rest: every scene, once it has settled, makes no commit and never wakes up.
@Suite("damask-demo at rest under Weston", .serialized, .exclusive, .integration)
struct DemoIdleTests {
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")
    /// Every scene of the demo (`damask-demo --help`).
    static let scenes = ["progress", "chromosome", "paths", "layers", "canvas", "content-mode", "text", "motion"]

    /// Waits (up to 30 s) until neither the process's context switches nor Weston's commit
    /// count change over 1.5 s: longer than a once-a-second timer, so one is not mistaken
    /// for rest. Returns whether it settled.
    static func waitUntilSettled(_ client: ClientProcess, _ weston: PrivateCompositor) -> Bool {
        var last = (client.contextSwitches(), weston.logLines(containing: ".commit()").count)
        for _ in 0..<20 {
            usleep(1_500_000)
            let now = (client.contextSwitches(), weston.logLines(containing: ".commit()").count)
            if now == last { return true }
            last = now
        }
        return false
    }

    @Test("Every scene, once settled, makes 0 commits and 0 wake-ups over 3 s", arguments: scenes)
    func settledSceneIsIdle(scene: String) throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try ClientProcess(Self.demo, ["--scene", scene], environment: weston.clientEnvironment)
        #expect(Self.waitUntilSettled(client, weston), "\(scene) never settled")
        let commitsBefore = weston.logLines(containing: ".commit()").count
        let before = client.contextSwitches()
        sleep(3)
        let wakeUps = client.contextSwitches() - before
        let commits = weston.logLines(containing: ".commit()").count - commitsBefore
        #expect(wakeUps == 0, "\(scene): \(wakeUps) wake-ups in 3 s")
        #expect(commits == 0, "\(scene): \(commits) commits in 3 s")
        withExtendedLifetime(client) {}  // its deinit ends the demo
    }
}

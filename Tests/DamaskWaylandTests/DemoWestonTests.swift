import DamaskTestSupport
import Foundation
import Testing

/// The demo on a private headless Weston: the tour through the real protocol, and the
/// damage the compositor receives.
@Suite("damask-demo under Weston", .exclusive, .integration)
struct DemoWestonTests {
    @Test("the tour plays under headless Weston with every expectation holding")
    func tourPlaysUnderWeston() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let directory = try DemoRun.makeDirectory()
        let shots = (directory as NSString).appendingPathComponent("shots")
        let run = try DemoRun.run(
            ["--play", DemoRun.tourPath, "--speed", "fast", "--screenshots", shots],
            environment: weston.clientEnvironment, directory: directory)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shots).count == DemoRun.sceneCount)
    }

    @Test("a progress step reaches Weston as damage_buffer of the changed span and the labels only")
    func progressStepSendsSpanDamage() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let run = try DemoRun.run(
            ["--speed", "fast"], script: "scene progress\nwait idle\nkey Right\nwait idle\n",
            environment: weston.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let lines = weston.logLines(containing: "damage_buffer(")
        let spanIndex = try #require(lines.lastIndex { $0.contains("damage_buffer(344, 152, 28, 36)") })
        let after = lines[spanIndex...].filter { !$0.contains("damage_buffer(257, 200, 416, 16)") && !$0.contains("damage_buffer(204, 220, 325, 16)") }
        #expect(after.count == 1, "\(after)")
    }
}

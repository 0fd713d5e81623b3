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

    @Test("a progress step reaches Weston as damage_buffer of the changed span and the labels' changed glyphs only")
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
        // The span, then the labels' changed glyphs, and nothing else.
        let sent = lines[spanIndex...].compactMap { line -> [Int]? in
            guard let open = line.range(of: "damage_buffer("), let close = line.range(of: ")", range: open.upperBound..<line.endIndex)
            else { return nil }
            return line[open.upperBound..<close.lowerBound].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(sent == DemoHeadlessTests.progressStepDamage, "\(sent)")
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// The demo on a private headless Weston: the tour through the real protocol, and the
/// damage the compositor receives.
@Suite("damask-demo under Weston", .exclusive, .integration, .timeLimit(.minutes(10)))
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

    @Test("an animation started from idle plays frame by frame (Weston's frame clock is CLOCK_MONOTONIC_RAW, not the demo's)")
    func animationFromIdlePlaysEveryFrame() throws {
        // The first frame of an animation started while the window is idle is an idle frame,
        // stamped on the demo's own clock; the next ones are Weston's frame callbacks. When
        // the two clocks differed by more than a frame (CLOCK_MONOTONIC_RAW drifts from
        // CLOCK_MONOTONIC by the clock's frequency correction: 242 ms after 23 hours here),
        // the step between them ended the 1 s animation after 3 frames.
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let run = try DemoRun.run(
            [], script: "scene motion\nwait idle\nkey space\nwait 1200ms\n", environment: weston.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        // The animation's frames only recomposite: no draw.
        let animationFrames = run.damageLogText.split(separator: "\n").filter { $0.contains("\"draws\": 0") }.count
        #expect(animationFrames >= 20, "\(animationFrames) frames in a 1 s animation")
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

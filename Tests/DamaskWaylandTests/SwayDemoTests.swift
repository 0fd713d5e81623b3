import DamaskTestSupport
import Foundation
import Testing

/// The demo under sway 1.7 (wlroots 0.15), the third compositor family: the window maps,
/// draws, and sends the same damage as under Weston.
@Suite("damask-demo under sway", .exclusive, .integration, .timeLimit(.minutes(10)))
struct SwayDemoTests {
    @Test("a progress step under sway sends exactly the damage rects it sends under Weston")
    func progressStepDamageAsUnderWeston() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let run = try DemoRun.run(
            ["--speed", "fast"], script: "scene progress\nwait idle\nkey Right\nwait idle\n",
            environment: sway.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)\n\(sway.logTail)")
        let last = try #require(run.commits.last)
        #expect(last.draws == 3)
        // sway offers server-side decorations (the demo asks for them and draws no title bar),
        // and the content's damage is Weston's, rect for rect.
        #expect(last.damage == DemoHeadlessTests.progressStepDamage, "\(last.damage)")
    }

    @Test("the demo's window maps under sway as a floating toplevel and its pixels reach the screen")
    func windowMapsAndDraws() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        let demo = try WaylandDebugDemo(["--speed", "fast"], environment: sway.clientEnvironment)
        defer { demo.stop() }
        // The first commit is the whole window.
        let deadline = Date().addingTimeInterval(30)
        while demo.commits.isEmpty && Date() < deadline && demo.process.isRunning { usleep(20_000) }
        let first = try #require(demo.commits.first, "\(demo.process.transcript.suffix(2000))")
        let window = try #require(first.first)
        #expect(first.count == 1 && window[0] == 0 && window[1] == 0 && window[2] >= 400 && window[3] >= 300, "\(first)")
        // sway knows the window, by the demo's app id, and floats it at the size it asked for.
        let tree = try sway.message(["-t", "get_tree"])
        #expect(tree.contains("\"app_id\": \"org.damask.Demo\""), "\(tree.prefix(3000))")
        #expect(tree.contains("\"type\": \"floating_con\""))
        #expect(demo.requests(containing: "zxdg_toplevel_decoration_v1@").contains { $0.contains("set_mode(2)") })
        // A screenshot (wlr-screencopy) shows the window: sway's background is black, the
        // demo paints its content; the 800 × 600 window floats centred on the 1024 × 768 output.
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shot = (directory as NSString).appendingPathComponent("sway.png")
        try sway.screenshot(to: shot)
        let pixel = try TestProcess.run(
            "/usr/bin/convert", [shot, "-format", "%[pixel:p{512,384}]", "info:"], timeout: 30)
        #expect(pixel.status == 0, "\(pixel.output)")
        #expect(!pixel.output.contains("black") && !pixel.output.contains("rgb(0,0,0)"), "\(pixel.output)")
    }
}

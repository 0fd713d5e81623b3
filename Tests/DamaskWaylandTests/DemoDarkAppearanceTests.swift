import DamaskTestSupport
import Foundation
import Testing

/// The demo's scenes in the dark appearance, headless: the panels that hold the demonstrated
/// views (paths, layers, content mode, the canvas's pad) are the dark palette's panel colour, from the start
/// with `--appearance dark` and after a live switch by the script's `appearance` command.
@Suite("damask-demo scenes in the dark appearance", .exclusive, .timeLimit(.minutes(5)))
struct DemoDarkAppearanceTests {
    static let fast = ["--headless", "--speed", "fast"]
    /// `Palette.dark.panel` and `Palette.dark.windowBackground` as 8-bit pixels.
    static let darkPanel = "#2b2e36"
    static let darkBackground = "#1c1f24"

    /// Checks of every panel, at points inside a panel but off the drawing in it.
    static func panelChecks(_ colour: String) -> String {
        """
        scene paths
        wait idle
        expect pixel 280 240 \(colour) ±2
        expect pixel 560 240 \(colour) ±2
        scene layers
        wait idle
        expect pixel 210 170 \(colour) ±2
        expect pixel 600 340 \(colour) ±2
        scene content-mode
        wait idle
        expect pixel 208 200 \(colour) ±2
        expect pixel 504 200 \(colour) ±2
        scene canvas
        wait idle
        expect pixel 300 300 \(colour) ±2

        """
    }

    @Test("with --appearance dark every scene's background and the paths, layers, content-mode and canvas panels are dark")
    func darkFromTheStart() throws {
        var script = Self.panelChecks(Self.darkPanel)
        for scene in ["progress", "chromosome", "paths", "layers", "canvas", "content-mode", "text", "motion", "controls"] {
            script += "scene \(scene)\nwait idle\nexpect pixel 790 590 \(Self.darkBackground) ±2\n"
        }
        let run = try DemoRun.run(Self.fast + ["--appearance", "dark"], script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("a live switch to dark and back repaints the panels and the triangle's outline in the new appearance")
    func liveSwitch() throws {
        let script = """
            scene paths
            wait idle
            expect pixel 280 240 #ffffff ±2
            expect pixel 309 290 #555555 ±40
            appearance dark
            wait idle
            expect pixel 309 290 #bfbfbf ±40

            """ + Self.panelChecks(Self.darkPanel) + """
            appearance light
            wait idle

            """ + Self.panelChecks("#ffffff")
        let run = try DemoRun.run(Self.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("the appearance command takes light or dark only")
    func badAppearanceCommand() throws {
        let run = try DemoRun.run(Self.fast, script: "appearance sepia\n")
        defer { run.removeDirectory() }
        #expect(run.status == 2, "\(run.output)")
        #expect(run.output.contains("expected 'light' or 'dark', found 'sepia'"), "\(run.output)")
    }
}

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

    /// Points inside each scene's panels but off the drawing in them.
    static let panelPoints: [(scene: String, points: [(x: Int, y: Int)])] = [
        ("paths", [(280, 240), (560, 240)]),
        ("layers", [(210, 170), (600, 340)]),
        ("content-mode", [(208, 200), (504, 200)]),
        ("canvas", [(300, 300)]),
    ]

    /// Script lines that show `scene`, wait until it is drawn and expect `colour` (±2 per
    /// channel) at each of `points`.
    static func checks(_ scene: String, at points: [(x: Int, y: Int)], _ colour: String) -> String {
        "scene \(scene)\nwait idle\n" + points.map { "expect pixel \($0.x) \($0.y) \(colour) ±2\n" }.joined()
    }

    /// Checks of every panel.
    static func panelChecks(_ colour: String) -> String {
        panelPoints.map { checks($0.scene, at: $0.points, colour) }.joined()
    }

    /// Plays `script` headless and fast with `arguments`; expects every check to pass.
    static func expectPasses(_ script: String, arguments: [String] = []) throws {
        let run = try DemoRun.run(fast + arguments, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("with --appearance dark every scene's background and the paths, layers, content-mode and canvas panels are dark")
    func darkFromTheStart() throws {
        let scenes = ["progress", "chromosome", "paths", "layers", "canvas", "content-mode", "text", "motion", "controls"]
        try Self.expectPasses(
            Self.panelChecks(Self.darkPanel) + scenes.map { Self.checks($0, at: [(790, 590)], Self.darkBackground) }.joined(),
            arguments: ["--appearance", "dark"])
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

            """ + Self.panelChecks(Self.darkPanel) + "appearance light\nwait idle\n" + Self.panelChecks("#ffffff")
        try Self.expectPasses(script)
    }

    @Test("the appearance command takes light or dark only")
    func badAppearanceCommand() throws {
        let run = try DemoRun.run(Self.fast, script: "appearance sepia\n")
        defer { run.removeDirectory() }
        #expect(run.status == 2, "\(run.output)")
        #expect(run.output.contains("expected 'light' or 'dark', found 'sepia'"), "\(run.output)")
    }
}

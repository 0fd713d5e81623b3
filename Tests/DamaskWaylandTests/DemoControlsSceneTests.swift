import DamaskTestSupport
import Foundation
import Testing

/// The demo's controls scene driven by input scripts, headless, in both appearances: clicks
/// on the light panel's button, slider and switch change what they should and damage only
/// their part of the panel.
@Suite("damask-demo controls scene, scripted", .exclusive)
struct DemoControlsSceneTests {
    static let fast = ["--headless", "--speed", "fast"]

    /// The script: `background` is the scene's background colour in the appearance played.
    static func script(background: String) -> String {
        """
        scene controls
        wait idle
        expect pixel 300 560 \(background) ±2
        expect pixel 780 560 \(background) ±2
        expect pixel 500 400 #1c1f24 ±2
        expect damage within 0 0 800 600
        click 260 173
        wait idle
        expect damage within 204 112 282 80
        move 600 560
        wait idle
        expect pixel 222 173 #4278d9 ±2
        expect damage within 204 112 282 80
        click 470 324
        wait idle
        expect damage within 204 300 282 70
        expect pixel 470 358 #34c759 ±2
        click 444 173
        wait frames 12
        expect damage within 204 112 282 300
        click 444 173
        wait idle
        expect damage within 204 112 282 300
        wait frames 5
        expect no-damage

        """
    }

    @Test("light: the button counts clicks, the slider fills the bar, the switch turns the indicator; damage stays in the light panel", arguments: [("light", "#edf0f5"), ("dark", "#1c1f24")])
    func scripted(appearance: String, background: String) throws {
        let run = try DemoRun.run(Self.fast + ["--appearance", appearance], script: Self.script(background: background))
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("--appearance takes light or dark only, and says so")
    func badAppearance() throws {
        let result = try DemoRun.runPlain(["--appearance", "sepia"])
        #expect(result.status == 2)
        #expect(result.output.contains("--appearance expects light or dark, got 'sepia'"), "\(result.output)")
    }
}

import Foundation
import Testing

@testable import DamaskDemo

/// The progress scene's percentage label rounds half away from zero, also for the values
/// the scene reaches by adding thirds of a step (which land a hair below the half).
@MainActor
@Suite("Demo progress label: percentages round half up", .timeLimit(.minutes(5)))
struct DemoProgressLabelTests {
    @Test("Exact halves round away from zero: 0.5 % → 1 %, 37.5 % → 38 %, 42.5 % → 43 %, 99.5 % → 100 %; out of range clamps, no trap")
    func halvesRoundUp() {
        let cases: [(CGFloat, String)] = [
            (0, "0%"), (0.004, "0%"), (0.005, "1%"), (0.125, "13%"), (0.375, "38%"), (0.425, "43%"),
            (0.4249, "42%"), (0.42499999, "42%"), (0.5, "50%"), (0.995, "100%"), (0.9949, "99%"), (1, "100%"), (.nan, "–%"), (.infinity, "–%"), (-0.2, "0%"), (1e300, "100%"),
        ]
        for (progress, text) in cases {
            #expect(ProgressScene.percentText(progress) == text, "\(progress)")
        }
    }

    @Test("Values the scene reaches by steps of thirds, a hair below a half (37.4999…), show the half rounded up")
    func steppedValuesRoundLikeTheirDecimals() {
        let scene = ProgressScene(environment: DemoEnvironment())
        // From 25 %: "+ 5%" four times (each three sets of a third), then wheel notches down
        // (2.5 % each, also in thirds), as a user can click and scroll.
        for _ in 0..<4 { scene.advance(by: ProgressScene.step) }
        #expect(ProgressScene.percentText(scene.progressView.progress) == "45%")
        var shown: [String] = []
        for _ in 0..<3 {
            scene.advance(by: -ProgressScene.step / 2)
            shown.append(ProgressScene.percentText(scene.progressView.progress))
        }
        #expect(shown == ["43%", "40%", "38%"])
        // The sums really are below the halves: rounding them directly would show 37 %.
        #expect(scene.progressView.progress < 0.375, "\(scene.progressView.progress)")
        #expect((scene.progressView.progress * 100).rounded(.toNearestOrAwayFromZero) == 37)
    }
}

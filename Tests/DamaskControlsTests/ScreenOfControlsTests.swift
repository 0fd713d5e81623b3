import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("A screen of controls", .timeLimit(.minutes(5))) @MainActor struct ScreenOfControlsTests {
        /// The cost target (200 controls made, laid out and drawn in ≤ 16 ms, ≤ 3× a
        /// plain tree) is measured by `damask-bench controls` in a release build, never by a
        /// timed test: here a parallel run shares the main thread, so its CPU clock would
        /// count other tests' work. This test pins what the bench's figure rests on: one
        /// first frame lays every control out inside the window and draws each one once.
        @Test("200 controls in stacks are laid out inside the window and drawn once each by the first frame")
        func twoHundredControlsFirstFrame() async {
            let harness = ControlHarness(width: 1280, height: 800)
            await harness.settle()
            let column = ControlSampleGrid.make(rows: 25, columns: 8, frame: CGRect(x: 0, y: 0, width: 1280, height: 800))
            let controls = ControlSampleGrid.controls(in: column)
            let drawsBefore = harness.window.drawCount
            harness.root.addSubview(column)
            await harness.step()

            #expect(controls.count == 200)
            let screen = CGRect(x: 0, y: 0, width: 1280, height: 800)
            let outside = controls.filter { control in
                let frame = control.convert(control.bounds, to: nil)
                return frame.isEmpty || !screen.contains(frame)
            }
            #expect(outside.isEmpty, "\(outside.count) controls not laid out inside the window")
            let draws = harness.window.drawCount - drawsBefore
            #expect(draws >= 200 && draws <= 200 + 2 * 25 + 1, "\(draws) draws for 200 controls in 25 stacks")
            let commits = harness.commitCount
            await harness.step()
            #expect(harness.commitCount == commits, "a laid-out screen keeps committing")
        }
    }
}

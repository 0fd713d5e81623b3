import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Slider, Switch, ProgressView, ActivityIndicatorView") @MainActor struct ValueControlTests {
        @Test("a slider jumps to a press, follows a drag, sends valueChanged each move, and clamps")
        func sliderTracks() {
            let harness = ControlHarness(width: 120, height: 40)
            let slider = Slider(frame: CGRect(x: 10, y: 10, width: 100, height: 22))
            harness.root.addSubview(slider)
            var values: [Float] = []
            slider.addAction(for: .valueChanged) { control in values.append((control as! Slider).value) }
            harness.press(at: CGPoint(x: 10 + 9 + 41, y: 20))  // half of the usable 82 points
            #expect(abs(slider.value - 0.5) < 0.001)
            harness.move(to: CGPoint(x: 200, y: 20))
            #expect(slider.value == 1)
            harness.release(at: CGPoint(x: 200, y: 20))
            #expect(values.count == 2 && values.last == 1)
            var primary = 0
            slider.addAction(for: .primaryActionTriggered) { _ in primary += 1 }
            harness.click(at: CGPoint(x: 19, y: 20))
            #expect(slider.value == 0 && primary == 0)
        }

        @Test("a non-continuous slider sends valueChanged once, on release")
        func sliderNotContinuous() {
            let harness = ControlHarness(width: 120, height: 40)
            let slider = Slider(frame: CGRect(x: 10, y: 10, width: 100, height: 22))
            slider.isContinuous = false
            harness.root.addSubview(slider)
            var sent = 0
            slider.addAction(for: .valueChanged) { _ in sent += 1 }
            harness.press(at: CGPoint(x: 30, y: 20))
            harness.move(to: CGPoint(x: 60, y: 20))
            harness.move(to: CGPoint(x: 80, y: 20))
            #expect(sent == 0)
            harness.release(at: CGPoint(x: 80, y: 20))
            #expect(sent == 1)
        }

        @Test("arrow keys, Home and End step a focused slider by a tenth; setting value sends nothing")
        func sliderKeys() {
            let harness = ControlHarness(width: 120, height: 40)
            let slider = Slider(frame: CGRect(x: 10, y: 10, width: 100, height: 22), value: 5, minimumValue: 0, maximumValue: 10)
            harness.root.addSubview(slider)
            var sent = 0
            slider.addAction(for: .valueChanged) { _ in sent += 1 }
            #expect(harness.window.focus(slider))
            harness.key(0xff53)
            #expect(slider.value == 6)
            harness.key(0xff50)
            #expect(slider.value == 0)
            harness.key(0xff51)  // already at the minimum: no change, no event
            #expect(sent == 2)
            slider.value = 7
            #expect(sent == 2 && slider.accessibilityNumericValue == 7)
        }

        @Test("a switch flips on click and on Space, sending valueChanged; isOn from code sends nothing")
        func switchFlips() {
            let harness = ControlHarness()
            let toggle = Switch(frame: CGRect(x: 10, y: 10, width: 44, height: 24))
            harness.root.addSubview(toggle)
            var changes: [Bool] = []
            toggle.addAction(for: .valueChanged) { control in changes.append((control as! Switch).isOn) }
            harness.click(at: CGPoint(x: 20, y: 20))
            #expect(toggle.isOn)
            #expect(harness.window.focus(toggle))
            harness.key(0x20)
            #expect(!toggle.isOn)
            toggle.isOn = true
            #expect(changes == [true, false])
            #expect(toggle.accessibilityValue == "on")
        }

        @Test("a flip of the switch and a step of the slider each damage exactly their own frame")
        func switchAndSliderDamage() async {
            let harness = ControlHarness(width: 200, height: 40)
            let toggle = Switch(frame: CGRect(x: 10, y: 8, width: 44, height: 24))
            let slider = Slider(frame: CGRect(x: 70, y: 9, width: 120, height: 22))
            harness.root.addSubview(toggle)
            harness.root.addSubview(slider)
            await harness.settle()
            toggle.isOn = true
            await harness.step()
            #expect(harness.lastDamage == Region(CGRect(x: 10, y: 8, width: 44, height: 24)))
            await harness.step()
            slider.value = 0.7
            await harness.step()
            #expect(harness.lastDamage == Region(CGRect(x: 70, y: 9, width: 120, height: 22)))
        }

        @Test("progress damages only the span between the old and the new end of the fill")
        func progressDamage() async {
            let harness = ControlHarness(width: 200, height: 20)
            let bar = ProgressView(frame: CGRect(x: 0, y: 0, width: 200, height: 10), progress: 0.25)
            harness.root.addSubview(bar)
            await harness.settle()
            bar.progress = 0.3
            bar.progress = 0.5
            await harness.step()
            #expect(harness.lastDamage.boundingBox == CGRect(x: 50, y: 0, width: 50, height: 10))
            #expect(bar.drawCount == 2)
        }

        @Test("a turning activity indicator damages only itself, and stops waking when stopped")
        func indicatorDamage() async {
            let harness = ControlHarness(width: 100, height: 60)
            let spinner = ActivityIndicatorView(frame: CGRect(x: 40, y: 20, width: 20, height: 20))
            harness.root.addSubview(spinner)
            await harness.settle()
            spinner.startAnimating()
            let commits = harness.commitCount
            // 16 ms frames for 200 ms: the 80 ms timer fires twice.
            for _ in 0..<13 { harness.surface.fireFrame() }
            #expect(spinner.phase == 2)
            #expect(harness.commitCount == commits + 2)
            #expect(harness.lastDamage.boundingBox == CGRect(x: 40, y: 20, width: 20, height: 20))
            spinner.stopAnimating()
            #expect(spinner.isHidden)
            for _ in 0..<3 { await harness.step() }
            #expect(!harness.surface.hasPendingFrameRequest, "a stopped indicator wants no frames")
        }

        @Test("slider, switch, progress and indicator match the references, light and dark")
        func referenceImages() async throws {
            for appearance in Appearance.allCases {
                try await with(appearance) {
                    let harness = ControlHarness(width: 260, height: 40)
                    harness.root.backgroundColor = appearance.palette.windowBackground
                    let slider = Slider(frame: CGRect(x: 4, y: 9, width: 90, height: 22), value: 0.3)
                    let on = Switch(frame: CGRect(x: 100, y: 8, width: 44, height: 24), isOn: true)
                    let off = Switch(frame: CGRect(x: 150, y: 8, width: 44, height: 24))
                    let bar = ProgressView(frame: CGRect(x: 200, y: 17, width: 30, height: 6), progress: 0.6)
                    let spinner = ActivityIndicatorView(frame: CGRect(x: 234, y: 10, width: 20, height: 20))
                    spinner.lineWidth = 2
                    for view in [slider, on, off, bar, spinner] as [View] { harness.root.addSubview(view) }
                    await harness.settle()
                    try ReferenceImage.check(try harness.screen(), named: "values-\(appearance)")
                }
            }
        }

        @Test("a live appearance change redraws every control once and follows the palette")
        func liveSwitchRedraws() async throws {
            let harness = ControlHarness(width: 100, height: 40)
            let bar = ProgressView(frame: CGRect(x: 0, y: 0, width: 100, height: 10), progress: 0.5)
            harness.root.addSubview(bar)
            await harness.settle()
            #expect(try harness.screen().color(x: 75, y: 5).isClose(to: Palette.light.track))
            Appearance.current = .dark
            defer { Appearance.current = .light }
            await harness.step()
            #expect(bar.drawCount == 2)
            let shown = try harness.screen().color(x: 75, y: 5)
            #expect(shown.isClose(to: Palette.dark.track), "\(shown)")
        }
    }
}

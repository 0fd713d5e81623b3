import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Appearance") @MainActor struct AppearanceTests {
        @Test("observe(_:) runs its handler on each change while the token lives, never after")
        func observationLifetime() {
            var seen: [Appearance] = []
            var token: AppearanceObservation? = Appearance.observe { seen.append($0) }
            Appearance.current = .dark
            Appearance.current = .dark  // no change: no call
            Appearance.current = .light
            #expect(token != nil)
            token = nil
            Appearance.current = .dark
            Appearance.current = .light
            #expect(seen == [.dark, .light])
        }

        @Test("an override keeps a subtree in its appearance: no redraw there when the current one changes")
        func overrideHolds() async throws {
            let harness = ControlHarness(width: 100, height: 40)
            let panel = AppearanceView(frame: CGRect(x: 0, y: 0, width: 100, height: 20), appearance: .dark)
            let fixed = ProgressView(frame: CGRect(x: 0, y: 0, width: 100, height: 20), progress: 0)
            panel.addSubview(fixed)
            let following = ProgressView(frame: CGRect(x: 0, y: 20, width: 100, height: 20), progress: 0)
            harness.root.addSubview(panel)
            harness.root.addSubview(following)
            await harness.settle()
            #expect(try harness.screen().color(x: 50, y: 10).isClose(to: Palette.dark.track))
            #expect(try harness.screen().color(x: 50, y: 30).isClose(to: Palette.light.track))
            Appearance.current = .dark
            defer { Appearance.current = .light }
            await harness.step()
            #expect(fixed.drawCount == 1 && following.drawCount == 2)
            #expect(try harness.screen().color(x: 50, y: 30).isClose(to: Palette.dark.track))
            panel.overrideAppearance = .light
            await harness.step()
            #expect(fixed.drawCount == 2)
            #expect(try harness.screen().color(x: 50, y: 10).isClose(to: Palette.light.track))
        }

        @Test("controls that went away do not pile up in the registry")
        func registryStaysBounded() {
            for _ in 0..<5_000 { _ = Label(text: "gone") }
            #expect(AppearanceRegistry.shared.entryCount < 400, "\(AppearanceRegistry.shared.entryCount)")
        }
    }
}

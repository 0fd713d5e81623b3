import DamaskGraphics
import DamaskViews
import Testing

@testable import DamaskControls

extension ControlsTests {
    @Suite("Appearance", .timeLimit(.minutes(5))) @MainActor struct AppearanceTests {
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

        @Test("the nearest override is found through controls, plain views and an app's own conformer, the second time as the first")
        func nearestOverride() {
            let panel = ThemedPanel(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            panel.overrideAppearance = .dark
            let box = PlainBox(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            panel.addSubview(box)
            let slider = Slider(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
            box.addSubview(slider)
            for _ in 0..<2 {  // the second walk meets PlainBox as a class known not to override
                #expect(slider.effectiveAppearance == .dark)
                #expect(box.effectiveAppearance == .dark)
                #expect(slider.hasOverrideAbove && box.hasOverrideAbove)
            }
            slider.overrideAppearance = .light
            #expect(slider.effectiveAppearance == .light && box.effectiveAppearance == .dark)
            slider.overrideAppearance = nil
            panel.overrideAppearance = nil
            #expect(slider.effectiveAppearance == Appearance.current && !slider.hasOverrideAbove)
            // A subclass of a class known not to override may override: its own class is asked.
            let themedBox = ThemedBox(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            themedBox.overrideAppearance = .dark
            let inner = PlainBox(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            themedBox.addSubview(inner)
            #expect(inner.effectiveAppearance == .dark && themedBox.effectiveAppearance == .dark)
        }

        @Test("controls that went away do not pile up in the registry")
        func registryStaysBounded() {
            for _ in 0..<5_000 { _ = Label(text: "gone") }
            #expect(AppearanceRegistry.shared.entryCount < 400, "\(AppearanceRegistry.shared.entryCount)")
        }
    }
}

/// An app's own view that overrides the appearance of its subtree.
@MainActor private final class ThemedPanel: View, AppearanceOverriding {
    var overrideAppearance: Appearance?
}

/// A plain view of an app's own, which overrides nothing.
@MainActor private class PlainBox: View {}

/// A subclass of a plain view that does override.
@MainActor private final class ThemedBox: PlainBox, AppearanceOverriding {
    var overrideAppearance: Appearance?
}

import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation
import Testing

extension ControlsTests {
    /// The scrolling controls in both appearances: a list (cells, selection, separators, its
    /// indicator), a text view (background, text, selection) and a scroll view's indicators.
    @Suite("ScrollView, ListView and TextView follow the appearance", .timeLimit(.minutes(5))) @MainActor struct ScrollingAppearanceTests {
        /// The three controls, side by side, scrolled partway so that indicators show.
        @MainActor private final class Scene {
            let harness = ControlHarness(width: 420, height: 120)
            let list = ListView(frame: CGRect(x: 4, y: 4, width: 130, height: 112))
            let source = NumberedRows(count: 30)
            let textView = TextView(frame: CGRect(x: 142, y: 4, width: 150, height: 112))
            let scrollView = ScrollView(frame: CGRect(x: 300, y: 4, width: 116, height: 112))

            init() {
                harness.root.backgroundColor = Appearance.current.palette.windowBackground
                list.rowHeight = 24
                list.dataSource = source
                list.listDelegate = source
                list.selectRow(2)
                list.contentOffset = CGPoint(x: 0, y: 30)
                textView.text = "Dark and light: the text view wraps this first paragraph.\nSecond line"
                textView.select(5..<14)
                scrollView.contentSize = CGSize(width: 400, height: 400)
                let block = CountingView(frame: CGRect(x: 10, y: 10, width: 80, height: 60))
                block.color = Color(red: 0.9, green: 0.6, blue: 0.3)
                scrollView.addSubview(block)
                scrollView.contentOffset = CGPoint(x: 40, y: 60)
                for view in [list, textView, scrollView] as [View] { harness.root.addSubview(view) }
            }

            /// What the window shows once everything pending is drawn.
            func screen() async throws -> Bitmap {
                await harness.settle()
                await harness.step()
                return try harness.screen()
            }
        }

        @Test("list, text view and scroll indicators match the references, light and dark")
        func referenceImages() async throws {
            for appearance in Appearance.allCases {
                try await with(appearance) {
                    let scene = Scene()
                    try ReferenceImage.check(try await scene.screen(), named: "scrolling-\(appearance)")
                }
            }
        }

        @Test("switched live from light to dark, they draw exactly as when made in dark; colours set by the app stay")
        func liveSwitch() async throws {
            defer { Appearance.current = .light }
            Appearance.current = .dark
            let made = try await Scene().screen().copy()
            Appearance.current = .light
            let scene = Scene()
            let light = try await scene.screen().copy()
            let custom = ListView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            custom.backgroundColor = .red
            custom.indicatorColor = .green
            Appearance.current = .dark
            scene.harness.root.backgroundColor = Palette.dark.windowBackground
            let switched = try await scene.screen()
            #expect(Bitmap.difference(switched, made, tolerance: 0).differingPixelCount == 0, "live switch = made in dark")
            #expect(Bitmap.difference(switched, light, tolerance: 0).differingPixelCount > 1000)
            #expect(switched.color(x: 142 + 75, y: 4 + 100).isClose(to: Palette.dark.panel), "the text view's background")
            #expect(custom.backgroundColor == .red && custom.verticalIndicator.color == .green)
            #expect(scene.list.verticalIndicator.color == Palette.dark.scrollIndicator)
            Appearance.current = .light
            #expect(scene.list.verticalIndicator.color == Palette.light.scrollIndicator, "and back")
        }

        @Test("inside a dark AppearanceView in a light window, the list and the text view are dark")
        func insideAnOverride() async throws {
            let harness = ControlHarness(width: 200, height: 100)
            let panel = AppearanceView(frame: CGRect(x: 0, y: 0, width: 200, height: 100), appearance: .dark)
            let textView = TextView(frame: CGRect(x: 10, y: 10, width: 180, height: 80))
            textView.text = "dark"
            panel.addSubview(textView)
            harness.root.addSubview(panel)
            await harness.settle()
            let screen = try harness.screen()
            #expect(screen.color(x: 100, y: 80).isClose(to: Palette.dark.panel))
            #expect(textView.verticalIndicator.color == Palette.dark.scrollIndicator)
        }
    }
}

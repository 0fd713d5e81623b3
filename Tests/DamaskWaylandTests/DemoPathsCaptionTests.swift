import DamaskViews
import Foundation
import Testing

@testable import DamaskDemo

/// The paths scene's caption counts the views' draws as they happen: zooming and rotating
/// add none, and showing the scene again (its views' backing stores were freed when it
/// left) adds one each, which the caption both shows and explains.
@MainActor
@Suite("Demo paths caption: its draw counts are the views'", .timeLimit(.minutes(5)))
struct DemoPathsCaptionTests {
    @Test("The caption shows 1 draw per view, still 1 after zooming and rotating, and 2 after leaving the scene and showing it again")
    func captionFollowsDraws() throws {
        let surface = MemorySurface(size: CGSize(width: 800, height: 600), releasePolicy: .immediate)
        let window = Window(surface: surface)
        let entries = DemoApplication.sceneEntries
        let pathsIndex = try #require(entries.firstIndex { $0.name == "paths" })
        let root = DemoRootView(
            frame: CGRect(x: 0, y: 0, width: 800, height: 600), scenes: entries, showing: pathsIndex,
            environment: DemoEnvironment(isDeterministic: true))
        window.contentView = root
        root.currentScene.sceneDidAppear()  // as DemoApplication does once the window is open
        let paths = try #require(root.currentScene as? PathsScene)
        func settle() { for _ in 0..<3 { window.flush() } }
        func counts() -> String? {
            paths.infoLabel.text.split(separator: "\n").first { $0.hasPrefix("draw(_:) calls") }.map(String.init)
        }
        settle()
        #expect(paths.triangleView.drawCount == 1 && paths.starView.drawCount == 1)
        #expect(counts()?.hasPrefix("draw(_:) calls: triangle 1, star 1 ") == true, "\(paths.infoLabel.text)")

        paths.zoom(by: 1.25)
        paths.rotate(by: 15)
        settle()
        #expect(paths.triangleView.drawCount == 1 && paths.starView.drawCount == 1)
        #expect(counts()?.hasPrefix("draw(_:) calls: triangle 1, star 1 ") == true, "\(paths.infoLabel.text)")

        root.showScene(at: 0)
        settle()
        root.showScene(at: pathsIndex)
        settle()
        #expect(paths.triangleView.drawCount == 2 && paths.starView.drawCount == 2)
        #expect(counts()?.hasPrefix("draw(_:) calls: triangle 2, star 2 ") == true, "\(paths.infoLabel.text)")
        #expect(paths.infoLabel.text.contains("Showing the scene again draws each once more"))
    }
}

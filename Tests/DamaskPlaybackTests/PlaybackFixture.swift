import DamaskGraphics
import DamaskViews
import Foundation

@testable import DamaskPlayback

/// A 100×80 window on a memory surface with a simulated frame clock, holding a toggle at
/// (10, 10, 40, 40) and a text view at (60, 10, 30, 30).
@MainActor
struct PlaybackFixture {
    let surface: MemorySurface
    let window: Window
    let toggle = ToggleView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
    let textView = TextCollectingView(frame: CGRect(x: 60, y: 10, width: 30, height: 30))

    init(
        frameClock: MemorySurface.FrameClock = .simulated(intervalMilliseconds: 16),
        releasePolicy: MemorySurface.ReleasePolicy = .immediate
    ) {
        surface = MemorySurface(
            size: CGSize(width: 100, height: 80), bufferCapacity: 2, releasePolicy: releasePolicy,
            frameClock: frameClock)
        window = Window(surface: surface)
        window.contentView.addSubview(toggle)
        window.contentView.addSubview(textView)
        _ = textView.becomeFirstResponder()
    }

    /// Parses `text` and plays it with `options`.
    func play(
        _ text: String, options: PlaybackOptions = PlaybackOptions(),
        registry: ScriptCommandRegistry = ScriptCommandRegistry()
    ) async throws -> PlaybackReport {
        let script = try ScriptParser(registry: registry, layout: options.layout).parse(
            text, file: "play.dsc")
        var options = options
        options.registry = registry
        return try await ScriptPlayer(window: window, options: options).play(script)
    }
}

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "damask-playback-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

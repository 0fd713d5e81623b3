import DamaskControls
import DamaskTestSupport
import Foundation
import Testing

/// The root of every suite in this module: serialized and exclusive, because the display
/// cycle runs on the main queue and the backing-store byte counter is process-wide.
@Suite(.serialized, .exclusive) @MainActor struct ControlsTests {}

/// A window on an in-memory surface whose frame callbacks the test answers.
@MainActor struct ControlsHarness {
    let surface: MemorySurface
    let window: Window

    init(width: CGFloat, height: CGFloat, scale: CGFloat = 1) {
        surface = MemorySurface(size: CGSize(width: width, height: height), scale: scale)
        window = Window(surface: surface)
        window.flashesDamage = false
    }

    /// The window's content view.
    var root: View { window.contentView }

    /// The damage of the last commit.
    var lastDamage: Region { surface.commits.last?.damage ?? Region() }

    /// Runs the pending pass now and answers its frame callback: whatever was changed
    /// before is on screen when this returns.
    func present() {
        window.flush()
        surface.fireFrame()
    }

    /// A wheel event over `point`: `steps120` high-resolution steps down (120 per detent).
    func wheel(_ steps120: Int, at point: CGPoint, time: UInt32 = 0) {
        window.dispatch(.scroll(ScrollEvent(
            location: point, deltaY: CGFloat(steps120) / 12, discreteY: steps120 / 120,
            steps120Y: steps120, source: .wheel, timestamp: time)))
    }

    /// A key press and release of `keysym`.
    func press(_ keysym: UInt32) {
        window.dispatch(.key(KeyEvent(phase: .down, keysym: keysym)))
        window.dispatch(.key(KeyEvent(phase: .up, keysym: keysym)))
    }

    /// The path of a reference image under `docs/controls/` (the screenshots of
    /// docs/controls.md are the references).
    static func referencePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/controls/\(name).png").path
    }

    /// Compares `image` with the reference `name`; with `DAMASK_RECORD_REFERENCES=1`
    /// writes it instead and fails on purpose.
    static func expectMatchesReference(_ image: Bitmap, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = referencePath(name)
        if ProcessInfo.processInfo.environment["DAMASK_RECORD_REFERENCES"] == "1" {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try image.writePNG(to: path)
            Issue.record("recorded \(path)", sourceLocation: sourceLocation)
            return
        }
        let reference = try Bitmap(contentsOfPNGFile: path)
        let difference = Bitmap.difference(image, reference, tolerance: 2)
        #expect(difference.differingPixelCount == 0, "\(name): \(difference.differingPixelCount) pixels differ", sourceLocation: sourceLocation)
    }
}

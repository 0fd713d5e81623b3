import DamaskViews
import Foundation

/// One named kind of change, applied frame after frame to a ``DamageScene``.
enum DamageScenario: String, CaseIterable {
    /// The progress bar advances one step (the bar redraws).
    case progressStep = "progress step"
    /// The caret shows or hides (a compositing change, no drawing).
    case cursorBlink = "cursor blink"
    /// The 64×64 box moves 8 points right.
    case movingBox = "moving box"
    /// One 64×64 tile of the canvas changes.
    case tileChange = "64x64 change"
    /// The window is resized by 16 points and back, alternately.
    case resize = "resize"
    /// The whole canvas changes (everything redraws).
    case fullWindowChange = "full-window change"

    /// Applies frame number `index` of this scenario to `scene`.
    @MainActor func apply(_ index: Int, to scene: DamageScene) {
        switch self {
        case .progressStep:
            scene.progress.progress = CGFloat(index % 100) / 100
        case .cursorBlink:
            scene.caret.isHidden.toggle()
        case .movingBox:
            var frame = scene.box.frame
            frame.origin.x = 40 + CGFloat((index * 8) % 800)
            scene.box.frame = frame
        case .tileChange:
            scene.canvas.changeTile(at: index * 7 + 3)
        case .resize:
            let base = scene.initialSize
            let shrink: CGFloat = index.isMultiple(of: 2) ? 16 : 0
            scene.surface.resize(to: CGSize(width: base.width - shrink, height: base.height - shrink))
        case .fullWindowChange:
            scene.canvas.changeAll()
        }
    }
}

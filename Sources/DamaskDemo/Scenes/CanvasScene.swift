import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `canvas` scene: a drawing pad whose strokes invalidate only their own rects.
///
/// Main-actor.
final class CanvasScene: DemoScene {
    /// The pad.
    let canvasView: CanvasView
    private let infoLabel: Label

    init(environment: DemoEnvironment) {
        canvasView = CanvasView(frame: CGRect(x: DemoStyle.margin, y: 156, width: 572, height: 300))
        infoLabel = Label.scene(frame: CGRect(x: DemoStyle.margin, y: 466, width: 572, height: 36), font: DemoStyle.captionFont)
        super.init(
            name: "canvas", sidebarTitle: "Canvas", title: "Drawing pad: setNeedsDisplay(_:)",
            summary: "Drag to draw. Each segment goes into an offscreen bitmap and invalidates\n"
                + "only its own rect; draw(_:) copies just that part to the screen.",
            environment: environment)
        canvasView.onDraw = { [weak self] view in self?.canvasDidDraw(view) }
        addSubview(canvasView)
        addSubview(infoLabel)
        let clear = Button(frame: CGRect(x: DemoStyle.margin, y: contentTop, width: 100, height: 30), title: "Clear")
        clear.action = { [weak self] in self?.canvasView.clear() }
        addSubview(clear)
        infoLabel.text = "Drag in the white area."
    }

    /// The pad follows the appearance: drawn again on the new panel colour, strokes kept.
    override func appearanceDidChange() {
        super.appearanceDidChange()
        canvasView.setNeedsDisplay()
    }

    private func canvasDidDraw(_ view: CanvasView) {
        let rect = view.lastDrawRect
        let area = Int(rect.width * rect.height)
        let whole = Int(view.bounds.width * view.bounds.height)
        infoLabel.text = "draw(_:) calls: \(view.drawCount)   ·   last rect: x \(Int(rect.minX)) y \(Int(rect.minY)) "
            + "w \(Int(rect.width)) h \(Int(rect.height))\n"
            + "\(area) of \(whole) square points redrawn (\(whole > 0 ? area * 100 / whole : 0)%)"
    }
}

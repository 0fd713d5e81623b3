import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `paths` scene: the seeds' stroked triangle and prebuilt, filled star, with
/// scaling and rotation controls.
///
/// Scaling and rotating set the views' `transform`, a compositing property: the window
/// repaints the area they cover, but neither view draws again. Each view sits in a clear
/// panel that clips it, so an enlarged or rotated view covers neither the other view, the
/// caption nor the sidebar. Main-actor.
final class PathsScene: DemoScene {
    /// The stroked triangle.
    let triangleView: TriangleView
    /// The filled star.
    let starView: StarView
    /// The caption under the panels: the transform and the views' draw counts.
    let infoLabel: Label
    private var scale: CGFloat = 1
    private var rotationDegrees: CGFloat = 0

    init(environment: DemoEnvironment) {
        // 120-point views in the middle of 200-point panels: at the largest scale (1.6)
        // they fill their panel instead of being cut off by it.
        triangleView = TriangleView(frame: CGRect(x: 40, y: 40, width: 120, height: 120))
        starView = StarView(frame: CGRect(x: 40, y: 40, width: 120, height: 120))
        infoLabel = Label.scene(frame: CGRect(x: DemoStyle.margin, y: 440, width: 572, height: 54), font: DemoStyle.captionFont)
        super.init(
            name: "paths", sidebarTitle: "Paths", title: "Paths: stroke and fill",
            summary: "A triangle stroked 2 points wide and a star path built once, filled in draw(_:).\n"
                + "Scale and rotation are compositing only: no draw. Keys: + − [ ] 0.",
            environment: environment)
        triangleView.backgroundColor = DemoStyle.panel
        starView.backgroundColor = DemoStyle.panel
        for (view, x) in [(triangleView as View, 54 as CGFloat), (starView, 334)] {
            let panel = View(frame: CGRect(x: x, y: 190, width: 200, height: 200))
            panel.clipsToBounds = true
            panel.addSubview(view)
            addSubview(panel)
        }
        addSubview(infoLabel)
        let buttons: [(String, @MainActor (PathsScene) -> Void)] = [
            ("Smaller", { $0.zoom(by: 1 / 1.25) }),
            ("Larger", { $0.zoom(by: 1.25) }),
            ("Rotate ←", { $0.rotate(by: -15) }),
            ("Rotate →", { $0.rotate(by: 15) }),
            ("Reset", { $0.reset() }),
        ]
        for (index, (title, action)) in buttons.enumerated() {
            let button = Button(
                frame: CGRect(x: DemoStyle.margin + CGFloat(index) * 104, y: contentTop, width: 96, height: 30),
                title: title)
            button.action = { [weak self] in if let self { action(self) } }
            addSubview(button)
        }
        updateInfo()
    }

    /// The panels and their outlines follow the appearance (the star's yellow reads on both).
    override func appearanceDidChange() {
        super.appearanceDidChange()
        triangleView.backgroundColor = DemoStyle.panel
        starView.backgroundColor = DemoStyle.panel
        triangleView.setNeedsDisplay()
    }

    /// Multiplies the scale by `factor` (kept within 0.4…1.6).
    func zoom(by factor: CGFloat) {
        scale = min(max(scale * factor, 0.4), 1.6)
        applyTransform()
    }

    /// Adds `degrees` to the rotation.
    func rotate(by degrees: CGFloat) {
        rotationDegrees = (rotationDegrees + degrees).truncatingRemainder(dividingBy: 360)
        applyTransform()
    }

    /// Back to scale 1, no rotation.
    func reset() {
        scale = 1
        rotationDegrees = 0
        applyTransform()
    }

    private func applyTransform() {
        let transform = CGAffineTransform(rotationAngle: rotationDegrees * .pi / 180)
            .concatenating(CGAffineTransform(scaleX: scale, y: scale))
        triangleView.transform = transform
        starView.transform = transform
        updateInfo()
    }

    private func updateInfo() {
        infoLabel.text = String(format: "transform: scale %.2f, rotation %d°", scale, Int(rotationDegrees))
            + "\ndraw(_:) calls: triangle \(triangleView.drawCount), star \(starView.drawCount)"
            + " (scaling and rotating add none)"
            + "\nShowing the scene again draws each once more (leaving it freed their backing stores)."
    }

    override func sceneDidAppear() {
        // The views draw in the next pass (the first time, and again after the scene was
        // left): count those draws once they happened.
        window?.afterNextDisplay { [weak self] in self?.updateInfo() }
    }

    override func handleKey(_ event: KeyEvent) -> Bool {
        switch event.shortcutKeysym {
        case 0x2b, 0x3d, 0xffab: zoom(by: 1.25)  // + = KP_Add
        case 0x2d, 0xffad: zoom(by: 1 / 1.25)  // - KP_Subtract
        case 0x5b: rotate(by: -15)  // [
        case 0x5d: rotate(by: 15)  // ]
        case 0x30: reset()  // 0
        default: return false
        }
        return true
    }
}

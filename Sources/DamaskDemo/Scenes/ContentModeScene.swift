import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `content-mode` scene: the same view in `.redraw` and `.scaleToFill` while its size
/// changes (with the window, the buttons, or the animation), with draw counters.
///
/// `.redraw` draws again at every size; `.scaleToFill` drew once and the compositor
/// stretches its cached pixels. Main-actor; the animation's display link exists only while
/// it runs.
final class ContentModeScene: DemoScene {
    /// The view in `.redraw` mode.
    let redrawView = PatternView(frame: .zero, caption: ".redraw")
    /// The view in `.scaleToFill` mode.
    let scaleView = PatternView(frame: .zero, caption: ".scaleToFill")
    private let redrawLabel: Label
    private let scaleLabel: Label
    private var sizeFactor: CGFloat = 1
    private var animationStart: UInt32?

    init(environment: DemoEnvironment) {
        redrawLabel = Label.scene(frame: .zero, font: DemoStyle.captionFont)
        scaleLabel = Label.scene(frame: .zero, font: DemoStyle.captionFont)
        super.init(
            name: "content-mode", sidebarTitle: "Content mode", title: "contentMode on resize",
            summary: "Resize the window, or use the buttons: .redraw calls draw(_:) at every new size,\n"
                + ".scaleToFill stretches the pixels it drew once. Keys: + − space.",
            environment: environment)
        redrawView.contentMode = .redraw
        scaleView.contentMode = .scaleToFill
        updateLabels()
        for view in [redrawView, scaleView, redrawLabel, scaleLabel] { addSubview(view) }
        let buttons: [(String, @MainActor (ContentModeScene) -> Void)] = [
            ("Smaller", { $0.resize(by: -0.1) }),
            ("Larger", { $0.resize(by: 0.1) }),
            ("Animate", { $0.toggleAnimation() }),
        ]
        for (index, (title, action)) in buttons.enumerated() {
            let button = Button(
                frame: CGRect(x: DemoStyle.margin + CGFloat(index) * 110, y: contentTop, width: 100, height: 30),
                title: title)
            button.action = { [weak self] in if let self { action(self) } }
            addSubview(button)
        }
    }

    /// The pattern views follow the appearance: their panel colour and strokes, drawn again.
    override func appearanceDidChange() {
        super.appearanceDidChange()
        redrawView.appearanceDidChange()
        scaleView.appearanceDidChange()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let column = max(40, (bounds.width - 2 * DemoStyle.margin - 20) / 2)
        let height = max(40, min(column * 0.9, bounds.height - 240))
        let size = CGSize(width: (column * sizeFactor).rounded(), height: (height * sizeFactor).rounded())
        redrawView.frame = CGRect(origin: CGPoint(x: DemoStyle.margin, y: 160), size: size)
        scaleView.frame = CGRect(origin: CGPoint(x: DemoStyle.margin + column + 20, y: 160), size: size)
        let labelTop = 160 + height + 12
        redrawLabel.frame = CGRect(x: DemoStyle.margin, y: labelTop, width: column, height: 36)
        scaleLabel.frame = CGRect(x: DemoStyle.margin + column + 20, y: labelTop, width: column, height: 36)
        window?.afterNextDisplay { [weak self] in self?.updateLabels() }
    }

    /// Changes the views' size by `amount` of their largest size (kept within 0.4…1).
    func resize(by amount: CGFloat) {
        sizeFactor = min(max(sizeFactor + amount, 0.4), 1)
        setNeedsLayout()
    }

    override func animationDidStop() {
        animationStart = nil
    }

    override func animationFrame(_ timestamp: UInt32) {
        let start = animationStart ?? timestamp
        animationStart = start
        let seconds = CGFloat(timestamp &- start) / 1000
        sizeFactor = 0.7 + 0.3 * cos(seconds * 2)
        setNeedsLayout()
    }

    /// Shows the views' draw counts and sizes: from `init` (so that a label is never empty,
    /// even for an assistive technology reading the scene before its first display), then
    /// after each display that follows a layout, which is when the counts and sizes change.
    private func updateLabels() {
        redrawLabel.text = "draw(_:) calls: \(redrawView.drawCount)\n"
            + "size \(Int(redrawView.bounds.width)) × \(Int(redrawView.bounds.height))"
        scaleLabel.text = "draw(_:) calls: \(scaleView.drawCount)\n"
            + "size \(Int(scaleView.bounds.width)) × \(Int(scaleView.bounds.height))"
    }

    override func handleKey(_ event: KeyEvent) -> Bool {
        switch event.shortcutKeysym {
        case 0x2b, 0x3d, 0xffab: resize(by: 0.1)  // + = KP_Add
        case 0x2d, 0xffad: resize(by: -0.1)  // - KP_Subtract
        case 0x20: toggleAnimation()
        default: return false
        }
        return true
    }
}

import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `layers` scene: the seeds' layer-delegate example and its relatives.
///
/// 1. A blue sublayer whose delegate draws a thick red circle (`draw(_:in:)`), forced to
///    draw with `display()` as in the seed.
/// 2. A standalone layer, in no window and under no view, drawn by the same kind of
///    delegate at a chosen `contentsScale`; its contents are shown by another layer, so the
///    backing-store resolution is visible.
/// 3. A delegate that implements `display(_:)` and sets `contents` directly: no drawing,
///    no backing store.
///
/// The scene owns the delegates (layers hold them weakly). Main-actor.
final class LayersScene: DemoScene {
    /// The seed's blue layer.
    let blueLayer = Layer()
    /// The standalone layer (never in a window).
    let standaloneLayer = Layer()
    /// Shows the standalone layer's contents.
    let mirrorLayer = Layer()
    /// The layer whose delegate sets contents.
    let prebuiltLayer = Layer()

    private let circleDelegate = RedCircleDelegate()
    private let standaloneDelegate = RedCircleDelegate()
    private let prebuiltDelegate = PrebuiltContentsDelegate(pixelSize: 200)
    private let captions: [Label]
    /// The three panels the layers sit in (their background follows the appearance).
    private var panels: [View] = []
    private var scaleIndex = 1

    /// The contents scales the standalone layer cycles through.
    static let standaloneScales: [CGFloat] = [0.25, 0.5, 1, 2]

    init(environment: DemoEnvironment) {
        captions = (0..<3).map { index in
            Label.scene(
                frame: CGRect(x: DemoStyle.margin + CGFloat(index) * 196, y: 364, width: 186, height: 70),
                font: DemoStyle.captionFont)
        }
        super.init(
            name: "layers", sidebarTitle: "Layers", title: "Layers do the drawing",
            summary: "A layer's delegate either draws into a backing store of bounds × contentsScale\n"
                + "pixels (draw(_:in:)) or sets its contents directly (display(_:)).",
            environment: environment)

        panels = (0..<3).map { index in
            let panel = View(frame: CGRect(x: DemoStyle.margin + CGFloat(index) * 196, y: 164, width: 186, height: 186))
            panel.backgroundColor = DemoStyle.panel
            addSubview(panel)
            return panel
        }
        for caption in captions { addSubview(caption) }

        // 1. The seed: a blue layer, the controller as its delegate, a forced display.
        blueLayer.frame = CGRect(x: 43, y: 43, width: 100, height: 100)
        blueLayer.backgroundColor = .blue
        blueLayer.delegate = circleDelegate
        // The seed sets contentsScale to the screen's; in a window it follows the window.
        blueLayer.contentsScale = environment.displayScale
        panels[0].layer.addSublayer(blueLayer)
        blueLayer.display()

        // 2. A standalone layer with a delegate works without any view or window.
        standaloneLayer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        standaloneLayer.delegate = standaloneDelegate
        mirrorLayer.frame = CGRect(x: 43, y: 43, width: 100, height: 100)
        mirrorLayer.backgroundColor = DemoStyle.panelWell
        panels[1].layer.addSublayer(mirrorLayer)
        displayStandalone()

        // 3. display(_:) sets contents; nothing is drawn.
        prebuiltLayer.frame = CGRect(x: 43, y: 43, width: 100, height: 100)
        prebuiltLayer.delegate = prebuiltDelegate
        panels[2].layer.addSublayer(prebuiltLayer)
        prebuiltLayer.setNeedsDisplay()

        let buttons: [(String, CGFloat, @MainActor (LayersScene) -> Void)] = [
            ("blueLayer.display()", 160, { $0.redisplayBlueLayer() }),
            ("Next contentsScale", 160, { $0.nextStandaloneScale() }),
            ("setNeedsDisplay()", 150, { $0.prebuiltLayer.setNeedsDisplay() }),
        ]
        var x = DemoStyle.margin
        for (title, width, action) in buttons {
            let button = Button(frame: CGRect(x: x, y: contentTop, width: width, height: 30), title: title)
            button.action = { [weak self] in
                guard let self else { return }
                action(self)
                self.window?.afterNextDisplay { [weak self] in self?.updateCaptions() }
            }
            addSubview(button)
            x += width + 10
        }
        updateCaptions()
    }

    /// The panels follow the appearance (the layers' own colours read on both).
    override func appearanceDidChange() {
        super.appearanceDidChange()
        for panel in panels { panel.backgroundColor = DemoStyle.panel }
        mirrorLayer.backgroundColor = DemoStyle.panelWell
    }

    /// Draws the blue layer again, now.
    func redisplayBlueLayer() {
        blueLayer.display()
        updateCaptions()
    }

    /// Moves the standalone layer to the next contents scale and displays it again.
    func nextStandaloneScale() {
        scaleIndex = (scaleIndex + 1) % Self.standaloneScales.count
        displayStandalone()
    }

    private func displayStandalone() {
        standaloneLayer.contentsScale = Self.standaloneScales[scaleIndex]
        standaloneLayer.display()
        mirrorLayer.contents = standaloneLayer.contents
        updateCaptions()
    }

    private func updateCaptions() {
        let scale = Self.standaloneScales[scaleIndex]
        let side = Int((100 * scale).rounded(.up))
        captions[0].text = "draw(_:in:) on a sublayer\n"
            + "delegate draws: \(circleDelegate.drawCount)\n"
            + "backing store: \(blueLayer.backingStoreByteCount / 1024) KiB"
        captions[1].text = "standalone layer, no window\n"
            // No-break spaces keep the size whole: a narrow column wraps before "200 × 200 px",
            // never leaving "px" alone on a line.
            + "contentsScale \(scale): \(side)\u{00A0}×\u{00A0}\(side)\u{00A0}px\n"
            + "delegate draws: \(standaloneDelegate.drawCount)"
        captions[2].text = "display(_:) sets contents\n"
            + "display calls: \(prebuiltDelegate.displayCount), draws: 0\n"
            + "own backing store: \(prebuiltLayer.backingStoreByteCount) bytes"
    }

    override func sceneDidAppear() {
        window?.afterNextDisplay { [weak self] in self?.updateCaptions() }
    }
}

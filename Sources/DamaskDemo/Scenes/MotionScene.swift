import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `motion` scene: animations the Core Animation way. Four tiles slide, fade, rotate
/// and scale inside one `View.animate` block, and a standalone layer changes colour and
/// corner radius through its implicit animation, all over 1 s with ease-in-ease-out.
///
/// The model values are set at once; every frame recomputes the presentation values and
/// only recomposites: the tiles never draw again (the S overlay's draw count stays put,
/// and D flashes only the moving footprints). When the animations end the window asks for
/// no more frames. Space (or the button) plays the animation forwards, then back.
/// Main-actor.
final class MotionScene: DemoScene {
    /// The tile that slides right.
    let slideTile: MotionTileView
    /// The tile that fades.
    let fadeTile: MotionTileView
    /// The tile that turns a quarter turn.
    let rotateTile: MotionTileView
    /// The tile that shrinks to half its size.
    let scaleTile: MotionTileView
    /// A layer without a view: it animates by its implicit actions.
    let standaloneLayer = Layer()
    /// Whether the tiles are in their moved state (the model values).
    private(set) var isMoved = false
    /// How many animations ran to their end (completion blocks called with `true`).
    private(set) var completedAnimations = 0

    /// The animation's length in seconds.
    static let duration: TimeInterval = 1

    private let infoLabel: Label

    init(environment: DemoEnvironment) {
        slideTile = MotionTileView(frame: CGRect(x: 24, y: 170, width: 80, height: 80), color: .systemBlue)
        fadeTile = MotionTileView(frame: CGRect(x: 24, y: 290, width: 80, height: 80), color: .systemGreen)
        rotateTile = MotionTileView(frame: CGRect(x: 184, y: 290, width: 80, height: 80), color: .orange)
        scaleTile = MotionTileView(frame: CGRect(x: 344, y: 290, width: 80, height: 80), color: .systemRed)
        infoLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 420, width: 572, height: 54),
            text: "View.animate(withDuration: 1) sets center, alpha and transform at once; the frames\n"
                + "interpolate presentation values and only recomposite (S: draws stay put, D: footprints).\n"
                + "The grey square is a standalone Layer: its colour and corners animate implicitly.",
            font: DemoStyle.captionFont, role: .secondaryText)
        super.init(
            name: "motion", sidebarTitle: "Motion", title: "Animations: compositing only",
            summary: "Tiles slide, fade, rotate and scale with easing; no frame calls draw(_:).\n"
                + "Space or the button plays it forwards, then back.",
            environment: environment)
        for tile in [slideTile, fadeTile, rotateTile, scaleTile] { addSubview(tile) }
        (slideTile.accessibilityLabel, fadeTile.accessibilityLabel) = ("Sliding tile", "Fading tile")
        (rotateTile.accessibilityLabel, scaleTile.accessibilityLabel) = ("Rotating tile", "Scaling tile")
        standaloneLayer.frame = CGRect(x: 504, y: 290, width: 80, height: 80)
        standaloneLayer.backgroundColor = .gray
        layer.addSublayer(standaloneLayer)
        addSubview(infoLabel)
        let button = Button(
            frame: CGRect(x: DemoStyle.margin, y: contentTop, width: 120, height: 30), title: "Animate")
        button.action = { [weak self] in self?.play() }
        addSubview(button)
    }

    /// Animates to the other state over ``duration`` seconds.
    func play() {
        isMoved.toggle()
        let moved = isMoved
        View.animate(withDuration: Self.duration, delay: 0, options: .curveEaseInOut) {
            slideTile.center = CGPoint(x: moved ? 536 : 64, y: 210)
            fadeTile.alpha = moved ? 0.15 : 1
            rotateTile.transform = moved ? CGAffineTransform(rotationAngle: .pi / 2) : .identity
            scaleTile.transform = moved ? CGAffineTransform(scaleX: 0.5, y: 0.5) : .identity
        } completion: { [weak self] finished in
            if finished { self?.completedAnimations += 1 }
        }
        // A standalone layer animates implicitly, with the transaction's settings.
        Transaction.begin()
        Transaction.setAnimationDuration(Self.duration)
        Transaction.setAnimationTimingFunction(.easeInEaseOut)
        standaloneLayer.backgroundColor = moved ? .systemBlue : .gray
        standaloneLayer.cornerRadius = moved ? 40 : 0
        Transaction.commit()
    }

    override func handleKey(_ event: KeyEvent) -> Bool {
        guard event.keysym == 0x20 else { return false }  // space
        play()
        return true
    }
}

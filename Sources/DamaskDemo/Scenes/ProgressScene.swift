import DamaskControls
import DamaskGraphics
import DamaskViews
import Foundation

/// The `progress` scene: the seeds' `ProgressView`, changed three times per step (by the
/// animation, the arrow keys, the wheel or the buttons) and drawn once per frame, damaging
/// only the part of the bar that changed.
///
/// Main-actor; the animation's display link exists only while it runs.
final class ProgressScene: DemoScene {
    /// The bar.
    let progressView: ProgressView
    private let counterLabel: Label
    private let rectLabel: Label
    private var lastTimestamp: UInt32?
    private var direction: CGFloat = 1
    private var setCountBeforeTurn = 0

    /// The fraction one arrow key or button press adds, set as three smaller changes.
    static let step: CGFloat = 0.05

    init(environment: DemoEnvironment) {
        progressView = ProgressView(frame: CGRect(x: DemoStyle.margin, y: 152, width: 560, height: 36))
        counterLabel = Label.scene(frame: CGRect(x: DemoStyle.margin, y: 200, width: 560, height: 18), font: DemoStyle.captionFont)
        rectLabel = Label.scene(
            frame: CGRect(x: DemoStyle.margin, y: 220, width: 560, height: 18), font: DemoStyle.captionFont,
            role: .secondaryText)
        super.init(
            name: "progress", sidebarTitle: "Progress", title: "setNeedsDisplay coalesces",
            summary: "Each step sets progress three times; the bar draws once per frame with the\n"
                + "last value and invalidates only the span that changed. Keys: ← → space, wheel.",
            environment: environment)
        progressView.progress = 0.25
        progressView.onDraw = { [weak self] view in self?.progressDidDraw(view) }
        addSubview(progressView)
        addSubview(counterLabel)
        addSubview(rectLabel)
        let buttons: [(String, @MainActor (ProgressScene) -> Void)] = [
            ("− 5%", { $0.advance(by: -Self.step) }),
            ("+ 5%", { $0.advance(by: Self.step) }),
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

    /// Moves the bar by `amount`, in three separate sets of a third each.
    func advance(by amount: CGFloat) {
        for _ in 0..<3 { progressView.progress += amount / 3 }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        // The bar keeps its 560 points where the scene has room and narrows with the window.
        let width = max(60, min(560, bounds.width - 2 * DemoStyle.margin))
        if progressView.frame.width != width { progressView.frame.size.width = width }
    }

    override func animationDidStop() {
        lastTimestamp = nil
    }

    override func animationFrame(_ timestamp: UInt32) {
        defer { lastTimestamp = timestamp }
        guard let last = lastTimestamp else { return }
        let seconds = CGFloat(timestamp &- last) / 1000
        let amount = direction * seconds * 0.4
        advance(by: amount)
        if progressView.progress >= 1 { direction = -1 }
        if progressView.progress <= 0 { direction = 1 }
    }

    private func progressDidDraw(_ view: ProgressView) {
        let sets = view.setCount - setCountBeforeTurn
        setCountBeforeTurn = view.setCount
        counterLabel.text =
            "progress \(Self.percentText(view.progress))   ·   set \(sets)× since the last draw, "
            + "drawn once   ·   draw(_:) calls: \(view.drawCount)"
        let rect = view.lastDrawRect
        rectLabel.text =
            "last draw rect: x \(Int(rect.minX))…\(Int(rect.maxX)) of 0…\(Int(view.bounds.width))"
            + " (\(Int(rect.width)) × \(Int(rect.height)) points)"
    }

    /// `progress` as a whole percentage, rounded half away from zero (42.5 % → 43 %,
    /// 37.5 % → 38 %, 42.49 % → 42 %). The percentage is first snapped to millionths of a
    /// percent, so that a value reached by adding thirds of 5 % (37.49999999999997) rounds
    /// like the 37.5 it stands for, while a real 42.49 still rounds down. Values outside
    /// 0…1 show as 0 % or 100 %, as the bar does; a value that is not finite shows "–%".
    static func percentText(_ progress: CGFloat) -> String {
        guard progress.isFinite else { return "–%" }
        let clamped = min(max(progress, 0), 1)
        let snapped = (clamped * 100 * 1_000_000).rounded(.toNearestOrAwayFromZero) / 1_000_000
        return "\(Int(snapped.rounded(.toNearestOrAwayFromZero)))%"
    }

    override func handleKey(_ event: KeyEvent) -> Bool {
        switch event.keysym {
        case 0xff53, 0xff52: advance(by: Self.step)  // Right, Up
        case 0xff51, 0xff54: advance(by: -Self.step)  // Left, Down
        case 0x20: toggleAnimation()  // space
        default: return false
        }
        return true
    }

    override func scrollWheel(_ event: ScrollEvent) {
        let steps = event.discreteY != 0 ? CGFloat(event.discreteY) : event.deltaY / 10
        advance(by: -steps * Self.step / 2)
    }
}

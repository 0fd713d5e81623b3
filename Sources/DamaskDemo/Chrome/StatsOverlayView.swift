import DamaskGraphics
import DamaskViews
import Foundation

/// A small translucent panel with the window's counters: commits, draws, damaged pixels
/// and the draws of the last commit, damaged pixels of the last commit, and its CPU time
/// (toggled with `S`). The overlay's own draws are never counted, so an animation that only
/// recomposites shows "last 0" on every frame.
///
/// It is fed every ``CommitReport`` through ``record(_:)``. Commits whose damage lies
/// entirely inside the overlay are its own updates and are not counted, so showing the
/// numbers does not keep the window busy. Main-actor.
final class StatsOverlayView: View {
    private let environment: DemoEnvironment
    private var frames = 0
    private var draws = 0
    /// The draws of the last counted commit, the overlay's own not included.
    private var lastDraws = 0
    /// The overlay's own draws since the last report (they are not counted).
    private var ownDraws = 0
    private var lastDamagedPixels = 0
    private var lastMilliseconds = 0.0

    /// Creates an overlay; it starts hidden.
    init(frame: CGRect, environment: DemoEnvironment) {
        self.environment = environment
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isHidden = true
        isUserInteractionEnabled = false
    }

    /// Counts `report` unless it only updated the overlay itself.
    func record(_ report: CommitReport) {
        guard let window else { return }
        let others = max(0, report.drawCount - ownDraws)
        ownDraws = 0
        // Shown, a commit of the overlay's own redraw alone is not counted. (Hidden, every
        // commit counts and nothing is measured: the overlay costs a typed key nothing.)
        if !isHidden {
            let own = convert(bounds, to: nil)
            let ownPixels = Region(
                CGRect(
                    x: own.minX * window.scale, y: own.minY * window.scale,
                    width: own.width * window.scale, height: own.height * window.scale
                ).integral)
            if Region(rects: report.damageRects).subtracting(ownPixels).isEmpty { return }
        }
        frames += 1
        draws += others
        lastDraws = others
        lastDamagedPixels = report.damagedPixelCount
        lastMilliseconds = report.cpuMilliseconds
        if !isHidden { setNeedsDisplay() }
    }

    override var isHidden: Bool {
        didSet { if !isHidden { setNeedsDisplay() } }
    }

    override func draw(_ rect: CGRect) {
        ownDraws += 1
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(Color(red: 0.08, green: 0.09, blue: 0.12, alpha: 0.85))
        context.fill(Path(roundedRect: bounds, cornerRadius: 8))
        let lines = [
            "frames \(frames)   draws \(draws) (last \(lastDraws))",
            "last damage \(lastDamagedPixels) px",
            "last frame " + environment.format(milliseconds: lastMilliseconds),
        ]
        for (index, line) in lines.enumerated() {
            context.draw(
                line, at: CGPoint(x: 12, y: 22 + CGFloat(index) * 17), font: DemoStyle.captionFont,
                color: .white)
        }
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// The seeds' star: a five-pointed path built once (in the seed's 100-point square,
/// scaled to the view's size) and only filled in ``draw(_:)``.
///
/// Main-actor.
final class StarView: View {
    /// How many times ``draw(_:)`` ran.
    private(set) var drawCount = 0
    private let starPath: Path

    /// The seed's star in a 100 × 100 square: every second corner of a pentagon of radius
    /// 40 around (50, 50). (The seed starts at (50, 0), off that circle, which bends one
    /// arm; here the first point is on the circle too, pointing up.)
    static let seedStar: Path = {
        func corner(_ i: Int) -> CGPoint {
            let angle = CGFloat(i) * 4 * CGFloat.pi / 5 - CGFloat.pi / 2
            return CGPoint(x: 50 + 40 * cos(angle), y: 50 + 40 * sin(angle))
        }
        var path = Path()
        path.move(to: corner(0))
        for i in 1...5 { path.addLine(to: corner(i)) }
        path.closeSubpath()
        return path
    }()

    /// Creates a star view; the path is built here, once, for the frame's size.
    override init(frame: CGRect) {
        starPath = Self.seedStar.applying(
            CGAffineTransform(scaleX: frame.width / 100, y: frame.height / 100))
        super.init(frame: frame)
    }

    override func draw(_ rect: CGRect) {
        drawCount += 1
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(.systemYellow)
        context.fill(starPath)
    }
}

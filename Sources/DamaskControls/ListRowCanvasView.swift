import DamaskGraphics
import DamaskViews
import Foundation

/// The viewport-sized view a ``ListView`` draws its visible rows into: it stays over the
/// visible area, and a scroll moves its pixels (``View/scrollContents(dx:dy:)``) so that
/// only the rows scrolling in are drawn.
final class ListRowCanvasView: View {
    /// The list whose rows this canvas shows (weak: the list owns the canvas).
    weak var owner: ListView?

    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        isOpaque = true
        isUserInteractionEnabled = false
        layer.needsDisplayOnBoundsChange = true
    }

    override func draw(_ rect: CGRect) {
        guard let owner, let context = GraphicsContext.current else { return }
        owner.drawRows(in: rect, context: context)
    }
}

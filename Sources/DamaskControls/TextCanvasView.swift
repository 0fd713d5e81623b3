import DamaskGraphics
import DamaskViews
import Foundation

/// The viewport-sized view a ``TextView`` draws its visible lines into.
final class TextCanvasView: View {
    weak var owner: TextView?

    override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        isOpaque = true
        isUserInteractionEnabled = false
        layer.needsDisplayOnBoundsChange = true
    }

    override func draw(_ rect: CGRect) {
        guard let owner, let context = GraphicsContext.current else { return }
        owner.drawText(in: rect, context: context)
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A scroll indicator: a rounded bar in ``color``, drawn once per size and moved by
/// compositing while its ``ScrollView`` scrolls.
open class ScrollIndicatorView: View {
    /// The bar's colour.
    open var color = Color(red: 0, green: 0, blue: 0, alpha: 0.45) {
        didSet { if color != oldValue { setNeedsDisplay() } }
    }

    /// Creates an indicator.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        isOpaque = false
        isUserInteractionEnabled = false
        layer.needsDisplayOnBoundsChange = true
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let radius = min(bounds.width, bounds.height) / 2
        context.setFillColor(color)
        context.fill(Path(roundedRect: bounds, cornerRadius: radius))
    }
}

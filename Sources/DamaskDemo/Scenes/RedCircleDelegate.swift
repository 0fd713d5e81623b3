import DamaskGraphics
import DamaskViews
import Foundation

/// The seeds' layer delegate: draws a thick red circle in the layer's bounds
/// (`drawLayer:inContext:`), and counts its calls.
///
/// Layers hold delegates weakly: whoever installs it keeps it alive. Main-actor.
final class RedCircleDelegate: LayerDelegate {
    /// How many times ``draw(_:in:)`` ran.
    private(set) var drawCount = 0

    func draw(_ layer: Layer, in context: GraphicsContext) {
        drawCount += 1
        // Draw a thick red circle.
        context.setLineWidth(10.0)
        context.setStrokeColor(.red)
        context.strokeEllipse(in: layer.bounds.insetBy(dx: 5, dy: 5))
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A layer delegate that implements `display(_:)`: it sets the layer's `contents` to a
/// bitmap it made once, so the layer never draws and has no backing store of its own.
///
/// Owns the bitmap; layers hold delegates weakly, so whoever installs it keeps it alive.
/// Main-actor.
final class PrebuiltContentsDelegate: LayerDelegate {
    /// How many times ``display(_:)`` ran.
    private(set) var displayCount = 0
    /// The bitmap handed out as contents.
    let image: Bitmap?

    /// Renders the bitmap: `pixelSize` square, a blue-to-violet gradient with a white ring.
    init(pixelSize: Int) {
        let bitmap = try? Bitmap(width: pixelSize, height: pixelSize)
        if let bitmap {
            let context = GraphicsContext(bitmap: bitmap)
            let size = CGFloat(pixelSize)
            context.drawLinearGradient(
                colors: [Color(red: 0.15, green: 0.35, blue: 0.85), Color(red: 0.60, green: 0.20, blue: 0.70)],
                locations: nil,
                start: .zero, end: CGPoint(x: size, y: size))
            context.setStrokeColor(.white)
            context.setLineWidth(size / 12)
            context.strokeEllipse(in: CGRect(x: 0, y: 0, width: size, height: size).insetBy(dx: size / 5, dy: size / 5))
        }
        image = bitmap
    }

    func display(_ layer: Layer) {
        displayCount += 1
        layer.contents = image
    }
}

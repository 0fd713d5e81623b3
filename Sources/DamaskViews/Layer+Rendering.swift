import DamaskGraphics
import Foundation

extension Layer {
    /// Paints this layer's tree into `context` in the layer's own coordinates (the bounds
    /// origin at the context's origin), as Core Animation's `renderInContext:` does.
    ///
    /// Marked layers are drawn first; the layer's own position and transform are ignored.
    /// Works for layers in no window.
    public func render(in context: GraphicsContext, scale: CGFloat = 1) {
        displayTreeIfNeeded()
        Compositor.render(self, in: context, scale: scale)
    }

    /// Renders this layer's tree into a new bitmap of `bounds.size × scale` pixels.
    public func renderImage(scale: CGFloat = 1) throws -> Bitmap {
        displayTreeIfNeeded()
        return try Compositor.image(of: self, scale: scale)
    }

    /// Renders this layer's tree and writes it as a PNG file at `path`.
    public func writePNG(to path: String, scale: CGFloat = 1) throws {
        try renderImage(scale: scale).writePNG(to: path)
    }
}

import DamaskGraphics
import Foundation

/// Offscreen rendering: the whole window painted into a bitmap, outside the display cycle
/// (screenshots, reference images). The surface's buffers are not touched.
extension Window {
    /// Lays out, draws what is marked, and paints the whole window into `bitmap` at the
    /// window's scale (top-left aligned; the bitmap's size is the caller's choice).
    public func render(to bitmap: Bitmap) {
        displayIfNeeded()
        let context = GraphicsContext(bitmap: bitmap)
        context.clear(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        context.scaleBy(x: scale, y: scale)
        Compositor.composite(layer, in: context, placement: .root(scale: scale), statistics: statistics)
    }

    /// Renders the whole window into a new bitmap of its pixel size.
    public func renderImage() throws -> Bitmap {
        let bitmap = try Bitmap(width: max(1, surface.pixelWidth), height: max(1, surface.pixelHeight))
        render(to: bitmap)
        return bitmap
    }
}

import DamaskGraphics
import Foundation

extension View {
    /// Lays out and renders this view's tree into a new bitmap of `bounds.size × scale`
    /// pixels, with no window or compositor involved.
    public func renderImage(scale: CGFloat = 1) throws -> Bitmap {
        layoutIfNeeded()
        return try layer.renderImage(scale: scale)
    }

    /// Renders this view's tree and writes it as a PNG file at `path`.
    public func writePNG(to path: String, scale: CGFloat = 1) throws {
        try renderImage(scale: scale).writePNG(to: path)
    }
}

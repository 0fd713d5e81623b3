import CPixman
import Foundation

/// A rendered glyph: an 8-bit coverage image and where it sits relative to the pen.
///
/// Owns one reference to its pixman `a8` image (nil for blank glyphs such as space).
/// Cached glyphs are shared, so they are only used under ``FreeTypeLibrary``'s lock.
final class GlyphImage {
    /// The coverage image, or nil when the glyph has no pixels.
    let image: OpaquePointer?
    /// Pixels from the pen position to the image's left edge.
    let left: Int
    /// Pixels from the baseline up to the image's top edge.
    let top: Int
    /// Image width in pixels.
    let width: Int
    /// Image height in pixels.
    let height: Int

    init(image: OpaquePointer?, left: Int, top: Int, width: Int, height: Int) {
        self.image = image
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }

    deinit {
        if let image { pixman_image_unref(image) }
    }

    /// The placeholder drawn for missing glyphs and by the built-in box font: a
    /// rectangle outline about 0.5 em wide and 0.7 em tall on the baseline.
    static func box(pixelSize: CGFloat) -> GlyphImage {
        let width = max(3, Int((pixelSize * 0.5).rounded()))
        let height = max(4, Int((pixelSize * 0.7).rounded()))
        let thickness = max(1, Int((pixelSize / 14).rounded()))
        let left = max(1, Int((pixelSize * 0.05).rounded()))
        guard let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else {
            return GlyphImage(image: nil, left: 0, top: 0, width: 0, height: 0)
        }
        let bytes = UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
        let stride = Int(pixman_image_get_stride(image))
        for y in 0..<height {
            for x in 0..<width
            where x < thickness || y < thickness || x >= width - thickness || y >= height - thickness {
                bytes[y * stride + x] = 255
            }
        }
        return GlyphImage(image: image, left: left, top: height, width: width, height: height)
    }
}

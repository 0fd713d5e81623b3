import DamaskGraphics

/// The pixels of a decoded reference image, kept by a ``Script`` so that `expect image`
/// compares against what the parser decoded instead of decoding the file again.
///
/// A value type (premultiplied ARGB32 words, row-major), so a script stays `Sendable`.
public struct DecodedImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied `0xAARRGGBB` words, row by row.
    public let pixels: [UInt32]

    /// Copies the pixels of `bitmap`.
    public init(_ bitmap: Bitmap) {
        width = bitmap.width
        height = bitmap.height
        var pixels: [UInt32] = []
        pixels.reserveCapacity(bitmap.width * bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width { pixels.append(bitmap.pixel(x: x, y: y)) }
        }
        self.pixels = pixels
    }

    /// A new bitmap with these pixels.
    ///
    /// - Throws: `GraphicsError` when the bitmap cannot be allocated.
    public func bitmap() throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { bitmap.setPixel(x: x, y: y, to: pixels[y * width + x]) }
        }
        return bitmap
    }
}

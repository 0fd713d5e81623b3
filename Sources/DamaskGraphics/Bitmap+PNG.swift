import CPNG
import Foundation

/// PNG reading and writing through libpng's simplified API (which handles libpng's
/// longjmp-based errors internally, so none cross into Swift).
extension Bitmap {
    /// libpng's `PNG_FORMAT_BGRA`: 8-bit straight-alpha B, G, R, A bytes, which is a
    /// little-endian `0xAARRGGBB` word before premultiplication.
    private static let pngFormatBGRA: UInt32 = 0x02 | 0x01 | 0x10
    /// libpng's `PNG_IMAGE_VERSION`.
    private static let pngImageVersion: UInt32 = 1

    /// The most pixels a decoded PNG may have: an 8K image (7680×4320, 133 MB at 4 bytes per
    /// pixel). Checked against the header before anything is allocated, so a small file
    /// claiming a huge image (a 1-bit decompression bomb) is refused at once.
    public static let maximumPNGPixelCount = 7_680 * 4_320

    /// Decodes a PNG file into a new premultiplied ARGB32 bitmap.
    ///
    /// - Throws: ``GraphicsError/pngDecodingFailed(_:)`` when the file cannot be read or
    ///   decoded, or ``GraphicsError/invalidSize(width:height:)`` for an oversized image.
    public convenience init(contentsOfPNGFile path: String) throws {
        // Said before Foundation reads the file: its reader leaks a buffer on empty files.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 {
            throw GraphicsError.pngDecodingFailed("\(path) is empty")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GraphicsError.pngDecodingFailed("cannot read \(path)")
        }
        try self.init(pngData: [UInt8](data))
    }

    /// Decodes PNG bytes into a new premultiplied ARGB32 bitmap.
    ///
    /// - Throws: ``GraphicsError/pngDecodingFailed(_:)`` for malformed data, or
    ///   ``GraphicsError/invalidSize(width:height:)`` for an oversized image.
    public convenience init(pngData: [UInt8]) throws {
        let decoded = try pngData.withUnsafeBytes { raw in try Bitmap.decodePNG(raw) }
        try self.init(width: decoded.width, height: decoded.height, format: .argb32Premultiplied)
        decoded.pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = (bytes + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    row[x] = Bitmap.premultiply(source[y * width + x])
                }
            }
        }
    }

    /// Decodes PNG bytes into straight-alpha `0xAARRGGBB` words, row-major.
    private static func decodePNG(_ data: UnsafeRawBufferPointer) throws -> (width: Int, height: Int, pixels: [UInt32]) {
        var png = png_image()
        png.version = pngImageVersion
        guard png_image_begin_read_from_memory(&png, data.baseAddress, data.count) != 0 else {
            throw GraphicsError.pngDecodingFailed(message(of: &png))
        }
        let width = Int(png.width)
        let height = Int(png.height)
        do {
            try validate(width: width, height: height)
        } catch {
            png_image_free(&png)
            throw error
        }
        // Decoding writes 4 bytes per pixel whatever the file's depth: cap that first.
        guard width * height <= maximumPNGPixelCount else {
            png_image_free(&png)
            throw GraphicsError.pngDecodingFailed(
                "the image is \(width)×\(height) pixels, more than the limit of \(maximumPNGPixelCount) "
                    + "(7680×4320, \(maximumPNGPixelCount * 4 / 1_000_000) MB decoded)")
        }
        // Deflate expands at most about 1032:1, and each row needs at least a filter byte and
        // one bit per pixel: a header claiming more pixels than the data can hold is a
        // truncated or corrupt file, rejected before allocating what it claims.
        let leastRawBytes = Double(height) * (1 + (Double(width) / 8).rounded(.up))
        guard leastRawBytes <= 1_100 * Double(data.count) else {
            png_image_free(&png)
            throw GraphicsError.pngDecodingFailed(
                "the header claims \(width)×\(height) pixels, more than \(data.count) bytes can hold (truncated or corrupt)")
        }
        png.format = pngFormatBGRA
        var pixels = [UInt32](repeating: 0, count: width * height)
        let finished = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&png, nil, out.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw GraphicsError.pngDecodingFailed(message(of: &png)) }
        return (width, height, pixels)
    }

    /// Encodes the bitmap as PNG bytes (RGBA, or RGB… with opaque alpha for XRGB32).
    ///
    /// - Throws: ``GraphicsError/pngEncodingFailed(_:)`` when libpng fails.
    public func pngData() throws -> [UInt8] {
        var straight = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                straight[y * width + x] = Bitmap.unpremultiply(pixel(x: x, y: y))
            }
        }
        var png = png_image()
        png.version = Bitmap.pngImageVersion
        png.width = UInt32(width)
        png.height = UInt32(height)
        png.format = Bitmap.pngFormatBGRA
        var size = 0
        let measured = straight.withUnsafeBytes { raw in
            png_image_write_to_memory(&png, nil, &size, 0, raw.baseAddress, Int32(width * 4), nil)
        }
        guard measured != 0, size > 0 else { throw GraphicsError.pngEncodingFailed(Bitmap.message(of: &png)) }
        var output = [UInt8](repeating: 0, count: size)
        let written = straight.withUnsafeBytes { raw in
            output.withUnsafeMutableBytes { out in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, raw.baseAddress, Int32(width * 4), nil)
            }
        }
        guard written != 0 else { throw GraphicsError.pngEncodingFailed(Bitmap.message(of: &png)) }
        return Array(output.prefix(size))
    }

    /// Writes the bitmap as a PNG file, replacing any existing file.
    ///
    /// - Throws: ``GraphicsError/pngEncodingFailed(_:)`` when encoding or writing fails.
    public func writePNG(to path: String) throws {
        let data = Data(try pngData())
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw GraphicsError.pngEncodingFailed("cannot write \(path): \(error.localizedDescription)")
        }
    }

    private func premultiplyInPlace() {
        for y in 0..<height {
            let row = (bytes + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                row[x] = Bitmap.premultiply(row[x])
            }
        }
    }

    static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        func scale(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }
        return a << 24 | scale(p >> 16 & 0xFF) << 16 | scale(p >> 8 & 0xFF) << 8 | scale(p & 0xFF)
    }

    static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        func scale(_ c: UInt32) -> UInt32 { min(255, (c * 255 + a / 2) / a) }
        return a << 24 | scale(p >> 16 & 0xFF) << 16 | scale(p >> 8 & 0xFF) << 8 | scale(p & 0xFF)
    }

    private static func message(of png: inout png_image) -> String {
        let text = withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&png)
        return text.isEmpty ? "unknown libpng error" : text
    }
}

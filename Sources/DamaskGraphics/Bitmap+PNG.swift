import CPNG
import Foundation

/// PNG reading and writing: ``PNGEncoder`` writes every file, ``PNGDecoder`` reads the
/// common 8-bit RGB/RGBA files directly, and libpng's simplified API (which handles
/// libpng's longjmp-based errors internally, so none cross into Swift) reads the rest.
extension Bitmap {
    /// libpng's `PNG_FORMAT_BGRA`: 8-bit straight-alpha B, G, R, A bytes, which is a
    /// little-endian `0xAARRGGBB` word before premultiplication.
    private static let pngFormatBGRA: UInt32 = 0x02 | 0x01 | 0x10
    /// libpng's `PNG_FORMAT_FLAG_ALPHA`.
    private static let pngFormatFlagAlpha: UInt32 = 0x01
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
    /// 8-bit RGB and RGBA files without interlacing, palette, transparency key or a gamma
    /// other than sRGB's (what Damask, cairo and most screenshot tools write) are inflated
    /// and unfiltered by ``PNGDecoder`` straight into the bitmap's rows. Every other file,
    /// and any file that decoder finds damaged, is decoded by libpng's simplified API
    /// into the bitmap's own pixel memory (no intermediate buffer), then premultiplied in
    /// place when it has alpha. Both give the same pixels.
    ///
    /// - Throws: ``GraphicsError/pngDecodingFailed(_:)`` for malformed data, or
    ///   ``GraphicsError/invalidSize(width:height:)`` for an oversized image.
    public convenience init(pngData: [UInt8]) throws {
        try self.init(pngData: pngData, direct: true)
    }

    /// Decodes PNG bytes; `direct: false` always takes libpng's path (for tests that
    /// compare the two).
    convenience init(pngData: [UInt8], direct: Bool) throws {
        let fast = direct ? pngData.withUnsafeBytes { PNGDecoder.header(of: $0) } : nil
        let width: Int, height: Int, hasAlpha: Bool
        var png = png_image()
        png.version = Bitmap.pngImageVersion
        if let fast {
            (width, height, hasAlpha) = (fast.width, fast.height, fast.hasAlpha)
        } else {
            // The header only: width, height and whether there is alpha.
            let begun = pngData.withUnsafeBytes { raw in
                png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count)
            }
            guard begun != 0 else { throw GraphicsError.pngDecodingFailed(Bitmap.message(of: &png)) }
            (width, height, hasAlpha) = (Int(png.width), Int(png.height), png.format & Bitmap.pngFormatFlagAlpha != 0)
        }
        do {
            try Bitmap.validate(width: width, height: height)
            // Decoding writes 4 bytes per pixel whatever the file's depth: cap that first.
            guard width * height <= Bitmap.maximumPNGPixelCount else {
                throw GraphicsError.pngDecodingFailed(
                    "the image is \(width)×\(height) pixels, more than the limit of \(Bitmap.maximumPNGPixelCount) "
                        + "(7680×4320, \(Bitmap.maximumPNGPixelCount * 4 / 1_000_000) MB decoded)")
            }
            // Deflate expands at most about 1032:1, and each row needs at least a filter
            // byte and one bit per pixel: a header claiming more pixels than the data can
            // hold is a truncated or corrupt file, rejected before allocating what it claims.
            let leastRawBytes = Double(height) * (1 + (Double(width) / 8).rounded(.up))
            guard leastRawBytes <= 1_100 * Double(pngData.count) else {
                throw GraphicsError.pngDecodingFailed(
                    "the header claims \(width)×\(height) pixels, more than \(pngData.count) bytes can hold (truncated or corrupt)")
            }
            try self.init(width: width, height: height, format: .argb32Premultiplied)
        } catch {
            png_image_free(&png)
            throw error
        }
        png_image_free(&png)
        let target = bytes, stride = Int32(bytesPerRow)
        if let fast {
            let decoded = pngData.withUnsafeBytes { raw in
                PNGDecoder.decode(raw, header: fast, into: target, bytesPerRow: bytesPerRow)
            }
            if decoded { return }
        }
        // libpng keeps a pointer to the input from begin to finish, so both happen inside
        // one access to it (the header is parsed a second time; it is a few bytes).
        // BGRA bytes are little-endian 0xAARRGGBB words: the bitmap's layout before
        // premultiplication. The row stride is in components, one byte each here.
        let failure: String? = pngData.withUnsafeBytes { raw in
            var png = png_image()
            png.version = Bitmap.pngImageVersion
            guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else {
                return Bitmap.message(of: &png)
            }
            png.format = Bitmap.pngFormatBGRA
            guard png_image_finish_read(&png, nil, target, stride, nil) != 0 else { return Bitmap.message(of: &png) }
            return nil
        }
        if let failure { throw GraphicsError.pngDecodingFailed(failure) }
        if hasAlpha { premultiplyInPlace() }
    }

    /// Encodes the bitmap as PNG bytes: RGB when every pixel is opaque (always for
    /// XRGB32), RGBA otherwise.
    ///
    /// One compression pass by ``PNGEncoder``: each block of 64 rows is filtered with no
    /// filter or with Paeth, whichever deflates a sample of it smaller, and the rows are
    /// deflated at zlib's level 6 into one buffer sized by zlib's bound.
    ///
    /// - Throws: ``GraphicsError/pngEncodingFailed(_:)`` when zlib fails.
    public func pngData() throws -> [UInt8] {
        try PNGEncoder.encode(self, opaque: isPNGOpaque).bytes
    }

    /// Whether ``pngData()`` writes RGB (no alpha channel).
    var isPNGOpaque: Bool { format == .xrgb32 || isOpaque }

    /// Whether every pixel's alpha is 255.
    private var isOpaque: Bool {
        for y in 0..<height {
            let row = (bytes + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
            var all: UInt32 = 0xFF00_0000
            for x in 0..<width { all &= row[x] }
            if all != 0xFF00_0000 { return false }
        }
        return true
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

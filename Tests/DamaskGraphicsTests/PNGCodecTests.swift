import CCairo
@testable import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Damask's own PNG writer (`PNGEncoder`) and direct reader (`PNGDecoder`) against libpng:
/// every file round-trips bit for bit, the direct reader gives exactly libpng's pixels for
/// files written by cairo (whose rows use all five filter types), and files the direct
/// reader does not take, or finds damaged, are still libpng's to decode or refuse.
@Suite("PNG encoder and direct decoder", .timeLimit(.minutes(5)))
struct PNGCodecTests {
    /// Sizes that meet the edges: one pixel, one row, one column, odd widths (RGB rows of
    /// 3 × odd bytes), and heights across the encoder's 128-row sample blocks.
    static let sizes: [(Int, Int)] = [(1, 1), (1, 300), (300, 1), (2, 3), (37, 23), (129, 131), (640, 257)]

    /// A user-interface-like picture: flat areas, a gradient band, and noisy pixels (so
    /// that neither filter is trivially exact); opaque unless `alpha`, then premultiplied
    /// with alpha values from 0 to 255.
    static func picture(width: Int, height: Int, alpha: Bool, seed: UInt64) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        var generator = SeededRandom(seed: seed)
        for y in 0..<height {
            for x in 0..<width {
                let noise = generator.next()
                var r = UInt32(x * 255 / max(1, width - 1)), g = UInt32(y * 7 & 0xFF), b = UInt32(noise & 0xFF)
                if (x / 16 + y / 16).isMultiple(of: 3) { (r, g, b) = (240, 240, 236) }
                var a: UInt32 = 255
                if alpha { a = UInt32(noise >> 8 & 0xFF) }
                let straight = a << 24 | r << 16 | g << 8 | b
                bitmap.setPixel(x: x, y: y, to: Bitmap.premultiply(straight))
            }
        }
        return bitmap
    }

    /// Every pixel of `a` equals `b`'s; the first difference is reported.
    static func expectSamePixels(_ a: Bitmap, _ b: Bitmap, _ what: String) {
        #expect(a.width == b.width && a.height == b.height, "\(what): sizes differ")
        guard a.width == b.width, a.height == b.height else { return }
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                let got = String(a.pixel(x: x, y: y), radix: 16), wanted = String(b.pixel(x: x, y: y), radix: 16)
                Issue.record(Comment(rawValue: "\(what): pixel (\(x), \(y)) is \(got), expected \(wanted)"))
                return
            }
        }
    }

    /// The colour type byte of a PNG's IHDR (2 RGB, 6 RGBA).
    static func colourType(_ png: [UInt8]) -> UInt8 { png[25] }

    @Test("Opaque images are written as RGB and read back exactly, with either filter, by both readers", arguments: sizes)
    func opaqueRoundTrip(width: Int, height: Int) throws {
        let source = try Self.picture(width: width, height: height, alpha: false, seed: UInt64(width * 1_000 + height))
        for filter in [PNGEncoder.Filter.none, .paeth] {
            let png = try PNGEncoder.encode(source, opaque: true, filter: filter).bytes
            #expect(Self.colourType(png) == 2)
            #expect(png.withUnsafeBytes { PNGDecoder.header(of: $0) } != nil, "the direct reader takes its own files")
            Self.expectSamePixels(try Bitmap(pngData: png), source, "\(width)×\(height) \(filter), direct")
            Self.expectSamePixels(try Bitmap(pngData: png, direct: false), source, "\(width)×\(height) \(filter), libpng")
        }
        Self.expectSamePixels(try Bitmap(pngData: try source.pngData()), source, "\(width)×\(height) chosen filter")
    }

    @Test("Translucent images are written as RGBA and read back as libpng reads them, with either filter", arguments: sizes)
    func alphaRoundTrip(width: Int, height: Int) throws {
        let source = try Self.picture(width: width, height: height, alpha: true, seed: UInt64(width * 7 + height))
        // What straight-alpha storage can give back: each pixel unpremultiplied, then
        // premultiplied again.
        let expected = try Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                expected.setPixel(x: x, y: y, to: Bitmap.premultiply(Bitmap.unpremultiply(source.pixel(x: x, y: y))))
            }
        }
        for filter in [PNGEncoder.Filter.none, .paeth] {
            let png = try PNGEncoder.encode(source, opaque: false, filter: filter).bytes
            #expect(Self.colourType(png) == 6)
            Self.expectSamePixels(try Bitmap(pngData: png), expected, "\(width)×\(height) \(filter), direct")
            Self.expectSamePixels(try Bitmap(pngData: png, direct: false), expected, "\(width)×\(height) \(filter), libpng")
        }
    }

    @Test("A 1×1 image round-trips for fully transparent, translucent and opaque pixels")
    func onePixel() throws {
        for pixel: UInt32 in [0, 0x8040_2010, 0xFF12_3456, 0x0101_0101] {
            let source = try Bitmap(width: 1, height: 1)
            source.setPixel(x: 0, y: 0, to: pixel)
            let decoded = try Bitmap(pngData: try source.pngData())
            #expect(decoded.pixel(x: 0, y: 0) == Bitmap.premultiply(Bitmap.unpremultiply(pixel)))
        }
    }

    @Test("XRGB32 bitmaps are written as RGB whatever their unused byte holds")
    func xrgbIsOpaque() throws {
        var memory = [UInt32](repeating: 0x0012_3456, count: 4 * 3)
        try memory.withUnsafeMutableBytes { raw in
            let bitmap = try Bitmap(wrapping: raw.baseAddress!, width: 4, height: 3, bytesPerRow: 16, format: .xrgb32)
            let png = try bitmap.pngData()
            #expect(Self.colourType(png) == 2)
            #expect(try Bitmap(pngData: png).pixel(x: 3, y: 2) == 0xFF12_3456)
        }
    }

    @Test("The sampled filter is none for a screen-like picture and Paeth for a smooth photograph-like one")
    func filterChoice() throws {
        // Screen-like: flat panels, repeated text-like marks.
        let screen = try Bitmap(width: 400, height: 300)
        let context = GraphicsContext(bitmap: screen)
        context.setFillColor(Color(red: 0.95, green: 0.95, blue: 0.93, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 400, height: 300))
        for row in 0..<12 {
            context.draw("Settings \(row) — Damask", at: CGPoint(x: 12, y: CGFloat(row * 24 + 20)), font: .system(size: 14), color: .black)
        }
        #expect(try PNGEncoder.encode(screen, opaque: true).filter == .none)
        // Photograph-like: smooth two-dimensional shading with a little noise.
        let photo = try Bitmap(width: 400, height: 300)
        var generator = SeededRandom(seed: 42)
        for y in 0..<300 {
            for x in 0..<400 {
                let n = UInt32(generator.next() & 3)
                let r = UInt32(128 + 100 * sin(Double(x) / 37)) + n, g = UInt32(128 + 100 * cos(Double(y) / 23)) + n
                let b = UInt32((x + y) / 3 & 0xFF)
                photo.setPixel(x: x, y: y, to: 0xFF00_0000 | r << 16 | g << 8 | b)
            }
        }
        let encoded = try PNGEncoder.encode(photo, opaque: true)
        #expect(encoded.filter == .paeth)
        Self.expectSamePixels(try Bitmap(pngData: encoded.bytes), photo, "photograph-like")
    }

    /// `bitmap` written by cairo's PNG writer (libpng, all five filter types adaptively).
    static func cairoPNG(_ bitmap: Bitmap, format: cairo_format_t) throws -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        guard let surface = cairo_image_surface_create_for_data(
            bitmap.bytes.assumingMemoryBound(to: UInt8.self), format, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.bytesPerRow))
        else { throw GraphicsError.pngEncodingFailed("cairo could not wrap the bitmap") }
        defer { cairo_surface_destroy(surface) }
        let sink = Sink()
        // The closure pointer refers to `sink` only during the call.
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        #expect(status == CAIRO_STATUS_SUCCESS)
        return sink.bytes
    }

    @Test("Files written by cairo (all five row filters, many IDAT chunks) decode directly to libpng's pixels")
    func cairoFilesDecodeLikeLibpng() throws {
        for (width, height, alpha) in [(301, 203, false), (301, 203, true), (1, 1, false), (2, 77, true)] {
            let source = try Self.picture(width: width, height: height, alpha: alpha, seed: UInt64(width + height))
            let png = try Self.cairoPNG(source, format: alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24)
            #expect(png.withUnsafeBytes { PNGDecoder.header(of: $0) } != nil, "cairo's file is taken by the direct reader")
            Self.expectSamePixels(try Bitmap(pngData: png), try Bitmap(pngData: png, direct: false), "cairo \(width)×\(height) alpha \(alpha)")
        }
    }

    /// `png` with `chunk` inserted after IHDR.
    static func inserting(_ chunk: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + chunk + Array(png[33...])
    }

    @Test("Files with a transparency key, a palette or a non-sRGB gamma go to libpng, which applies them")
    func ineligibleFilesGoToLibpng() throws {
        let source = try Bitmap(width: 3, height: 2)
        source.fill(Color(red: 1, green: 0, blue: 0, alpha: 1))
        source.setPixel(x: 1, y: 1, to: 0xFF00_00FF)
        let png = try source.pngData()
        // tRNS for an RGB file: 16-bit R, G, B of the transparent colour (here pure blue).
        let keyed = Self.inserting(PNGLimitTests.chunk("tRNS", [0, 0, 0, 0, 0, 0xFF]), into: png)
        #expect(keyed.withUnsafeBytes { PNGDecoder.header(of: $0) } == nil)
        let decodedKeyed = try Bitmap(pngData: keyed)
        #expect(decodedKeyed.pixel(x: 1, y: 1) == 0, "the keyed colour became transparent")
        #expect(decodedKeyed.pixel(x: 0, y: 0) == 0xFFFF_0000)
        let linear = Self.inserting(PNGLimitTests.chunk("gAMA", PNGLimitTests.bigEndian(100_000)), into: png)
        #expect(linear.withUnsafeBytes { PNGDecoder.header(of: $0) } == nil)
        Self.expectSamePixels(try Bitmap(pngData: linear), try Bitmap(pngData: linear, direct: false), "gamma 1.0")
        let sRGB = Self.inserting(PNGLimitTests.chunk("gAMA", PNGLimitTests.bigEndian(45_455)), into: png)
        #expect(sRGB.withUnsafeBytes { PNGDecoder.header(of: $0) } != nil)
        Self.expectSamePixels(try Bitmap(pngData: sRGB), source, "gamma 1/2.2")
        let text = Self.inserting(PNGLimitTests.chunk("tEXt", Array("Software\u{0}Damask".utf8)), into: png)
        #expect(text.withUnsafeBytes { PNGDecoder.header(of: $0) } != nil)
        Self.expectSamePixels(try Bitmap(pngData: text), source, "with a text chunk")
    }

    /// The byte offset of the first IDAT chunk of `png` (its length field).
    static func firstIDAT(_ png: [UInt8]) -> Int {
        png.withUnsafeBytes { PNGDecoder.header(of: $0)?.firstImageChunk } ?? 0
    }

    @Test("Damaged image data is refused as libpng refuses it: wrong CRC, wrong Adler-32, truncated, unknown filter")
    func damagedDataIsRefused() throws {
        let source = try Self.picture(width: 40, height: 30, alpha: false, seed: 7)
        let png = try PNGEncoder.encode(source, opaque: true, filter: PNGEncoder.Filter.none).bytes
        let idat = Self.firstIDAT(png)
        #expect(idat > 0)
        let length = Int(png[idat]) << 24 | Int(png[idat + 1]) << 16 | Int(png[idat + 2]) << 8 | Int(png[idat + 3])
        /// `png` with its IDAT data replaced and the CRC made right again.
        func withData(_ data: [UInt8]) -> [UInt8] {
            Array(png[0..<idat]) + PNGLimitTests.chunk("IDAT", data) + Array(png[(idat + 12 + length)...])
        }
        let data = Array(png[(idat + 8)..<(idat + 8 + length)])
        var badCRC = png
        badCRC[idat + 8 + length] ^= 1
        var badAdler = data
        badAdler[badAdler.count - 1] ^= 0x55
        let truncated = withData(Array(data.prefix(data.count / 2)))
        // Rows whose filter byte is 5 (there are five types, 0…4), stored uncompressed.
        var rows = [UInt8]()
        for y in 0..<30 { rows += [y == 17 ? 5 : 0] + [UInt8](repeating: UInt8(y), count: 40 * 3) }
        let unknownFilter = withData(Self.storedZlib(rows))
        #expect(unknownFilter.withUnsafeBytes { PNGDecoder.header(of: $0) } != nil)
        var goodRows = rows
        goodRows[17 * 121] = 0
        #expect(try Bitmap(pngData: withData(Self.storedZlib(goodRows))).pixel(x: 39, y: 29) == 0xFF1D_1D1D, "the stored stream itself is valid")
        for (name, bytes) in [
            ("CRC", badCRC), ("Adler-32", withData(badAdler)), ("truncated", truncated), ("unknown filter", unknownFilter),
        ] {
            let direct = #expect(throws: GraphicsError.self, "\(name)") { _ = try Bitmap(pngData: bytes) }
            let viaLibpng = #expect(throws: GraphicsError.self, "\(name)") { _ = try Bitmap(pngData: bytes, direct: false) }
            #expect(String(describing: direct) == String(describing: viaLibpng), "\(name): the same error from both")
        }
    }

    /// `raw` as a zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func storedZlib(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start)
            let final: UInt8 = start + count == raw.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += raw[start..<start + count]
            start += count
        } while start < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + PNGLimitTests.bigEndian(b << 16 | a)
    }

    @Test("The direct reader's own round trip of a large screen-sized image matches libpng's, Paeth and none")
    func largeImage() throws {
        let source = try Self.picture(width: 1_023, height: 700, alpha: false, seed: 99)
        for filter in [PNGEncoder.Filter.none, .paeth] {
            let png = try PNGEncoder.encode(source, opaque: true, filter: filter).bytes
            Self.expectSamePixels(try Bitmap(pngData: png), source, "1023×700 \(filter)")
        }
    }
}

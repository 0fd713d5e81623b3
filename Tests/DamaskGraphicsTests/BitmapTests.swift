import DamaskGraphics
import Foundation
import Testing

@Suite("Bitmap", .timeLimit(.minutes(5)))
struct BitmapTests {
    @Test("a new bitmap is zeroed and reports its geometry")
    func zeroedAllocation() throws {
        let bitmap = try Bitmap(width: 7, height: 3)
        #expect(bitmap.width == 7 && bitmap.height == 3)
        #expect(bitmap.bytesPerRow >= 28 && bitmap.byteCount == bitmap.bytesPerRow * 3)
        #expect(bitmap.format == .argb32Premultiplied)
        for y in 0..<3 { for x in 0..<7 { #expect(bitmap.pixel(x: x, y: y) == 0) } }
    }

    @Test("bad sizes throw invalidSize naming the size")
    func badSizesThrow() {
        for (w, h) in [(0, 5), (5, -1), (-3, -3), (100_000, 100_000), (Int.max, 1)] {
            #expect(throws: GraphicsError.invalidSize(width: w, height: h)) {
                _ = try Bitmap(width: w, height: h)
            }
        }
        #expect(GraphicsError.invalidSize(width: 0, height: 5).description.contains("0×5"))
    }

    @Test("a wrapping bitmap draws into caller memory and checks the stride")
    func wrapsCallerMemory() throws {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16 * 4, alignment: 4)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        do {
            let bitmap = try Bitmap(wrapping: memory, width: 4, height: 4, bytesPerRow: 16, format: .xrgb32)
            bitmap.fill(.red)
            #expect(bitmap.bytes == memory)
            #expect(bitmap.pixel(x: 3, y: 3) == 0xFFFF_0000)
        }
        #expect(memory.load(fromByteOffset: 60, as: UInt32.self) & 0x00FF_FFFF == 0xFF_0000)
        #expect(throws: GraphicsError.self) {
            _ = try Bitmap(wrapping: memory, width: 4, height: 4, bytesPerRow: 12)
        }
    }

    @Test("fill replaces pixels and color un-premultiplies them")
    func fillAndReadBack() throws {
        let bitmap = try Bitmap(width: 2, height: 2)
        bitmap.fill(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(bitmap.pixel(x: 1, y: 1) == 0x8080_0000)
        let c = bitmap.color(x: 0, y: 0)
        #expect(c.red == 1 && abs(c.alpha - 128.0 / 255) < 1e-9)
        #expect(bitmap.pixel(x: -1, y: 0) == 0 && bitmap.pixel(x: 2, y: 0) == 0)
    }

    @Test("copy is independent and copyPixels replaces only the rect")
    func copying() throws {
        let a = try Bitmap(width: 4, height: 4)
        a.fill(.blue)
        let b = try a.copy()
        a.fill(.red)
        #expect(b.pixel(x: 0, y: 0) == 0xFF00_00FF)
        b.copyPixels(from: a, in: CGRect(x: 1, y: 1, width: 2, height: 2))
        #expect(b.pixel(x: 1, y: 1) == 0xFFFF_0000 && b.pixel(x: 2, y: 2) == 0xFFFF_0000)
        #expect(b.pixel(x: 0, y: 0) == 0xFF00_00FF && b.pixel(x: 3, y: 3) == 0xFF00_00FF)
        b.copyPixels(from: a, in: CGRect(x: -10, y: -10, width: 1000, height: 1000))  // clipped, no crash
        #expect(b.pixel(x: 3, y: 3) == 0xFFFF_0000)
    }

    @Test("PNG encoding round-trips pixels, including translucent ones")
    func pngRoundTrip() throws {
        let a = try Bitmap(width: 3, height: 2)
        a.setPixel(x: 0, y: 0, to: 0xFFFF_0000)
        a.setPixel(x: 1, y: 0, to: 0x8040_2010)
        a.setPixel(x: 2, y: 1, to: 0xFF12_3456)
        let data = try a.pngData()
        #expect(Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let b = try Bitmap(pngData: data)
        #expect(b.width == 3 && b.height == 2)
        let diff = Bitmap.difference(a, b, tolerance: 1)
        #expect(diff.differingPixelCount == 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-png-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try a.writePNG(to: path)
        let c = try Bitmap(contentsOfPNGFile: path)
        #expect(c.pixel(x: 2, y: 1) == 0xFF12_3456)
    }

    @Test("an opaque bitmap encodes as RGB (colour type 2), a translucent one as RGBA (6)")
    func pngColourTypeFollowsOpacity() throws {
        let opaque = try Bitmap(width: 37, height: 11)
        opaque.fill(Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 1))
        opaque.setPixel(x: 5, y: 3, to: 0xFF12_3456)
        let rgb = try opaque.pngData()
        // The IHDR chunk's colour type byte: 8 signature + 4 length + 4 type + 8 size + 1 depth.
        #expect(rgb[25] == 2)
        let decoded = try Bitmap(pngData: rgb)
        #expect(decoded.pixel(x: 5, y: 3) == 0xFF12_3456)
        #expect(decoded.pixel(x: 36, y: 10) == opaque.pixel(x: 36, y: 10))
        let translucent = try opaque.copy()
        translucent.setPixel(x: 0, y: 0, to: 0x8040_2010)
        let rgba = try translucent.pngData()
        #expect(rgba[25] == 6)
        let back = try Bitmap(pngData: rgba)
        #expect(back.pixel(x: 0, y: 0) == 0x8040_2010)
        #expect(back.pixel(x: 5, y: 3) == 0xFF12_3456)
    }

    @Test("malformed PNG data and missing files throw PNG errors")
    func badPNG() {
        #expect(throws: GraphicsError.self) { _ = try Bitmap(pngData: [1, 2, 3]) }
        #expect(throws: GraphicsError.self) { _ = try Bitmap(pngData: []) }
        #expect(throws: GraphicsError.self) { _ = try Bitmap(contentsOfPNGFile: "/nonexistent/x.png") }
    }

    @Test("difference counts pixels beyond tolerance and reports the largest delta")
    func differenceCounts() throws {
        let a = try Bitmap(width: 4, height: 4)
        let b = try Bitmap(width: 4, height: 4)
        b.setPixel(x: 1, y: 1, to: 0x0000_0005)
        b.setPixel(x: 2, y: 2, to: 0xFF00_0000)
        let loose = Bitmap.difference(a, b, tolerance: 10)
        #expect(loose.differingPixelCount == 1 && loose.maximumChannelDelta == 255)
        #expect(Bitmap.difference(a, b, tolerance: 0).differingPixelCount == 2)
        #expect(loose.image.pixel(x: 2, y: 2) >> 16 & 0xFF > loose.image.pixel(x: 2, y: 2) & 0xFF)
        let small = try Bitmap(width: 2, height: 4)
        #expect(Bitmap.difference(a, small, tolerance: 0).differingPixelCount == 8)
    }
}

import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// A context keeps the solid-fill image of the last colour it composited
/// (``SolidFillImageCache``) and makes a new one only for another colour.
@Suite("Solid fill image cache", .timeLimit(.minutes(1)))
struct SolidFillImageCacheTests {
    /// The pixel `image` gives when copied onto a 1 × 1 bitmap.
    private func pixel(of image: OpaquePointer) throws -> UInt32 {
        var word: UInt32 = 0
        let target = try #require(pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, &word, 4))
        pixman_image_composite32(PIXMAN_OP_SRC, image, nil, target, 0, 0, 0, 0, 0, 0, 1, 1)
        pixman_image_unref(target)
        return word
    }

    @Test("the same colour asked again gets the same image; another colour, any channel changed, gets an image of that colour")
    func sameColourSameImage() throws {
        let cache = SolidFillImageCache()
        let red = pixman_color_t(red: 0xFFFF, green: 0, blue: 0, alpha: 0xFFFF)
        let first = try #require(cache.image(of: red))
        #expect(cache.image(of: red) == first)
        #expect(try pixel(of: first) == 0xFFFF_0000)
        let others = [
            pixman_color_t(red: 0xFFFF, green: 0x8080, blue: 0, alpha: 0xFFFF),
            pixman_color_t(red: 0xFFFF, green: 0, blue: 0x8080, alpha: 0xFFFF),
            pixman_color_t(red: 0x8080, green: 0, blue: 0, alpha: 0x8080),
            pixman_color_t(red: 0x8080, green: 0, blue: 0, alpha: 0xFFFF),
        ]
        let expected: [UInt32] = [0xFFFF_8000, 0xFFFF_0080, 0x8080_0000, 0xFF80_0000]
        for (color, word) in zip(others, expected) {
            let image = try #require(cache.image(of: color))
            #expect(try pixel(of: image) == word, "\(color)")
        }
        #expect(try pixel(of: try #require(cache.image(of: red))) == 0xFFFF_0000)
    }

    @Test("a reused context painting translucent fills and text in alternating colours paints each in its own colour, as a fresh context does")
    func alternatingColoursInAReusedContext() throws {
        let font = try Font(size: 14)
        let colors = [
            Color(red: 1, green: 0, blue: 0, alpha: 0.5), Color(red: 0, green: 0, blue: 1, alpha: 0.75),
            Color(red: 1, green: 0, blue: 0, alpha: 0.5), Color(red: 0, green: 0.5, blue: 0, alpha: 1),
        ]
        let reusedBitmap = try Bitmap(width: 60, height: 24)
        let reused = GraphicsContext(bitmap: reusedBitmap)
        for (round, color) in colors.enumerated() {
            reused.resetState()
            reused.clear(CGRect(x: 0, y: 0, width: 60, height: 24))
            let freshBitmap = try Bitmap(width: 60, height: 24)
            let fresh = GraphicsContext(bitmap: freshBitmap)
            for context in [reused, fresh] {
                context.setFillColor(color)
                context.fill(CGRect(x: 2, y: 2, width: 20, height: 20))
                context.draw("Ag", at: CGPoint(x: 26, y: 18), font: font, color: color)
            }
            var differing = 0
            for y in 0..<24 {
                for x in 0..<60 where reusedBitmap.pixel(x: x, y: y) != freshBitmap.pixel(x: x, y: y) { differing += 1 }
            }
            #expect(differing == 0, "round \(round): \(differing) pixels differ from a fresh context's")
            #expect(freshBitmap.pixel(x: 10, y: 10) != 0, "round \(round): the fill should show")
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

@Suite("Bitmap opacity and placed copies", .timeLimit(.minutes(5)))
struct BitmapOpacityAndCopyTests {
    @Test("isOpaque is true only when every pixel in the rect has full alpha")
    func opacityFollowsEveryPixel() throws {
        let bitmap = try Bitmap(width: 9, height: 5)
        #expect(!bitmap.isOpaque())
        bitmap.fill(.blue)
        #expect(bitmap.isOpaque())
        // One translucent pixel, at an odd column (the tail of a row's pairs).
        bitmap.setPixel(x: 8, y: 3, to: 0x80_40_00_00)
        #expect(!bitmap.isOpaque())
        #expect(!bitmap.isOpaque(in: CGRect(x: 8, y: 3, width: 1, height: 1)))
        #expect(bitmap.isOpaque(in: CGRect(x: 0, y: 0, width: 8, height: 5)))
        #expect(bitmap.isOpaque(in: CGRect(x: 0, y: 4, width: 9, height: 1)))
        // Fractional rects round outwards.
        #expect(!bitmap.isOpaque(in: CGRect(x: 7.5, y: 2.5, width: 0.6, height: 1)))
        // An xrgb bitmap is opaque whatever its top bytes hold.
        let xrgb = try Bitmap(width: 3, height: 3, format: .xrgb32)
        #expect(xrgb.isOpaque())
    }

    @Test("isOpaque finds one translucent pixel at any column of rows of any width, and only inside the rect")
    func opacityFindsEveryColumn() throws {
        // Widths around the scan's steps (32 pixels, then 4, then a pair and one).
        for width in [1, 3, 4, 5, 15, 16, 17, 20, 31, 32, 33, 47, 70] {
            let bitmap = try Bitmap(width: width, height: 3)
            bitmap.fill(.blue)
            #expect(bitmap.isOpaque(), "width \(width)")
            for x in 0..<width {
                bitmap.setPixel(x: x, y: 1, to: 0xFE00_00FE)
                #expect(!bitmap.isOpaque(), "width \(width), column \(x)")
                // The rect starting one column later (or the rows around it) leaves it out.
                #expect(bitmap.isOpaque(in: CGRect(x: x + 1, y: 0, width: width, height: 3)), "width \(width), column \(x)")
                #expect(bitmap.isOpaque(in: CGRect(x: 0, y: 2, width: width, height: 1)), "width \(width), column \(x)")
                #expect(!bitmap.isOpaque(in: CGRect(x: x, y: 1, width: 1, height: 1)), "width \(width), column \(x)")
                bitmap.setPixel(x: x, y: 1, to: 0xFF00_00FF)
            }
        }
    }

    @Test("copyPixels(placedAt:) copies the placed source inside the region only, whole rows or not")
    func placedCopyMatchesPixman() throws {
        let source = try Bitmap(width: 6, height: 4)
        for y in 0..<4 { for x in 0..<6 { source.setPixel(x: x, y: y, to: 0xFF00_0000 | UInt32(y * 16 + x)) } }
        for (width, origin) in [(6, (x: 0, y: 2)), (10, (x: 3, y: -1)), (6, (x: -2, y: 1))] {
            let target = try Bitmap(width: width, height: 8)
            target.fill(.white)
            let region = Region(rects: [CGRect(x: 0, y: 0, width: width, height: 8)]).subtracting(
                Region(CGRect(x: 1, y: 3, width: 1, height: 1)))
            target.copyPixels(from: source, placedAt: origin, in: region)
            for y in 0..<8 {
                for x in 0..<width {
                    let sx = x - origin.x, sy = y - origin.y
                    let inside = sx >= 0 && sy >= 0 && sx < 6 && sy < 4 && !(x == 1 && y == 3)
                    let expected = inside ? source.pixel(x: sx, y: sy) : 0xFFFF_FFFF
                    #expect(target.pixel(x: x, y: y) == expected, "width \(width) origin \(origin) at \(x),\(y)")
                }
            }
        }
    }
}

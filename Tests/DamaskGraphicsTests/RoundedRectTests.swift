import DamaskGraphics
import Foundation
import Testing

/// `Path.addRoundedRect(in:cornerWidth:cornerHeight:)`, which only `Path(roundedRect:)`
/// reached before (and never with radii beyond the sides): its clamping and its pixels.
@Suite("Rounded rectangles", .timeLimit(.minutes(5)))
struct RoundedRectTests {
    /// `path` filled black on white into a fresh 48×32 bitmap.
    func filled(_ path: Path) throws -> Bitmap {
        let bitmap = try Bitmap(width: 48, height: 32)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: 48, height: 32))
        context.setFillColor(.black)
        context.fill(path)
        return bitmap
    }

    func same(_ a: Bitmap, _ b: Bitmap) -> Bool {
        Bitmap.difference(a, b, tolerance: 0).differingPixelCount == 0
    }

    @Test("Corner radii beyond half a side are clamped to it: the shape is the inscribed ellipse")
    func radiiAreClampedToHalfTheSides() throws {
        let rect = CGRect(x: 4, y: 6, width: 40, height: 20)
        var huge = Path()
        huge.addRoundedRect(in: rect, cornerWidth: 100, cornerHeight: 1_000)
        #expect(huge.boundingBox == rect)
        #expect(same(try filled(huge), try filled(Path(ellipseIn: rect))))
        var half = Path()
        half.addRoundedRect(in: rect, cornerWidth: 20, cornerHeight: 10)
        #expect(same(try filled(huge), try filled(half)))
    }

    @Test("A zero, negative or NaN radius gives the plain rectangle")
    func degenerateRadiiGiveTheRectangle() throws {
        let rect = CGRect(x: 4, y: 6, width: 40, height: 20)
        let plain = try filled(Path(rect: rect))
        for (width, height) in [(0.0, 5.0), (5.0, 0.0), (-3.0, 4.0), (CGFloat.nan, 4.0)] {
            var path = Path()
            path.addRoundedRect(in: rect, cornerWidth: width, cornerHeight: height)
            #expect(same(try filled(path), plain), "radii \(width), \(height)")
        }
    }

    @Test("Corners are cut: a corner pixel stays white, the middle of each side is filled, and the path is closed")
    func cornersAreRounded() throws {
        let rect = CGRect(x: 4, y: 6, width: 40, height: 20)
        var path = Path()
        path.addRoundedRect(in: CGRect(x: 44, y: 26, width: -40, height: -20), cornerWidth: 8, cornerHeight: 6)
        #expect(path.boundingBox == rect, "a rectangle of negative size is standardized")
        let bitmap = try filled(path)
        let white = Color.white.premultipliedARGB32, black = Color.black.premultipliedARGB32
        for (x, y) in [(4, 6), (43, 6), (4, 25), (43, 25)] { #expect(bitmap.pixel(x: x, y: y) == white, "corner \(x),\(y)") }
        for (x, y) in [(24, 6), (24, 25), (4, 16), (43, 16), (24, 16)] { #expect(bitmap.pixel(x: x, y: y) == black, "\(x),\(y)") }
        #expect(path.elements.last == .closeSubpath)
    }
}

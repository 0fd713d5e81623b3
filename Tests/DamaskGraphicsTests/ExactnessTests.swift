import DamaskGraphics
import Foundation
import Testing

/// Every primitive, used by the clip and bad-input tests.
struct Primitive: CustomStringConvertible, Sendable {
    let description: String
    let draw: @Sendable (GraphicsContext, CGFloat) -> Void

    /// Primitives drawn with a coordinate `v` substituted into their geometry (`v` is
    /// a normal value such as 0 for the clip tests, and NaN, ±∞ or huge for bad input).
    static let all: [Primitive] = [
        Primitive(description: "fill rect") { c, v in c.fill(CGRect(x: v - 5, y: -5, width: 100, height: 100)) },
        Primitive(description: "fractional fill rect") { c, v in c.fill(CGRect(x: v + 0.3, y: 0.6, width: 39.2, height: 38.1)) },
        Primitive(description: "stroke rect") { c, v in c.setLineWidth(9); c.stroke(CGRect(x: v + 8, y: 8, width: 24, height: 24)) },
        Primitive(description: "clear rect") { c, v in c.clear(CGRect(x: v, y: 0, width: 40, height: 40)) },
        Primitive(description: "fill path") { c, v in
            var p = Path(ellipseIn: CGRect(x: v - 10, y: -10, width: 60, height: 60))
            p.addCurve(to: CGPoint(x: 40, y: v), control1: CGPoint(x: 60, y: 60), control2: CGPoint(x: -20, y: 50))
            c.fill(p, using: .evenOdd)
        },
        Primitive(description: "stroke path") { c, v in
            c.setLineWidth(12); c.setLineCap(.square); c.setLineJoin(.miter)
            var p = Path(); p.move(to: CGPoint(x: 2, y: 2)); p.addLine(to: CGPoint(x: 38, y: v + 20)); p.addLine(to: CGPoint(x: 2, y: 38))
            c.stroke(p)
        },
        Primitive(description: "dashed round stroke") { c, v in
            c.setLineWidth(8); c.setLineCap(.round); c.setLineDash(phase: v, lengths: [3, 4])
            c.strokeEllipse(in: CGRect(x: 4, y: 4, width: 32, height: 32))
        },
        Primitive(description: "fill ellipse") { c, v in c.fillEllipse(in: CGRect(x: v, y: 0, width: 40, height: 40)) },
        Primitive(description: "line segments") { c, v in c.setLineWidth(30); c.strokeLineSegments(between: [CGPoint(x: v, y: 0), CGPoint(x: 40, y: 40)]) },
        Primitive(description: "rotated rect") { c, v in c.rotate(by: 0.3); c.fill(CGRect(x: v, y: -20, width: 80, height: 80)) },
        Primitive(description: "bitmap direct") { c, v in c.draw(Primitive.checker, in: CGRect(x: v, y: 0, width: 40, height: 40)) },
        Primitive(description: "bitmap scaled") { c, v in c.draw(Primitive.checker, in: CGRect(x: v - 3, y: -3, width: 47, height: 47)) },
        Primitive(description: "bitmap rotated") { c, v in
            c.translateBy(x: 20, y: 20); c.rotate(by: 0.7)
            c.draw(Primitive.checker, in: CGRect(x: v - 30, y: -30, width: 60, height: 60), interpolation: .none)
        },
        Primitive(description: "linear gradient") { c, v in
            c.drawLinearGradient(colors: [.red, .blue], locations: nil, start: CGPoint(x: v - 50, y: 0), end: CGPoint(x: 90, y: 0), options: [.drawsAfterEndLocation])
        },
        Primitive(description: "radial gradient") { c, v in
            c.drawRadialGradient(colors: [.red, .green], locations: [0, 1], startCenter: CGPoint(x: 20, y: v + 20), startRadius: 0, endCenter: CGPoint(x: 20, y: 20), endRadius: 60)
        },
        Primitive(description: "text") { c, v in
            c.draw("WWWWWWWW", at: CGPoint(x: v - 4, y: 30), font: Font.system(size: 30), color: .red)
        },
        Primitive(description: "rotated text") { c, v in
            c.rotate(by: 0.2); c.draw("WWWWWW", at: CGPoint(x: v - 4, y: 30), font: Font.system(size: 30), color: .red)
        },
        Primitive(description: "copy blend") { c, v in c.setBlendMode(.copy); c.setFillColor(.clear); c.fillEllipse(in: CGRect(x: v - 5, y: -5, width: 50, height: 50)) },
        Primitive(description: "sourceIn blend") { c, v in c.setBlendMode(.sourceIn); c.fillEllipse(in: CGRect(x: v - 5, y: -5, width: 50, height: 50)) },
    ]

    nonisolated(unsafe) static let checker: Bitmap = {
        let bitmap = try! Bitmap(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { bitmap.setPixel(x: x, y: y, to: (x + y) % 2 == 0 ? 0xFF00_FF00 : 0xFF00_00FF) } }
        return bitmap
    }()
}

@Suite("Exactness", .timeLimit(.minutes(5)))
struct ExactnessTests {
    private static let guardPixel: UInt32 = 0xFF20_4060

    @Test("an integer-aligned opaque rect fill touches exactly its pixels")
    func exactRectFill() throws {
        for transform in [CGAffineTransform.identity, CGAffineTransform(translationX: 3, y: 2), CGAffineTransform(scaleX: 2, y: 2)] {
            let bitmap = try Bitmap(width: 30, height: 30)
            let context = GraphicsContext(bitmap: bitmap)
            context.concatenate(transform)
            context.setFillColor(.red)
            let rect = CGRect(x: 4, y: 5, width: 6, height: 3)
            context.fill(rect)
            let device = rect.applying(transform)
            for y in 0..<30 {
                for x in 0..<30 {
                    let inside = device.contains(CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5))
                    #expect(bitmap.pixel(x: x, y: y) == (inside ? 0xFFFF_0000 : 0), "pixel \(x),\(y) under \(transform)")
                }
            }
        }
    }

    @Test("an edge through the middle of a pixel gives about half coverage")
    func halfCoverage() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.fill(CGRect(x: 2.5, y: 2, width: 5, height: 6.5))
        #expect(abs(Int(bitmap.pixel(x: 2, y: 4) >> 24) - 128) <= 3)  // left edge
        #expect(abs(Int(bitmap.pixel(x: 7, y: 4) >> 24) - 128) <= 3)  // right edge
        #expect(abs(Int(bitmap.pixel(x: 4, y: 8) >> 24) - 128) <= 3)  // bottom edge
        #expect(abs(Int(bitmap.pixel(x: 2, y: 8) >> 24) - 64) <= 4)  // corner: a quarter
        #expect(bitmap.pixel(x: 4, y: 4) == 0xFF00_0000)
        #expect(bitmap.pixel(x: 1, y: 4) == 0 && bitmap.pixel(x: 8, y: 4) == 0)
    }

    @Test("without antialiasing coverage is all or nothing, by pixel centres")
    func aliased() throws {
        let bitmap = try Bitmap(width: 10, height: 10)
        let context = GraphicsContext(bitmap: bitmap)
        context.setShouldAntialias(false)
        context.fillEllipse(in: CGRect(x: 0.3, y: 0.7, width: 9, height: 8.2))
        for y in 0..<10 { for x in 0..<10 { #expect([0, 0xFF00_0000].contains(bitmap.pixel(x: x, y: y))) } }
        #expect(bitmap.pixel(x: 5, y: 5) == 0xFF00_0000)
    }

    @Test("no primitive writes outside a rect clip", arguments: Primitive.all)
    func rectClipGuard(primitive: Primitive) throws {
        try checkGuard(primitive) { $0.clip(to: CGRect(x: 10, y: 12, width: 17, height: 15)) } inside: { x, y in
            (10..<27).contains(x) && (12..<27).contains(y)
        }
    }

    @Test("no primitive writes outside a path clip", arguments: Primitive.all)
    func pathClipGuard(primitive: Primitive) throws {
        try checkGuard(primitive) {
            $0.clip(to: Path(ellipseIn: CGRect(x: 8, y: 8, width: 24, height: 24)))
        } inside: { x, y in
            // Any pixel touching the ellipse's bounding box may be partially covered.
            (8..<32).contains(x) && (8..<32).contains(y)
        }
    }

    @Test("no primitive writes outside a region clip under a transform", arguments: Primitive.all)
    func regionClipGuard(primitive: Primitive) throws {
        try checkGuard(primitive) { context in
            context.clip(to: Region(rects: [CGRect(x: 5, y: 5, width: 6, height: 30), CGRect(x: 25, y: 5, width: 6, height: 30)]))
            context.translateBy(x: 0.5, y: 0.25)
        } inside: { x, y in
            ((5..<11).contains(x) || (25..<31).contains(x)) && (5..<35).contains(y)
        }
    }

    private func checkGuard(
        _ primitive: Primitive, clip: (GraphicsContext) -> Void, inside: (Int, Int) -> Bool
    ) throws {
        let bitmap = try Bitmap(width: 40, height: 40)
        for y in 0..<40 { for x in 0..<40 { bitmap.setPixel(x: x, y: y, to: ExactnessTests.guardPixel) } }
        let context = GraphicsContext(bitmap: bitmap)
        clip(context)
        context.setFillColor(.red)
        context.setStrokeColor(.blue)
        primitive.draw(context, 0)
        var changedInside = 0
        for y in 0..<40 {
            for x in 0..<40 {
                let unchanged = bitmap.pixel(x: x, y: y) == ExactnessTests.guardPixel
                if inside(x, y) {
                    if !unchanged { changedInside += 1 }
                } else {
                    #expect(unchanged, "\(primitive) wrote outside the clip at \(x),\(y)")
                }
            }
        }
        #expect(changedInside > 0, "\(primitive) drew nothing inside the clip")
    }
}

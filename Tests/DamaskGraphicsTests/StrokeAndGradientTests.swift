import DamaskGraphics
import Foundation
import Testing

@Suite("Stroke geometry and gradients", .timeLimit(.minutes(5)))
struct StrokeAndGradientTests {
    private func render(width: Int = 20, height: Int = 12, _ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        draw(GraphicsContext(bitmap: bitmap))
        return bitmap
    }

    private func inked(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Bool { bitmap.pixel(x: x, y: y) >> 24 > 250 }
    private func blank(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Bool { bitmap.pixel(x: x, y: y) == 0 }

    @Test("butt caps end at the end points; square caps extend by half the width")
    func caps() throws {
        for (cap, extra) in [(LineCap.butt, 0), (.square, 1)] {
            let bitmap = try render { ctx in
                ctx.setLineWidth(2)
                ctx.setLineCap(cap)
                ctx.strokeLineSegments(between: [CGPoint(x: 4, y: 5), CGPoint(x: 10, y: 5)])
            }
            for x in (4 - extra)..<(10 + extra) {
                #expect(inked(bitmap, x, 4) && inked(bitmap, x, 5), "\(cap) at \(x)")
            }
            #expect(blank(bitmap, 3 - extra, 5) && blank(bitmap, 10 + extra, 5), "\(cap) overshoots")
            #expect(blank(bitmap, 6, 3) && blank(bitmap, 6, 6))
        }
    }

    @Test("round caps add a half disc beyond the end point")
    func roundCap() throws {
        let bitmap = try render { ctx in
            ctx.setLineWidth(6)
            ctx.setLineCap(.round)
            ctx.strokeLineSegments(between: [CGPoint(x: 6, y: 6), CGPoint(x: 12, y: 6)])
        }
        #expect(inked(bitmap, 4, 5) && inked(bitmap, 13, 6))  // inside the discs
        // Square caps would ink the corners fully; round ones barely touch them.
        #expect(bitmap.pixel(x: 3, y: 3) >> 24 < 64 && bitmap.pixel(x: 14, y: 3) >> 24 < 64)
    }

    @Test("a zero-length subpath draws a dot with round caps and nothing with butt caps")
    func zeroLengthSubpath() throws {
        for (cap, expectsDot) in [(LineCap.round, true), (.butt, false)] {
            let bitmap = try render { ctx in
                ctx.setLineWidth(4)
                ctx.setLineCap(cap)
                ctx.strokeLineSegments(between: [CGPoint(x: 8, y: 6), CGPoint(x: 8, y: 6)])
            }
            #expect(inked(bitmap, 7, 5) == expectsDot, "\(cap)")
        }
    }

    @Test("a sharp miter reaches its tip; above the miter limit it is bevelled")
    func miterLimit() throws {
        func tipInk(limit: CGFloat) throws -> UInt32 {
            let bitmap = try render(width: 30, height: 30) { ctx in
                ctx.setLineWidth(4)
                ctx.setLineJoin(.miter)
                ctx.setMiterLimit(limit)
                var v = Path()
                v.move(to: CGPoint(x: 5, y: 28))
                v.addLine(to: CGPoint(x: 15, y: 10))
                v.addLine(to: CGPoint(x: 25, y: 28))
                ctx.stroke(v)
            }
            return bitmap.pixel(x: 15, y: 7) >> 24  // beyond the half width, on the miter's tip
        }
        #expect(try tipInk(limit: 10) > 200)
        #expect(try tipInk(limit: 1.2) == 0)
    }

    @Test("dashes alternate on and off from the phase")
    func dashes() throws {
        let bitmap = try render { ctx in
            ctx.setLineWidth(2)
            ctx.setLineDash(phase: 1, lengths: [2, 3])
            ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 5), CGPoint(x: 20, y: 5)])
        }
        // Phase 1: on [0,1), off [1,4), on [4,6), off [6,9), on [9,11) …
        let expected = [true, false, false, false, true, true, false, false, false, true, true]
        for (x, on) in expected.enumerated() {
            #expect(inked(bitmap, x, 5) == on, "column \(x)")
        }
    }

    @Test("a stroke under a non-uniform scale is wider along the stretched axis")
    func nonUniformScaleStroke() throws {
        let bitmap = try render(width: 40, height: 40) { ctx in
            ctx.scaleBy(x: 4, y: 1)
            ctx.setLineWidth(2)
            ctx.stroke(CGRect(x: 2, y: 10, width: 6, height: 20))
        }
        // Vertical edges are 8 px wide (2 × 4), horizontal edges 2 px tall.
        #expect(inked(bitmap, 4, 20) && inked(bitmap, 11, 20) && blank(bitmap, 12, 20))
        #expect(inked(bitmap, 20, 9) && inked(bitmap, 20, 10) && blank(bitmap, 20, 11) && blank(bitmap, 20, 8))
    }

    @Test("a linear gradient interpolates between its stops along its axis")
    func linearGradientValues() throws {
        let bitmap = try render(width: 101, height: 4) { ctx in
            ctx.drawLinearGradient(colors: [.red, .blue], locations: nil, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 101, y: 0))
        }
        let mid = bitmap.pixel(x: 50, y: 1)
        #expect(mid >> 24 == 0xFF)
        #expect(abs(Int(mid >> 16 & 0xFF) - 128) <= 3 && abs(Int(mid & 0xFF) - 128) <= 3)
        #expect(bitmap.pixel(x: 0, y: 1) >> 16 & 0xFF > 250)
        #expect(bitmap.pixel(x: 100, y: 1) & 0xFF > 250)
    }

    @Test("a gradient to a transparent colour fades alpha without darkening")
    func gradientToClear() throws {
        let bitmap = try render(width: 101, height: 2) { ctx in
            ctx.drawLinearGradient(colors: [.red, Color.red.withAlphaComponent(0)], locations: nil,
                                   start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 100.5, y: 0))
        }
        let color = bitmap.color(x: 50, y: 0)
        #expect(abs(color.alpha - 0.5) < 0.03)
        #expect(color.red > 0.97 && color.green < 0.03)
    }

    @Test("without options nothing is painted before the start or after the end")
    func gradientExtent() throws {
        let plain = try render(width: 30, height: 2) { ctx in
            ctx.drawLinearGradient(colors: [.red, .blue], locations: nil, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 20, y: 0))
        }
        #expect(plain.pixel(x: 5, y: 0) == 0 && plain.pixel(x: 25, y: 0) == 0 && plain.pixel(x: 15, y: 0) != 0)
        let padded = try render(width: 30, height: 2) { ctx in
            ctx.drawLinearGradient(colors: [.red, .blue], locations: nil, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 20, y: 0),
                                   options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        }
        #expect(padded.pixel(x: 5, y: 0) == 0xFFFF_0000 && padded.pixel(x: 25, y: 0) == 0xFF00_00FF)
    }

    @Test("a radial gradient is the start colour at its centre and the end colour at its rim")
    func radialGradientValues() throws {
        let bitmap = try render(width: 41, height: 41) { ctx in
            ctx.drawRadialGradient(colors: [.white, .black], locations: nil, startCenter: CGPoint(x: 20.5, y: 20.5), startRadius: 0,
                                   endCenter: CGPoint(x: 20.5, y: 20.5), endRadius: 20)
        }
        #expect(bitmap.pixel(x: 20, y: 20) & 0xFF > 245)
        #expect(bitmap.pixel(x: 20, y: 1) & 0xFF < 20)
        #expect(abs(Int(bitmap.pixel(x: 30, y: 20) & 0xFF) - 128) < 12)
    }
}

extension StrokeAndGradientTests {
    @Test("a zero line width strokes a one-pixel hairline whatever the scale")
    func hairline() throws {
        let bitmap = try render { ctx in
            ctx.scaleBy(x: 3, y: 3)
            ctx.setLineWidth(0)
            ctx.strokeLineSegments(between: [CGPoint(x: 1, y: 1.5), CGPoint(x: 5, y: 1.5)])
        }
        #expect(inked(bitmap, 8, 4))
        #expect(blank(bitmap, 8, 3) && blank(bitmap, 8, 5))
    }

    @Test("high-quality shrinking averages detail that bilinear sampling would alias")
    func highQualityDownscale() throws {
        let stripes = try Bitmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { stripes.setPixel(x: x, y: y, to: x % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF) } }
        func shrink(_ quality: InterpolationQuality) throws -> [Int] {
            let bitmap = try render(width: 6, height: 6) { ctx in
                ctx.draw(stripes, in: CGRect(x: 0, y: 0, width: 6, height: 6), interpolation: quality)
            }
            return (0..<6).map { Int(bitmap.pixel(x: $0, y: 3) & 0xFF) }
        }
        let high = try shrink(.high), bilinear = try shrink(.default)
        #expect(high.allSatisfy { abs($0 - 128) < 20 }, "\(high) should all be mid grey")
        #expect(bilinear.contains { abs($0 - 128) > 40 }, "\(bilinear) shows the aliasing .high avoids")
    }
}

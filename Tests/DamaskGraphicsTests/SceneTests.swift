import DamaskGraphics
import Foundation
import Testing

/// Renders one small scene per drawing feature and compares it with its reference.
@Suite("Reference scenes", .timeLimit(.minutes(5)))
struct SceneTests {
    private func scene(width: Int = 64, height: Int = 64, _ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        bitmap.fill(.white)
        draw(GraphicsContext(bitmap: bitmap))
        return bitmap
    }

    @Test("rect fill, stroke and clear under transforms match the reference")
    func rects() throws {
        let image = try scene { ctx in
            ctx.setFillColor(.systemBlue)
            ctx.fill(CGRect(x: 4, y: 4, width: 24, height: 16))
            ctx.setStrokeColor(.red)
            ctx.setLineWidth(3)
            ctx.stroke(CGRect(x: 36.5, y: 4.5, width: 22, height: 16))
            ctx.clear(CGRect(x: 8, y: 8, width: 8, height: 8))
            ctx.saveGState()
            ctx.translateBy(x: 32, y: 44)
            ctx.rotate(by: .pi / 6)
            ctx.setFillColor(Color.systemGreen.withAlphaComponent(0.7))
            ctx.fill(CGRect(x: -12, y: -8, width: 24, height: 16))
            ctx.restoreGState()
            ctx.setFillColor(.orange)
            ctx.fill(CGRect(x: 2.5, y: 50.25, width: 10, height: 10.5))
        }
        try ReferenceImage.check(image, named: "rects")
    }

    @Test("paths: curves, arcs, rounded rects, both fill rules match the reference")
    func paths() throws {
        let image = try scene { ctx in
            var star = Path()
            for i in 0..<5 {
                let angle = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
                let p = CGPoint(x: 16 + 13 * cos(angle), y: 16 + 13 * sin(angle))
                if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
            }
            star.closeSubpath()
            ctx.setFillColor(.systemYellow)
            ctx.fill(star, using: .winding)
            ctx.translateBy(x: 32, y: 0)
            ctx.setFillColor(.systemRed)
            ctx.fill(star, using: .evenOdd)
            ctx.translateBy(x: -32, y: 32)
            ctx.setFillColor(.systemBlue)
            ctx.fill(Path(roundedRect: CGRect(x: 2, y: 2, width: 28, height: 20), cornerRadius: 6))
            ctx.beginPath()
            ctx.move(to: CGPoint(x: 34, y: 28))
            ctx.addQuadCurve(to: CGPoint(x: 62, y: 28), control: CGPoint(x: 48, y: 0))
            ctx.addCurve(to: CGPoint(x: 34, y: 28), control1: CGPoint(x: 56, y: 34), control2: CGPoint(x: 40, y: 34))
            ctx.closePath()
            ctx.setFillColor(.darkGray)
            ctx.fillPath()
            ctx.beginPath()
            ctx.move(to: CGPoint(x: 16, y: 12))
            ctx.addArc(center: CGPoint(x: 16, y: 12), radius: 7, startAngle: 0, endAngle: .pi * 1.5, clockwise: true)
            ctx.closePath()
            ctx.setFillColor(.white)
            ctx.fillPath()
        }
        try ReferenceImage.check(image, named: "paths")
    }

    @Test("strokes: caps, joins, miter limit and dashes match the reference")
    func strokes() throws {
        let image = try scene(width: 96) { ctx in
            ctx.setStrokeColor(.black)
            ctx.setLineWidth(6)
            let caps: [LineCap] = [.butt, .round, .square]
            for (i, cap) in caps.enumerated() {
                ctx.setLineCap(cap)
                ctx.strokeLineSegments(between: [CGPoint(x: 10, y: 8 + 10 * CGFloat(i)), CGPoint(x: 40, y: 8 + 10 * CGFloat(i))])
            }
            let joins: [LineJoin] = [.miter, .round, .bevel]
            ctx.setLineCap(.butt)
            ctx.setStrokeColor(.systemBlue)
            for (i, join) in joins.enumerated() {
                ctx.setLineJoin(join)
                var v = Path()
                let x = 52 + 14 * CGFloat(i)
                v.move(to: CGPoint(x: x, y: 30))
                v.addLine(to: CGPoint(x: x + 5, y: 8))
                v.addLine(to: CGPoint(x: x + 10, y: 30))
                ctx.stroke(v)
            }
            ctx.setLineJoin(.miter)
            ctx.setMiterLimit(1.5)
            var sharp = Path()
            sharp.move(to: CGPoint(x: 10, y: 60))
            sharp.addLine(to: CGPoint(x: 20, y: 40))
            sharp.addLine(to: CGPoint(x: 30, y: 60))
            ctx.setStrokeColor(.systemRed)
            ctx.stroke(sharp)
            ctx.setLineWidth(3)
            ctx.setLineCap(.round)
            ctx.setLineDash(phase: 2, lengths: [8, 5])
            ctx.setStrokeColor(.systemGreen)
            ctx.strokeEllipse(in: CGRect(x: 44, y: 38, width: 44, height: 22))
        }
        try ReferenceImage.check(image, named: "strokes")
    }

    @Test("clips: rect, path with even-odd, region, restored by restoreGState")
    func clips() throws {
        let image = try scene { ctx in
            ctx.saveGState()
            ctx.clip(to: Path(ellipseIn: CGRect(x: 4, y: 4, width: 40, height: 40)))
            ctx.clip(to: CGRect(x: 0, y: 0, width: 30, height: 64))
            ctx.setFillColor(.systemBlue)
            ctx.fill(ctx.bitmap.bounds)
            ctx.restoreGState()
            ctx.saveGState()
            ctx.clip(to: Region(rects: [CGRect(x: 40, y: 40, width: 8, height: 20), CGRect(x: 52, y: 40, width: 8, height: 20)]))
            ctx.setFillColor(.systemRed)
            ctx.fillEllipse(in: CGRect(x: 36, y: 36, width: 28, height: 28))
            ctx.restoreGState()
            ctx.setFillColor(Color.black.withAlphaComponent(0.5))
            ctx.fill(CGRect(x: 0, y: 60, width: 64, height: 4))
        }
        try ReferenceImage.check(image, named: "clips")
    }

    @Test("bitmaps: direct, scaled nearest and bilinear, rotated, with alpha")
    func bitmaps() throws {
        let checker = try Bitmap(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 {
            checker.setPixel(x: x, y: y, to: (x + y) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_CC00)
        } }
        let image = try scene { ctx in
            ctx.draw(checker, in: CGRect(x: 2, y: 2, width: 4, height: 4))
            ctx.draw(checker, in: CGRect(x: 10, y: 2, width: 20, height: 20), interpolation: .none)
            ctx.draw(checker, in: CGRect(x: 34, y: 2, width: 20, height: 20), interpolation: .default)
            ctx.saveGState()
            ctx.translateBy(x: 20, y: 44)
            ctx.rotate(by: .pi / 5)
            ctx.draw(checker, in: CGRect(x: -10, y: -10, width: 20, height: 20), interpolation: .none)
            ctx.restoreGState()
            ctx.draw(checker, in: CGRect(x: 40, y: 36, width: 20, height: 20), alpha: 0.4, interpolation: .none)
        }
        try ReferenceImage.check(image, named: "bitmaps")
    }

    @Test("gradients: linear and radial, with locations, match the reference")
    func gradients() throws {
        let image = try scene { ctx in
            ctx.saveGState()
            ctx.clip(to: CGRect(x: 4, y: 4, width: 56, height: 24))
            ctx.drawLinearGradient(
                colors: [.systemRed, .systemYellow, .systemBlue], locations: [0, 0.3, 1],
                start: CGPoint(x: 4, y: 0), end: CGPoint(x: 60, y: 0))
            ctx.restoreGState()
            ctx.saveGState()
            ctx.clip(to: CGRect(x: 4, y: 32, width: 56, height: 28))
            ctx.drawRadialGradient(
                colors: [.white, .systemGreen, Color.systemGreen.withAlphaComponent(0)], locations: nil,
                startCenter: CGPoint(x: 26, y: 42), startRadius: 0, endCenter: CGPoint(x: 32, y: 46), endRadius: 20)
            ctx.restoreGState()
        }
        try ReferenceImage.check(image, named: "gradients")
    }

    @Test("blend modes normal, copy and clear on a translucent colour match the reference")
    func blendModes() throws {
        let image = try scene { ctx in
            ctx.setFillColor(.systemBlue)
            ctx.fill(CGRect(x: 0, y: 16, width: 64, height: 32))
            let translucentRed = Color.red.withAlphaComponent(0.5)
            ctx.setFillColor(translucentRed)
            let modes: [BlendMode] = [.normal, .copy, .clear]
            for (i, mode) in modes.enumerated() {
                ctx.setBlendMode(mode)
                ctx.fillEllipse(in: CGRect(x: 2 + 21 * CGFloat(i), y: 22, width: 18, height: 18))
            }
        }
        try ReferenceImage.check(image, named: "blend-modes")
    }
}

extension SceneTests {
    @Test("text: sizes, colours, scaled and rotated, with a missing glyph match the reference")
    func text() throws {
        let image = try scene(width: 128, height: 64) { ctx in
            let font = Font.system(size: 12)
            ctx.draw("Damask Ag", at: CGPoint(x: 4, y: 14), font: font, color: .black)
            ctx.draw("bold", at: CGPoint(x: 80, y: 14), font: Font.system(size: 12, weight: .bold), color: .systemBlue)
            ctx.saveGState()
            ctx.scaleBy(x: 2, y: 2)
            ctx.draw("2×", at: CGPoint(x: 2, y: 28), font: font, color: .systemRed)
            ctx.restoreGState()
            ctx.saveGState()
            ctx.translateBy(x: 60, y: 58)
            ctx.rotate(by: -.pi / 8)
            ctx.draw("tilt \u{E000}", at: .zero, font: font, color: .darkGray)
            ctx.restoreGState()
        }
        try ReferenceImage.check(image, named: "text", tolerance: 8, allowedPixels: 4)
    }
}

import DamaskGraphics
import Foundation
import Testing

/// Solid fills and strokes are composited straight from the scan converter's spans when
/// only a rectangular clip applies, and through a coverage mask and pixman otherwise
/// (a non-rectangular clip region forces that path). Both must give the same pixels.
@Suite("Direct span painting", .timeLimit(.minutes(5)))
struct SpanPainterTests {
    /// A deterministic generator (SplitMix64) so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> CGFloat { CGFloat(next() >> 11) / CGFloat(1 << 53) }
    }

    /// A bitmap of valid premultiplied noise (every channel ≤ alpha).
    static func noise(width: Int, height: Int, format: PixelFormat, generator: inout Generator) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height, format: format)
        for y in 0..<height {
            for x in 0..<width {
                let value = generator.next()
                let alpha = format == .xrgb32 ? 255 : UInt32(value & 0xFF)
                let r = UInt32((value >> 8) & 0xFF) * alpha / 255
                let g = UInt32((value >> 16) & 0xFF) * alpha / 255
                let b = UInt32((value >> 24) & 0xFF) * alpha / 255
                bitmap.setPixel(x: x, y: y, to: alpha << 24 | r << 16 | g << 8 | b)
            }
        }
        return bitmap
    }

    /// Draws `draw` on two copies of the same noise, one clipped to everything but pixel
    /// (0, 0), which is two rectangles (so the mask path runs), and returns how many
    /// pixels other than (0, 0) differ.
    static func differingPixels(
        format: PixelFormat, seed: UInt64, _ draw: (GraphicsContext, inout Generator) -> Void
    ) throws -> Int {
        var generator = Generator(state: seed)
        let direct = try noise(width: 96, height: 80, format: format, generator: &generator)
        let masked = try direct.copy()
        var drawing = generator
        draw(GraphicsContext(bitmap: direct), &drawing)
        drawing = generator
        let context = GraphicsContext(bitmap: masked)
        context.clip(to: [CGRect(x: 1, y: 0, width: 95, height: 1), CGRect(x: 0, y: 1, width: 96, height: 79)])
        #expect(context.clipRegion.rects.count == 2, "the clip must not be one rectangle")
        draw(context, &drawing)
        let channels: UInt32 = format == .xrgb32 ? 0x00FF_FFFF : 0xFFFF_FFFF
        var count = 0
        for y in 0..<80 {
            for x in 0..<96 where (x, y) != (0, 0) && direct.pixel(x: x, y: y) & channels != masked.pixel(x: x, y: y) & channels {
                count += 1
            }
        }
        return count
    }

    static func randomColor(_ generator: inout Generator, opaque: Bool) -> Color {
        Color(
            red: generator.unit(), green: generator.unit(), blue: generator.unit(),
            alpha: opaque ? 1 : generator.unit())
    }

    @Test(
        "filled shapes composited from spans equal pixman's mask compositing, bit for bit",
        arguments: [PixelFormat.argb32Premultiplied, .xrgb32])
    func fillsMatchMaskCompositing(format: PixelFormat) throws {
        for seed in UInt64(1)...24 {
            let differing = try Self.differingPixels(format: format, seed: seed) { context, generator in
                context.setFillColor(Self.randomColor(&generator, opaque: seed.isMultiple(of: 3)))
                if seed.isMultiple(of: 4) { context.setAlpha(generator.unit()) }
                if seed.isMultiple(of: 5) { context.setShouldAntialias(false) }
                var path = Path()
                for _ in 0..<3 {
                    path.move(to: CGPoint(x: generator.unit() * 110 - 7, y: generator.unit() * 94 - 7))
                    for _ in 0..<5 {
                        path.addLine(to: CGPoint(x: generator.unit() * 110 - 7, y: generator.unit() * 94 - 7))
                    }
                    path.closeSubpath()
                }
                path.addEllipse(in: CGRect(x: generator.unit() * 40, y: generator.unit() * 30, width: 50, height: 44))
                context.fill(path, using: seed.isMultiple(of: 2) ? .evenOdd : .winding)
            }
            #expect(differing == 0, "seed \(seed)")
        }
    }

    @Test(
        "stroked shapes composited from spans equal pixman's mask compositing, bit for bit",
        arguments: [PixelFormat.argb32Premultiplied, .xrgb32])
    func strokesMatchMaskCompositing(format: PixelFormat) throws {
        for seed in UInt64(100)...112 {
            let differing = try Self.differingPixels(format: format, seed: seed) { context, generator in
                context.setStrokeColor(Self.randomColor(&generator, opaque: seed.isMultiple(of: 2)))
                context.setLineWidth(0.5 + generator.unit() * 8)
                context.setLineJoin([LineJoin.miter, .round, .bevel][Int(seed % 3)])
                context.setLineCap([LineCap.butt, .round, .square][Int(seed % 3)])
                if seed.isMultiple(of: 4) { context.setLineDash(phase: 1, lengths: [6, 3]) }
                var path = Path()
                path.move(to: CGPoint(x: generator.unit() * 96, y: generator.unit() * 80))
                for _ in 0..<6 { path.addLine(to: CGPoint(x: generator.unit() * 96, y: generator.unit() * 80)) }
                context.stroke(path)
            }
            #expect(differing == 0, "seed \(seed)")
        }
    }

    @Test(
        "the benchmark's star, filled and stroked in changing colours, composited from cells equals pixman's mask compositing",
        arguments: [PixelFormat.argb32Premultiplied, .xrgb32])
    func starInChangingColoursMatchesMaskCompositing(format: PixelFormat) throws {
        var generator = Generator(state: 77)
        let direct = try Self.noise(width: 512, height: 512, format: format, generator: &generator)
        let masked = try direct.copy()
        let before = try direct.copy()
        let colors = (0..<6).map { Self.randomColor(&generator, opaque: $0 < 3) }
        func draw(_ context: GraphicsContext) {
            context.setLineWidth(3)
            // The same colours again in another order: the context's colour table must
            // follow every change.
            for index in [0, 1, 0, 3, 4, 3, 2, 5, 2] {
                let color = colors[index]
                var star = Path()
                for (k, point) in (0..<10).map({ k -> CGPoint in
                    let radius: CGFloat = k.isMultiple(of: 2) ? 240 : 96
                    let angle = -CGFloat.pi / 2 + CGFloat(k) * .pi / 5 + CGFloat(index) * 0.01
                    return CGPoint(x: 256 + radius * cos(angle), y: 256 + radius * sin(angle))
                }).enumerated() {
                    if k == 0 { star.move(to: point) } else { star.addLine(to: point) }
                }
                star.closeSubpath()
                if index.isMultiple(of: 2) {
                    context.setFillColor(color)
                    context.fill(star)
                } else {
                    context.setStrokeColor(color)
                    context.stroke(star)
                }
            }
        }
        draw(GraphicsContext(bitmap: direct))
        let context = GraphicsContext(bitmap: masked)
        context.clip(to: [CGRect(x: 1, y: 0, width: 511, height: 1), CGRect(x: 0, y: 1, width: 512, height: 511)])
        #expect(context.clipRegion.rects.count == 2, "the clip must not be one rectangle")
        draw(context)
        let channels: UInt32 = format == .xrgb32 ? 0x00FF_FFFF : 0xFFFF_FFFF
        var differing = 0, painted = 0
        for y in 0..<512 {
            for x in 0..<512 where (x, y) != (0, 0) {
                if direct.pixel(x: x, y: y) & channels != masked.pixel(x: x, y: y) & channels { differing += 1 }
                if direct.pixel(x: x, y: y) & channels != before.pixel(x: x, y: y) & channels { painted += 1 }
            }
        }
        #expect(differing == 0)
        #expect(painted > 60_000, "the stars must have painted (\(painted) pixels changed)")
    }
}

import CCairo
import DamaskGraphics
import Foundation
import Testing

/// The stroker's outlines judged by real pixels: corners whose exact outline is a simple
/// polygon against ``ExactCoverage`` (a seam or a gap where the pieces meet would show as
/// missing coverage, a double-counted overlap as too much under a translucent colour), and
/// every join, cap and dash against cairo's stroker drawing the same path.
@Suite("Stroke outlines", .timeLimit(.minutes(5)))
struct StrokeOutlineTests {
    static let size = 64

    /// The exact outline of a two-segment stroke a→p→b with butt caps and a miter or bevel
    /// join: offset lines outside, the inner offset lines' intersection inside.
    static func cornerOutline(_ a: CGPoint, _ p: CGPoint, _ b: CGPoint, width: CGFloat, join: LineJoin) -> [CGPoint] {
        func unit(_ v: CGPoint) -> CGPoint { let l = hypot(v.x, v.y); return CGPoint(x: v.x / l, y: v.y / l) }
        let d0 = unit(CGPoint(x: p.x - a.x, y: p.y - a.y)), d1 = unit(CGPoint(x: b.x - p.x, y: b.y - p.y))
        let cross = d0.x * d1.y - d0.y * d1.x
        let side: CGFloat = cross > 0 ? -1 : 1
        let h = width / 2
        let o0 = CGPoint(x: -d0.y * side * h, y: d0.x * side * h), o1 = CGPoint(x: -d1.y * side * h, y: d1.x * side * h)
        // Inner side: where a − o0 + t·d0 meets b − o1 + s·d1.
        let q0 = CGPoint(x: a.x - o0.x, y: a.y - o0.y), q1 = CGPoint(x: b.x - o1.x, y: b.y - o1.y)
        let t = ((q1.x - q0.x) * d1.y - (q1.y - q0.y) * d1.x) / (d0.x * d1.y - d0.y * d1.x)
        let inner = CGPoint(x: q0.x + t * d0.x, y: q0.y + t * d0.y)
        var outline = [CGPoint(x: a.x + o0.x, y: a.y + o0.y), CGPoint(x: p.x + o0.x, y: p.y + o0.y)]
        if join == .miter {
            let bisector = unit(CGPoint(x: o0.x + o1.x, y: o0.y + o1.y))
            let cosHalf = ((1 + d0.x * d1.x + d0.y * d1.y) / 2).squareRoot()
            outline.append(CGPoint(x: p.x + bisector.x * h / cosHalf, y: p.y + bisector.y * h / cosHalf))
        }
        outline += [CGPoint(x: p.x + o1.x, y: p.y + o1.y), CGPoint(x: b.x + o1.x, y: b.y + o1.y),
                    CGPoint(x: b.x - o1.x, y: b.y - o1.y), inner, q0]
        return outline
    }

    @Test(
        "miter and bevel corners at many angles and 1/16-px offsets are within 2/255 of their exact outline",
        arguments: [LineJoin.miter, .bevel])
    func cornersMatchExactOutline(join: LineJoin) throws {
        let corners: [(CGPoint, CGPoint, CGPoint)] = [
            (CGPoint(x: 6, y: 50), CGPoint(x: 30, y: 12), CGPoint(x: 56, y: 48)),  // sharp, turning right
            (CGPoint(x: 8, y: 10.5), CGPoint(x: 40, y: 12), CGPoint(x: 52, y: 56)),  // turning left
            (CGPoint(x: 4, y: 30), CGPoint(x: 32, y: 31), CGPoint(x: 60, y: 34)),  // nearly straight
            (CGPoint(x: 10, y: 8), CGPoint(x: 12, y: 52), CGPoint(x: 56, y: 50)),  // right angle-ish
        ]
        for (a, p, b) in corners {
            for step in [0, 3, 7, 11] {
                let shift = CGFloat(step) / 16
                let (sa, sp, sb) = (
                    CGPoint(x: a.x + shift, y: a.y + shift / 2), CGPoint(x: p.x + shift, y: p.y + shift / 2),
                    CGPoint(x: b.x + shift, y: b.y + shift / 2))
                for width: CGFloat in [1, 3, 7.5] {
                    let bitmap = try Bitmap(width: Self.size, height: Self.size)
                    let context = GraphicsContext(bitmap: bitmap)
                    context.setStrokeColor(.white)
                    context.setLineWidth(width)
                    context.setLineJoin(join)
                    context.setMiterLimit(20)
                    var path = Path()
                    path.move(to: sa)
                    path.addLine(to: sp)
                    path.addLine(to: sb)
                    context.stroke(path)
                    let reference = ExactCoverage(
                        polygons: [Self.cornerOutline(sa, sp, sb, width: width, join: join)], rule: .winding,
                        width: Self.size, height: Self.size)
                    let worst = reference.maximumError(against: bitmap)
                    #expect(worst.error <= CoverageQualityTests.tolerance, "\(join) \(sa)→\(sp)→\(sb) w\(width): \(worst)")
                }
            }
        }
    }

    @Test("a translucent stroke over itself and its corners is composited once: no pixel darker than one layer")
    func translucentStrokeCoversOnce() throws {
        let bitmap = try Bitmap(width: Self.size, height: Self.size)
        let context = GraphicsContext(bitmap: bitmap)
        context.setStrokeColor(Color(red: 1, green: 1, blue: 1, alpha: 0.5))
        context.setLineWidth(6)
        context.setLineJoin(.round)
        context.setLineCap(.round)
        var path = Path()
        // A zigzag whose corners overlap neighbouring segments, and a loop crossing itself.
        path.move(to: CGPoint(x: 6, y: 10))
        for i in 1...6 { path.addLine(to: CGPoint(x: 6 + CGFloat(i) * 8.5, y: i.isMultiple(of: 2) ? 10 : 22)) }
        path.move(to: CGPoint(x: 10, y: 56))
        path.addCurve(to: CGPoint(x: 50, y: 30), control1: CGPoint(x: 70, y: 70), control2: CGPoint(x: 0, y: 20))
        context.stroke(path)
        var covered = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let alpha = bitmap.pixel(x: x, y: y) >> 24
                // One layer of alpha 0.5 is 128 at most (pixman rounds 0.5 × 255 up).
                #expect(alpha <= 128, "(\(x), \(y)) alpha \(alpha)")
                if alpha >= 127 { covered += 1 }
            }
        }
        #expect(covered > 400, "the stroke drew \(covered) fully covered pixels")
    }

    /// A stroke configuration drawn by both libraries.
    struct Case: CustomStringConvertible, Sendable {
        var join: LineJoin
        var cap: LineCap
        var width: CGFloat
        var dashes: [CGFloat] = []
        var closed = false
        var description: String { "\(join) \(cap) w\(width) dashes \(dashes)\(closed ? " closed" : "")" }
    }

    static let cases: [Case] = [
        Case(join: .miter, cap: .butt, width: 5),
        Case(join: .round, cap: .round, width: 5),
        Case(join: .bevel, cap: .square, width: 5),
        Case(join: .miter, cap: .square, width: 1),
        Case(join: .round, cap: .butt, width: 9, closed: true),
        Case(join: .miter, cap: .butt, width: 3, dashes: [7, 3]),
        Case(join: .round, cap: .round, width: 4, dashes: [0, 8]),
        Case(join: .bevel, cap: .square, width: 2.5, dashes: [5, 2, 1, 2], closed: true),
    ]

    @Test("joins, caps and dashes match cairo's stroker", arguments: cases)
    func strokesMatchCairo(_ c: Case) throws {
        let points = [CGPoint(x: 8.3, y: 52.6), CGPoint(x: 20.1, y: 10.4), CGPoint(x: 33.7, y: 44.2),
                      CGPoint(x: 56.2, y: 30.9), CGPoint(x: 44.5, y: 8.2)]
        let bitmap = try Bitmap(width: Self.size, height: Self.size)
        let context = GraphicsContext(bitmap: bitmap)
        context.setStrokeColor(.white)
        context.setLineWidth(c.width)
        context.setLineJoin(c.join)
        context.setLineCap(c.cap)
        if !c.dashes.isEmpty { context.setLineDash(phase: 2, lengths: c.dashes) }
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        if c.closed { path.closeSubpath() }
        context.stroke(path)

        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(Self.size), Int32(Self.size))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_set_line_width(cr, Double(c.width))
        cairo_set_line_join(cr, c.join == .miter ? CAIRO_LINE_JOIN_MITER : c.join == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL)
        cairo_set_line_cap(cr, c.cap == .butt ? CAIRO_LINE_CAP_BUTT : c.cap == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
        cairo_set_miter_limit(cr, 10)
        if !c.dashes.isEmpty {
            let dashes = c.dashes.map(Double.init)
            dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 2) }
        }
        cairo_move_to(cr, Double(points[0].x), Double(points[0].y))
        for p in points.dropFirst() { cairo_line_to(cr, Double(p.x), Double(p.y)) }
        if c.closed { cairo_close_path(cr) }
        cairo_stroke(cr)
        cairo_surface_flush(surface)
        #expect(cairo_status(cr) == CAIRO_STATUS_SUCCESS)

        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var worst = 0, differing = 0, covered = 0, totalDelta = 0
        var worstAt = (0, 0)
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let expected = Int(UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) >> 24)
                let actual = Int(bitmap.pixel(x: x, y: y) >> 24)
                let delta = abs(expected - actual)
                if delta > worst { worst = delta; worstAt = (x, y) }
                if delta > Self.cairoTolerance { differing += 1 }
                totalDelta += delta
                if expected > 0 { covered += 1 }
            }
        }
        #expect(covered > 100, "\(c): cairo drew \(covered) pixels")
        #expect(differing == 0, "\(c): \(differing) pixels differ from cairo by more than \(Self.cairoTolerance); worst \(worst) at \(worstAt)")
        let mean = Double(totalDelta) / Double(max(covered, 1))
        #expect(mean <= Self.cairoMeanTolerance, "\(c): mean difference \(mean) over \(covered) pixels")
    }

    /// How far cairo's coverage may differ from ours in one pixel. cairo samples 15
    /// sub-rows per pixel row (an edge's coverage is off by up to 1/30 of a pixel, 8
    /// levels, and a pixel can hold several edges) and places its round joins' and caps'
    /// vertices by its own rule; a wrong join, cap or dash is off by far more. (Measured:
    /// at most 15 levels, on average under 1.3.)
    static let cairoTolerance = 16
    /// The most the difference may average over the pixels cairo covers, in levels.
    static let cairoMeanTolerance = 2.0
}

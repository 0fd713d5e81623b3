import DamaskGraphics
import Foundation
import Testing

/// The rasterizer's coverage against ``ExactCoverage``: every pixel within ±2/255 of the
/// exact area, for the shapes issue 16 lists.
@Suite("Coverage quality", .timeLimit(.minutes(5)))
struct CoverageQualityTests {
    /// The largest allowed per-pixel difference, in 1/255 steps.
    static let tolerance = 2.0

    /// Fills `polygons` white on transparent black with `rule` and returns the worst error
    /// against the exact reference.
    private static func fillError(
        _ polygons: [[CGPoint]], rule: FillRule = .winding, width: Int = 64, height: Int = 64
    ) throws -> (error: Double, x: Int, y: Int, expected: Double, actual: Int) {
        let bitmap = try Bitmap(width: width, height: height)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        var path = Path()
        for polygon in polygons {
            path.move(to: polygon[0])
            for point in polygon.dropFirst() { path.addLine(to: point) }
            path.closeSubpath()
        }
        context.fill(path, using: rule)
        return ExactCoverage(polygons: polygons, rule: rule, width: width, height: height)
            .maximumError(against: bitmap)
    }

    /// A regular polygon with `sides` vertices (fine enough to stand for a circle).
    static func circle(center: CGPoint, radius: CGFloat, sides: Int = 360) -> [CGPoint] {
        (0..<sides).map { i in
            let angle = CGFloat(i) * 2 * .pi / CGFloat(sides)
            return CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }

    /// A five-pointed star outline (10 vertices, simple polygon).
    static func star(center: CGPoint, outer: CGFloat, inner: CGFloat) -> [CGPoint] {
        (0..<10).map { i in
            let radius = i.isMultiple(of: 2) ? outer : inner
            let angle = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
            return CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }

    /// A pentagram drawn as one self-intersecting path (its centre winds twice).
    static func pentagram(center: CGPoint, radius: CGFloat) -> [CGPoint] {
        (0..<5).map { i in
            let angle = -CGFloat.pi / 2 + CGFloat(i * 2) * 2 * .pi / 5
            return CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
    }

    /// The rectangle a butt-capped stroke of `width` from `a` to `b` covers.
    static func segmentOutline(_ a: CGPoint, _ b: CGPoint, width: CGFloat) -> [CGPoint] {
        let length = hypot(b.x - a.x, b.y - a.y)
        let nx = -(b.y - a.y) / length * width / 2, ny = (b.x - a.x) / length * width / 2
        return [CGPoint(x: a.x + nx, y: a.y + ny), CGPoint(x: b.x + nx, y: b.y + ny),
                CGPoint(x: b.x - nx, y: b.y - ny), CGPoint(x: a.x - nx, y: a.y - ny)]
    }

    @Test("a circle's coverage is within 2/255 of the exact area")
    func circleCoverageIsExact() throws {
        let worst = try Self.fillError([Self.circle(center: CGPoint(x: 32.3, y: 31.7), radius: 27.4)])
        #expect(worst.error <= Self.tolerance, "\(worst)")
    }

    @Test("a star's coverage is within 2/255 of the exact area")
    func starCoverageIsExact() throws {
        let worst = try Self.fillError([Self.star(center: CGPoint(x: 32, y: 33), outer: 30, inner: 12)])
        #expect(worst.error <= Self.tolerance, "\(worst)")
    }

    @Test("a self-intersecting path is exact under both fill rules", arguments: [FillRule.winding, .evenOdd])
    func selfIntersectingCoverageIsExact(rule: FillRule) throws {
        let worst = try Self.fillError([Self.pentagram(center: CGPoint(x: 32.2, y: 33.6), radius: 30)], rule: rule)
        #expect(worst.error <= Self.tolerance, "\(rule): \(worst)")
    }

    @Test("overlapping and nested subpaths are exact under both fill rules", arguments: [FillRule.winding, .evenOdd])
    func overlappingSubpathsAreExact(rule: FillRule) throws {
        let polygons = [
            Self.circle(center: CGPoint(x: 25.5, y: 30.2), radius: 20, sides: 90),
            Self.circle(center: CGPoint(x: 38.3, y: 33.1), radius: 19.7, sides: 90),
            Self.star(center: CGPoint(x: 32, y: 32), outer: 12, inner: 5).reversed(),
            // Two edges in the same pixels winding the same way: 0 → 2 across a pixel.
            [CGPoint(x: 3.2, y: 2), CGPoint(x: 60.1, y: 4.3), CGPoint(x: 3.2, y: 6.2)],
            [CGPoint(x: 3.3, y: 2.1), CGPoint(x: 60.4, y: 4.2), CGPoint(x: 3.1, y: 6.4)],
        ]
        let worst = try Self.fillError(polygons, rule: rule)
        #expect(worst.error <= Self.tolerance, "\(rule): \(worst)")
    }

    @Test("thin lines of 0.5, 1 and 3 px are within 2/255 of their exact area", arguments: [0.5, 1.0, 3.0])
    func thinLinesAreExact(width: Double) throws {
        let segments: [(CGPoint, CGPoint)] = [
            (CGPoint(x: 4.3, y: 5.1), CGPoint(x: 59.6, y: 21.7)),
            (CGPoint(x: 6.5, y: 60.2), CGPoint(x: 30.25, y: 8.75)),
            (CGPoint(x: 40.1, y: 30.5), CGPoint(x: 58.8, y: 58.3)),
            (CGPoint(x: 10, y: 40.5), CGPoint(x: 36, y: 40.5)),
        ]
        for (a, b) in segments {
            let bitmap = try Bitmap(width: 64, height: 64)
            let context = GraphicsContext(bitmap: bitmap)
            context.setStrokeColor(.white)
            context.setLineWidth(width)
            context.strokeLineSegments(between: [a, b])
            let reference = ExactCoverage(
                polygons: [Self.segmentOutline(a, b, width: width)], rule: .winding, width: 64, height: 64)
            let worst = reference.maximumError(against: bitmap)
            #expect(worst.error <= Self.tolerance, "width \(width) \(a)→\(b): \(worst)")
        }
    }

    @Test("near-horizontal and near-vertical edges are within 2/255 of the exact area")
    func nearAxisEdgesAreExact() throws {
        let slivers: [[CGPoint]] = [
            [CGPoint(x: 1, y: 10.2), CGPoint(x: 63, y: 10.9), CGPoint(x: 63, y: 20), CGPoint(x: 1, y: 20)],
            [CGPoint(x: 1, y: 30.5), CGPoint(x: 63, y: 30.52), CGPoint(x: 63, y: 33.4), CGPoint(x: 1, y: 31)],
            [CGPoint(x: 40.3, y: 1), CGPoint(x: 41.1, y: 63), CGPoint(x: 50, y: 63), CGPoint(x: 50, y: 1)],
            [CGPoint(x: 55.5, y: 1), CGPoint(x: 55.51, y: 63), CGPoint(x: 58, y: 62), CGPoint(x: 56.7, y: 2)],
        ]
        for sliver in slivers {
            let worst = try Self.fillError([sliver])
            #expect(worst.error <= Self.tolerance, "\(sliver): \(worst)")
        }
    }

    @Test("a star at every 1/16-px offset is within 2/255 of the exact area")
    func subpixelOffsetsAreExact() throws {
        for step in 0..<16 {
            let offset = CGFloat(step) / 16
            let star = Self.star(center: CGPoint(x: 20 + offset, y: 20 + offset / 2), outer: 17, inner: 7)
            let worst = try Self.fillError([star], width: 40, height: 40)
            #expect(worst.error <= Self.tolerance, "offset \(offset): \(worst)")
        }
    }

    @Test("a shape crossing the clip edges keeps exact coverage inside the clip")
    func clippedShapeIsExact() throws {
        let bitmap = try Bitmap(width: 64, height: 64)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        context.clip(to: CGRect(x: 10, y: 12, width: 40, height: 37))
        let star = Self.star(center: CGPoint(x: 30.4, y: 31.1), outer: 30, inner: 14)
        var path = Path()
        path.move(to: star[0])
        for point in star.dropFirst() { path.addLine(to: point) }
        path.closeSubpath()
        context.fill(path)
        let reference = ExactCoverage(polygons: [star], rule: .winding, width: 64, height: 64)
        var worst = 0.0
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = x >= 10 && x < 50 && y >= 12 && y < 49
                let expected = inside ? reference[x, y] * 255 : 0
                worst = max(worst, abs(Double(bitmap.pixel(x: x, y: y) >> 24) - expected))
            }
        }
        #expect(worst <= Self.tolerance)
    }
}

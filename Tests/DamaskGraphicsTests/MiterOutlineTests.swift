@testable import DamaskGraphics
import Foundation
import Testing

/// A mitred corner's outline goes straight to the miter tip: the offset lines' ends at the
/// corner lie on the edges into and out of the tip, so they are left out (fewer edges,
/// fewer edge ends for the rasterizer), and the polygon is the same.
@Suite("Miter outlines", .timeLimit(.minutes(5)))
struct MiterOutlineTests {
    /// A closed triangle, clockwise on screen (y down).
    static let triangle = [CGPoint(x: 10, y: 10), CGPoint(x: 50, y: 12), CGPoint(x: 24, y: 44)]

    static func outline(miterLimit: CGFloat) -> [[CGPoint]] {
        let stroker = Stroker(
            lineWidth: 4, cap: .butt, join: .miter, miterLimit: miterLimit, dashLengths: [], dashPhase: 0,
            tolerance: 0.1)
        return stroker.outline(of: [Polyline(points: triangle, isClosed: true)])
    }

    /// Where the two offset lines 2 units outside the triangle's corner `k` meet.
    static func miterTip(_ k: Int) -> CGPoint {
        let p = triangle[k], a = triangle[(k + 2) % 3], b = triangle[(k + 1) % 3]
        func unit(_ v: CGPoint) -> CGPoint { let l = hypot(v.x, v.y); return CGPoint(x: v.x / l, y: v.y / l) }
        let d0 = unit(CGPoint(x: p.x - a.x, y: p.y - a.y)), d1 = unit(CGPoint(x: b.x - p.x, y: b.y - p.y))
        // Outside of a clockwise (on screen) turn: the left normal (d.y, −d.x) in y-down terms.
        let n0 = CGPoint(x: d0.y * 2, y: -d0.x * 2), n1 = CGPoint(x: d1.y * 2, y: -d1.x * 2)
        // p + n0 + t·d0 = p + n1 + s·d1, solved for t.
        let q = CGPoint(x: n1.x - n0.x, y: n1.y - n0.y)
        let t = (q.x * d1.y - q.y * d1.x) / (d0.x * d1.y - d0.y * d1.x)
        return CGPoint(x: p.x + n0.x + t * d0.x, y: p.y + n0.y + t * d0.y)
    }

    @Test("a mitred closed triangle's outer outline is its three miter tips")
    func outerOutlineIsTheTips() throws {
        let polygons = Self.outline(miterLimit: 10)
        #expect(polygons.count == 2)
        let outer = try #require(polygons.first { polygon in
            polygon.contains { hypot($0.x - Self.miterTip(0).x, $0.y - Self.miterTip(0).y) < 1e-9 }
        }, "no outline goes through the first corner's miter tip")
        #expect(outer.count == 3, "\(outer)")
        for k in 0..<3 {
            let tip = Self.miterTip(k)
            #expect(outer.contains { hypot($0.x - tip.x, $0.y - tip.y) < 1e-9 }, "corner \(k): \(outer)")
        }
    }

    @Test("a corner beyond the miter limit keeps both offset ends (a bevel), and no tip")
    func bevelledCornerKeepsBothEnds() throws {
        // The corners' miter ratios are about 1.87, 2.21 and 1.96: a limit of 2 bevels the
        // second corner and mitres the others.
        let polygons = Self.outline(miterLimit: 2)
        let first = Self.miterTip(0)
        let outer = try #require(polygons.first { polygon in
            polygon.contains { hypot($0.x - first.x, $0.y - first.y) < 1e-9 }
        }, "no outline goes through the first corner's miter tip")
        #expect(outer.count == 4, "two tips and the bevel's two ends: \(outer)")
        let tip = Self.miterTip(1)
        #expect(!outer.contains { hypot($0.x - tip.x, $0.y - tip.y) < 1e-6 })
        let last = Self.miterTip(2)
        #expect(outer.contains { hypot($0.x - last.x, $0.y - last.y) < 1e-9 })
    }
}

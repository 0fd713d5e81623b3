import Foundation

/// Scan-converts polygons into a ``CoverageMask``.
///
/// Each pixel row is sampled on `subsamples` horizontal lines; along each line the
/// spans inside the polygons (by the fill rule) are accumulated with exact fractional
/// coverage at their ends. So an edge through the middle of a pixel yields half
/// coverage, and overlapping pieces (a stroke's segments and joins) union without seams.
/// Without antialiasing, a pixel is covered when its centre is inside.
struct Rasterizer {
    /// Horizontal sample lines per pixel row when antialiasing.
    static let subsamples = 16
    /// Coordinates are clamped to ±this before scan conversion, so absurd input cannot
    /// overflow integer conversions (it is far outside any bitmap).
    static let coordinateLimit: Double = 16_777_216

    private struct Edge {
        var x0: Double
        var y0: Double
        var y1: Double
        var slope: Double
        var winding: Int
    }

    /// Rasterizes `polygons` (device space, each implicitly closed) within the integer
    /// device box `bounds`, returning nil when nothing is covered there. Polygons with
    /// non-finite coordinates are skipped.
    static func mask(
        polygons: [[CGPoint]], rule: FillRule, antialias: Bool,
        bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) -> CoverageMask? {
        var edges: [Edge] = []
        var minX = Double.infinity, maxX = -Double.infinity
        var minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons where polygon.count >= 3 {
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            let points = polygon.map {
                (x: min(max(Double($0.x), -coordinateLimit), coordinateLimit),
                 y: min(max(Double($0.y), -coordinateLimit), coordinateLimit))
            }
            for i in points.indices {
                let p = points[i], q = points[(i + 1) % points.count]
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
                if p.y == q.y { continue }
                let (top, bottom, winding) = p.y < q.y ? (p, q, 1) : (q, p, -1)
                edges.append(Edge(
                    x0: top.x, y0: top.y, y1: bottom.y,
                    slope: (bottom.x - top.x) / (bottom.y - top.y), winding: winding))
            }
        }
        guard !edges.isEmpty else { return nil }
        let x0 = max(bounds.x0, Int(minX.rounded(.down)))
        let x1 = min(bounds.x1, Int(maxX.rounded(.up)) + 1)
        let y0 = max(bounds.y0, Int(minY.rounded(.down)))
        let y1 = min(bounds.y1, Int(maxY.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1, let mask = CoverageMask(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        else { return nil }
        edges.sort { $0.y0 < $1.y0 }
        fill(mask, edges: edges, rule: rule, antialias: antialias)
        return mask
    }

    private static func fill(_ mask: CoverageMask, edges: [Edge], rule: FillRule, antialias: Bool) {
        let width = mask.width
        let samples = antialias ? subsamples : 1
        let weight = 1.0 / Double(samples)
        var cover = [Double](repeating: 0, count: width + 2)
        var delta = [Double](repeating: 0, count: width + 2)
        var active: [Int] = []
        var crossings: [(x: Double, winding: Int)] = []
        var nextEdge = 0
        let originX = Double(mask.x)
        let bytes = mask.bytes
        let stride = mask.bytesPerRow
        for row in 0..<mask.height {
            let pixelY = Double(mask.y + row)
            var touched = false
            for sample in 0..<samples {
                let sy = pixelY + (Double(sample) + 0.5) * weight
                while nextEdge < edges.count, edges[nextEdge].y0 <= sy {
                    active.append(nextEdge)
                    nextEdge += 1
                }
                active.removeAll { edges[$0].y1 <= sy }
                crossings.removeAll(keepingCapacity: true)
                for index in active where edges[index].y0 <= sy {
                    let e = edges[index]
                    crossings.append((e.x0 + (sy - e.y0) * e.slope - originX, e.winding))
                }
                guard crossings.count >= 2 else { continue }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                var spanStart = 0.0
                for crossing in crossings {
                    let wasInside = rule == .winding ? winding != 0 : winding & 1 != 0
                    winding += crossing.winding
                    let isInside = rule == .winding ? winding != 0 : winding & 1 != 0
                    if !wasInside && isInside {
                        spanStart = crossing.x
                    } else if wasInside && !isInside {
                        touched = true
                        addSpan(from: spanStart, to: crossing.x, weight: weight, antialias: antialias,
                                width: width, cover: &cover, delta: &delta)
                    }
                }
            }
            guard touched else { continue }
            let out = bytes + row * stride
            var running = 0.0
            for x in 0..<width {
                running += delta[x]
                let value = cover[x] + running
                out[x] = value <= 0 ? 0 : value >= 1 ? 255 : UInt8(value * 255 + 0.5)
                cover[x] = 0
                delta[x] = 0
            }
            cover[width] = 0; delta[width] = 0
            cover[width + 1] = 0; delta[width + 1] = 0
        }
    }

    private static func addSpan(
        from a: Double, to b: Double, weight: Double, antialias: Bool, width: Int,
        cover: inout [Double], delta: inout [Double]
    ) {
        let limit = Double(width)
        if !antialias {
            // Pixels whose centres lie in [a, b).
            let first = Int(min(max((a - 0.5).rounded(.up), 0), limit))
            let end = Int(min(max((b - 0.5).rounded(.up), 0), limit))
            guard first < end else { return }
            delta[first] += weight
            delta[end] -= weight
            return
        }
        let xa = min(max(a, 0), limit), xb = min(max(b, 0), limit)
        guard xa < xb else { return }
        let ia = Int(xa), ib = Int(xb)
        if ia == ib {
            cover[ia] += (xb - xa) * weight
            return
        }
        cover[ia] += (Double(ia + 1) - xa) * weight
        delta[ia + 1] += weight
        delta[ib] -= weight
        if ib < width { cover[ib] += (xb - Double(ib)) * weight }
    }
}

import DamaskGraphics
import Foundation

/// An independent exact-area reference for polygon coverage, used to judge the
/// rasterizer.
///
/// Each pixel row is cut into `subrows` thin slices; in a slice the polygon's crossings at
/// the slice's middle are sorted, the fill rule picks the inside spans and each span adds
/// its exact horizontal overlap with every pixel column. Within a slice a straight edge's
/// x is linear in y, so the midpoint gives that slice's area exactly except in slices where
/// an edge bends or leaves a column, which bounds the error by about `1/subrows` of one
/// slice per vertex, far below 1/255 at the default of 256 slices per row.
struct ExactCoverage {
    /// Coverage (0…1) per pixel, row-major.
    private(set) var values: [Double]
    let width: Int
    let height: Int

    /// Computes the coverage of `polygons` (each implicitly closed) in a `width`×`height`
    /// pixel grid under `rule`.
    init(polygons: [[CGPoint]], rule: FillRule, width: Int, height: Int, subrows: Int = 256) {
        self.width = width
        self.height = height
        values = [Double](repeating: 0, count: width * height)
        var edges: [(x0: Double, y0: Double, x1: Double, y1: Double, winding: Int)] = []
        for polygon in polygons where polygon.count >= 3 {
            for i in polygon.indices {
                let p = polygon[i], q = polygon[(i + 1) % polygon.count]
                if p.y == q.y { continue }
                edges.append(p.y < q.y
                    ? (Double(p.x), Double(p.y), Double(q.x), Double(q.y), 1)
                    : (Double(q.x), Double(q.y), Double(p.x), Double(p.y), -1))
            }
        }
        let weight = 1 / Double(subrows)
        var crossings: [(x: Double, winding: Int)] = []
        for row in 0..<height {
            for slice in 0..<subrows {
                let y = Double(row) + (Double(slice) + 0.5) * weight
                crossings.removeAll(keepingCapacity: true)
                for e in edges where e.y0 <= y && y < e.y1 {
                    crossings.append((e.x0 + (y - e.y0) / (e.y1 - e.y0) * (e.x1 - e.x0), e.winding))
                }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                var start = 0.0
                for crossing in crossings {
                    let was = rule == .winding ? winding != 0 : winding & 1 != 0
                    winding += crossing.winding
                    let now = rule == .winding ? winding != 0 : winding & 1 != 0
                    if !was && now { start = crossing.x }
                    if was && !now { addSpan(row: row, from: start, to: crossing.x, weight: weight) }
                }
            }
        }
    }

    private mutating func addSpan(row: Int, from a: Double, to b: Double, weight: Double) {
        let a = max(a, 0), b = min(b, Double(width))
        guard a < b else { return }
        for column in Int(a.rounded(.down))..<min(Int(b.rounded(.up)), width) {
            let overlap = min(b, Double(column + 1)) - max(a, Double(column))
            if overlap > 0 { values[row * width + column] += overlap * weight }
        }
    }

    /// The reference coverage at pixel `(x, y)`.
    subscript(x: Int, y: Int) -> Double { values[y * width + x] }

    /// The largest difference, in 1/255 steps, between this reference and the alpha of
    /// `bitmap` (which has the shape drawn opaque on transparent black), with where it is.
    func maximumError(against bitmap: Bitmap) -> (error: Double, x: Int, y: Int, expected: Double, actual: Int) {
        var worst = (error: 0.0, x: 0, y: 0, expected: 0.0, actual: 0)
        for y in 0..<height {
            for x in 0..<width {
                let actual = Int(bitmap.pixel(x: x, y: y) >> 24)
                let expected = self[x, y] * 255
                let error = abs(Double(actual) - expected)
                if error > worst.error { worst = (error, x, y, expected, actual) }
            }
        }
        return worst
    }
}

import DamaskGraphics
import Foundation
import Testing

/// The even-odd and winding rules on self-overlapping shapes, aliased and antialiased,
/// checked pixel by pixel against a crossing count at each pixel's centre. Written for the
/// mutants of scripts/mutants.txt that treated even-odd as winding and passed every test.
@Suite("Fill rules", .timeLimit(.minutes(5)))
struct FillRuleTests {
    /// A pentagram (its centre is enclosed twice) and two squares drawn the same way round
    /// that overlap, plus a star of many points whose rows hold many edges.
    static func shapes() -> [[CGPoint]] {
        let pentagram = (0..<5).map { i -> CGPoint in
            let angle = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            return CGPoint(x: 32 + 28 * cos(angle), y: 32 + 28 * sin(angle))
        }
        let manyPoints = (0..<46).map { i -> CGPoint in
            let angle = Double(i) * 2 * Double.pi * 17 / 46
            return CGPoint(x: 32 + 29 * cos(angle), y: 32 + 29 * sin(angle))
        }
        return [pentagram, manyPoints]
    }

    /// Winding number of the closed polygon around `point`.
    static func winding(_ polygon: [CGPoint], around point: CGPoint) -> Int {
        var total = 0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            if a.y <= point.y {
                if b.y > point.y && (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) > 0 { total += 1 }
            } else if b.y <= point.y && (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) < 0 {
                total -= 1
            }
        }
        return total
    }

    /// The distance from `point` to the nearest edge of `polygon`.
    static func distanceToEdge(_ polygon: [CGPoint], _ point: CGPoint) -> Double {
        polygon.indices.map { i -> Double in
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy)))
            return hypot(point.x - (a.x + t * dx), point.y - (a.y + t * dy))
        }.min() ?? .infinity
    }

    @Test("Each pixel away from an edge is filled exactly where the rule's crossing count says", arguments: [false, true])
    func rulesMatchTheCrossingCount(antialias: Bool) throws {
        for (index, polygon) in Self.shapes().enumerated() {
            for rule in [FillRule.evenOdd, .winding] {
                let bitmap = try Bitmap(width: 64, height: 64)
                let context = GraphicsContext(bitmap: bitmap)
                context.setShouldAntialias(antialias)
                var path = Path()
                path.move(to: polygon[0])
                for point in polygon.dropFirst() { path.addLine(to: point) }
                path.closeSubpath()
                context.setFillColor(.black)
                context.fill(path, using: rule)
                var checked = 0, wrong: [String] = []
                for y in 0..<64 {
                    for x in 0..<64 {
                        let centre = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                        guard Self.distanceToEdge(polygon, centre) > 1 else { continue }
                        let count = Self.winding(polygon, around: centre)
                        let inside = rule == .evenOdd ? count % 2 != 0 : count != 0
                        let alpha = bitmap.pixel(x: x, y: y) >> 24
                        if alpha != (inside ? 255 : 0) { wrong.append("(\(x),\(y)) alpha \(alpha) winding \(count)") }
                        checked += 1
                    }
                }
                #expect(checked > 1000)
                #expect(wrong.isEmpty, "shape \(index), \(rule), antialias \(antialias): \(wrong.count) pixels, e.g. \(wrong.prefix(4))")
            }
        }
    }
}

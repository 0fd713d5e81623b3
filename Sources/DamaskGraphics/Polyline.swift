import Foundation

/// A flattened subpath: straight segments through `points`, closed or open.
struct Polyline {
    /// The vertices in drawing order.
    var points: [CGPoint]
    /// Whether the last point connects back to the first.
    var isClosed: Bool
    /// The direction of the subpath's first segment, used to orient the caps of a
    /// zero-length subpath (unit vector; +x when unknown).
    var startDirection = CGPoint(x: 1, y: 0)
}

extension Path {
    /// The largest number of line segments one curve is split into.
    static let maximumCurveSegments = 512

    /// Flattens the path into polylines whose distance from the true curves is at most
    /// about `tolerance` (in the path's own units).
    func flattened(tolerance: CGFloat) -> [Polyline] {
        let tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : 0.25
        var result: [Polyline] = []
        var current: [CGPoint] = []
        var start = CGPoint.zero
        func finish(closed: Bool) {
            // A lone move draws nothing; a move plus a zero-length line still does.
            if current.count > 1 { result.append(Polyline(points: current, isClosed: closed)) }
            current = []
        }
        for element in elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                current = [p]
                start = p
            case .line(let p):
                if current.isEmpty { current = [start] }
                current.append(p)
            case .quadCurve(let p, let c):
                if current.isEmpty { current = [start] }
                let p0 = current.last ?? start
                let dd = hypot(p0.x - 2 * c.x + p.x, p0.y - 2 * c.y + p.y)
                let n = Path.segmentCount(sqrt(dd / (8 * tolerance)))
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    current.append(CGPoint(
                        x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                        y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
                }
            case .curve(let p, let c1, let c2):
                if current.isEmpty { current = [start] }
                let p0 = current.last ?? start
                let dd = max(
                    hypot(p0.x - 2 * c1.x + c2.x, p0.y - 2 * c1.y + c2.y),
                    hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y))
                let n = Path.segmentCount(sqrt(3 * dd / (4 * tolerance)))
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(CGPoint(
                        x: a * p0.x + b * c1.x + c * c2.x + d * p.x,
                        y: a * p0.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .closeSubpath:
                finish(closed: true)
            }
        }
        finish(closed: false)
        return result
    }

    private static func segmentCount(_ estimate: CGFloat) -> Int {
        guard estimate.isFinite else { return maximumCurveSegments }
        return min(max(Int(estimate.rounded(.up)), 1), maximumCurveSegments)
    }
}

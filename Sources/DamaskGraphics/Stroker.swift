import Foundation

/// Turns flattened subpaths into the polygons covering their stroke.
///
/// Works in user space; the caller maps the polygons to device space, which makes
/// strokes under non-uniform scales correctly elliptical. The outline is a union of
/// simple pieces (one quadrilateral per segment, one polygon per join and cap), every
/// piece oriented the same way so that a non-zero fill draws their union.
struct Stroker {
    /// The stroke width in user units.
    var lineWidth: CGFloat
    /// The end-cap style.
    var cap: LineCap
    /// The corner style.
    var join: LineJoin
    /// The miter limit (ratio of miter length to line width).
    var miterLimit: CGFloat
    /// The dash pattern (empty for solid) and its phase.
    var dashLengths: [CGFloat]
    /// How far into the dash pattern the stroke starts.
    var dashPhase: CGFloat
    /// The flattening tolerance for round joins and caps, in user units.
    var tolerance: CGFloat

    /// The most dash pieces one stroke produces; beyond that the rest is not dashed.
    static let maximumDashPieces = 100_000

    /// Returns the stroke outline of `polylines` as polygons.
    func outline(of polylines: [Polyline]) -> [[CGPoint]] {
        guard lineWidth > 0, lineWidth.isFinite else { return [] }
        var polygons: [[CGPoint]] = []
        for polyline in polylines {
            let cleaned = Stroker.removingDuplicates(polyline)
            if isDashed {
                for piece in dashed(cleaned) { strokeOpen(piece, into: &polygons) }
            } else if cleaned.isClosed && cleaned.points.count >= 2 {
                strokeClosed(cleaned.points, into: &polygons)
            } else {
                strokeOpen(cleaned, into: &polygons)
            }
        }
        return polygons
    }

    private var isDashed: Bool {
        !dashLengths.isEmpty && dashLengths.allSatisfy { $0 >= 0 && $0.isFinite }
            && dashLengths.reduce(0, +) > 0
    }

    private var halfWidth: CGFloat { lineWidth / 2 }

    // MARK: Pieces

    private func strokeOpen(_ polyline: Polyline, into polygons: inout [[CGPoint]]) {
        let points = polyline.points
        guard let first = points.first else { return }
        if points.count == 1 {
            addCap(at: first, direction: polyline.startDirection, into: &polygons, isStart: true)
            addCap(at: first, direction: polyline.startDirection, into: &polygons, isStart: false)
            return
        }
        for i in 0..<(points.count - 1) {
            addSegment(points[i], points[i + 1], into: &polygons)
            if i > 0 { addJoin(points[i - 1], points[i], points[i + 1], into: &polygons) }
        }
        addCap(at: first, direction: Stroker.unit(points[1] - first), into: &polygons, isStart: true)
        let last = points[points.count - 1]
        addCap(at: last, direction: Stroker.unit(last - points[points.count - 2]), into: &polygons, isStart: false)
    }

    private func strokeClosed(_ points: [CGPoint], into polygons: inout [[CGPoint]]) {
        let n = points.count
        for i in 0..<n {
            addSegment(points[i], points[(i + 1) % n], into: &polygons)
            addJoin(points[(i + n - 1) % n], points[i], points[(i + 1) % n], into: &polygons)
        }
    }

    private func addSegment(_ p: CGPoint, _ q: CGPoint, into polygons: inout [[CGPoint]]) {
        let n = Stroker.normal(Stroker.unit(q - p)) * halfWidth
        polygons.append(Stroker.oriented([p + n, q + n, q - n, p - n]))
    }

    private func addJoin(_ a: CGPoint, _ p: CGPoint, _ b: CGPoint, into polygons: inout [[CGPoint]]) {
        let d0 = Stroker.unit(p - a), d1 = Stroker.unit(b - p)
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12 && dot > 0 { return }  // straight on: the segments already meet
        let side: CGFloat = cross > 0 ? -1 : 1
        let n0 = Stroker.normal(d0) * (side * halfWidth)
        let n1 = Stroker.normal(d1) * (side * halfWidth)
        switch join {
        case .bevel:
            polygons.append(Stroker.oriented([p, p + n0, p + n1]))
        case .miter:
            let cosHalf = ((1 + dot) / 2).squareRoot()
            let ratio = cosHalf > 1e-9 ? 1 / cosHalf : .infinity
            if ratio <= miterLimit {
                let bisector = Stroker.unit(n0 + n1)
                let tip = p + bisector * (halfWidth * ratio)
                polygons.append(Stroker.oriented([p, p + n0, tip, p + n1]))
            } else {
                polygons.append(Stroker.oriented([p, p + n0, p + n1]))
            }
        case .round:
            var fan = [p]
            fan.append(contentsOf: arc(around: p, from: n0, turn: abs(atan2(cross, dot)), through: d0))
            polygons.append(Stroker.oriented(fan))
        }
    }

    private func addCap(at p: CGPoint, direction d: CGPoint, into polygons: inout [[CGPoint]], isStart: Bool) {
        let outward = isStart ? d * -1 : d
        let n = Stroker.normal(outward) * halfWidth
        switch cap {
        case .butt:
            return
        case .square:
            let e = outward * halfWidth
            polygons.append(Stroker.oriented([p + n, p + n + e, p - n + e, p - n]))
        case .round:
            var fan = [p]
            fan.append(contentsOf: arc(around: p, from: n, turn: .pi, through: outward))
            polygons.append(Stroker.oriented(fan))
        }
    }

    /// Points on the circle of radius `halfWidth` around `center` from offset `from`,
    /// turning by `turn` radians on the side `through` points to.
    private func arc(
        around center: CGPoint, from: CGPoint, turn: CGFloat, through: CGPoint
    ) -> [CGPoint] {
        let r = halfWidth
        let stepAngle = r > tolerance ? 2 * acos(1 - tolerance / r) : CGFloat.pi / 2
        let steps = min(max(Int((turn / max(stepAngle, 1e-3)).rounded(.up)), 1), 128)
        let startAngle = atan2(from.y, from.x)
        let sweep: CGFloat
        // Of the two ways round, take the one whose midpoint lies along `through`.
        let mid = startAngle + turn / 2
        let direction: CGFloat = cos(mid) * through.x + sin(mid) * through.y >= 0 ? 1 : -1
        sweep = direction * turn
        return (0...steps).map { i in
            let angle = startAngle + sweep * CGFloat(i) / CGFloat(steps)
            return CGPoint(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
        }
    }

    // MARK: Dashes

    private func dashed(_ polyline: Polyline) -> [Polyline] {
        var points = polyline.points
        if polyline.isClosed, let first = points.first, points.count >= 2 { points.append(first) }
        guard points.count >= 2 else { return [polyline] }
        let total = dashLengths.reduce(0, +)
        var index = 0
        var phase = dashPhase.isFinite ? dashPhase.truncatingRemainder(dividingBy: total) : 0
        if phase < 0 { phase += total }
        while phase >= dashLengths[index] && phase > 0 {
            phase -= dashLengths[index]
            index = (index + 1) % dashLengths.count
        }
        var remaining = dashLengths[index] - phase
        var pieces: [Polyline] = []
        var current: [CGPoint] = index % 2 == 0 ? [points[0]] : []
        var direction = CGPoint(x: 1, y: 0)
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let length = hypot(b.x - a.x, b.y - a.y)
            direction = Stroker.unit(b - a)
            var travelled: CGFloat = 0
            while length - travelled >= remaining {
                travelled += remaining
                let t = length > 0 ? travelled / length : 0
                let point = CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                if index % 2 == 0 {
                    current.append(point)
                    pieces.append(Polyline(points: current, isClosed: false, startDirection: direction))
                    current = []
                    if pieces.count >= Stroker.maximumDashPieces { return pieces }
                } else {
                    current = [point]
                }
                index = (index + 1) % dashLengths.count
                remaining = dashLengths[index]
            }
            remaining -= length - travelled
            if index % 2 == 0 { current.append(b) }
        }
        if current.count >= 2 {
            pieces.append(Polyline(points: current, isClosed: false, startDirection: direction))
        }
        return pieces.map(Stroker.removingDuplicates)
    }

    // MARK: Geometry helpers

    private static func removingDuplicates(_ polyline: Polyline) -> Polyline {
        var result: [CGPoint] = []
        for p in polyline.points where result.last.map({ hypot($0.x - p.x, $0.y - p.y) > 1e-9 }) ?? true {
            result.append(p)
        }
        let direction = polyline.startDirection
        if polyline.isClosed, result.count > 2, let first = result.first, let last = result.last,
            hypot(first.x - last.x, first.y - last.y) <= 1e-9
        {
            result.removeLast()
        }
        return Polyline(points: result, isClosed: polyline.isClosed && result.count > 1, startDirection: direction)
    }

    private static func unit(_ v: CGPoint) -> CGPoint {
        let length = hypot(v.x, v.y)
        return length > 0 ? CGPoint(x: v.x / length, y: v.y / length) : CGPoint(x: 1, y: 0)
    }

    private static func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: -d.y, y: d.x) }

    /// Returns the polygon with a positive signed area (reversed if needed).
    private static func oriented(_ polygon: [CGPoint]) -> [CGPoint] {
        var area: CGFloat = 0
        for i in polygon.indices {
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            area += p.x * q.y - q.x * p.y
        }
        return area < 0 ? polygon.reversed() : polygon
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }

import Foundation

/// Turns flattened subpaths into the outline polygons of their stroke.
///
/// Works in user space; the caller maps the polygons to device space, which makes
/// strokes under non-uniform scales correctly elliptical.
///
/// ## Outlines
///
/// Each open subpath (and each dash) becomes one polygon: its left offset line forward,
/// the end cap, its right offset line backward (the left offset of the reversed
/// polyline), the start cap. A closed subpath becomes two: the left offset forward and the
/// right offset backward. At a corner the outer side gets the join (miter tip, round arc
/// or nothing for a bevel) and the inner side runs through the corner point itself.
///
/// That polygon is, as a chain of edges, exactly the sum of the boundaries of the
/// classic pieces (one rectangle per segment, one wedge per join and one piece per cap,
/// all with the same orientation): the edges shared by neighbouring pieces cancel, which
/// is what the detour through the corner point keeps. So the winding number of any point
/// is the number of pieces covering it, and a non-zero fill draws exactly their union,
/// with no seam and no double coverage where pieces meet, while the rasterizer sees about
/// two edges per segment instead of six.
///
/// Where the inner side's two offset lines cross within half of both segments (the usual
/// case: gentle turns, as along a flattened curve), the outline goes straight through
/// that crossing instead of detouring through the corner point. That drops exactly the
/// small region where the two segments' rectangles overlap from the sum (its winding goes
/// from 2 to 1), so the non-zero fill is unchanged, and the rasterizer no longer meets two
/// crossing edges at every vertex.
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

    /// Returns the stroke outline of `polylines` as polygons, to be filled with the
    /// non-zero rule.
    func outline(of polylines: [Polyline]) -> [[CGPoint]] {
        guard lineWidth > 0, lineWidth.isFinite else { return [] }
        var polygons: [[CGPoint]] = []
        for polyline in polylines {
            let cleaned = Stroker.removingDuplicates(polyline)
            if isDashed {
                for piece in dashed(cleaned) {
                    if piece.isClosed && piece.points.count >= 2 {
                        strokeClosed(piece.points, into: &polygons)
                    } else {
                        strokeOpen(piece, into: &polygons)
                    }
                }
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

    // MARK: Outlines

    private func strokeOpen(_ polyline: Polyline, into polygons: inout [[CGPoint]]) {
        let points = polyline.points
        guard let first = points.first else { return }
        var outline: [CGPoint] = []
        if points.count == 1 {
            // A zero-length subpath: only its caps (nothing for butt caps).
            guard cap != .butt else { return }
            let d = polyline.startDirection
            let n = Stroker.normal(d) * halfWidth
            outline.append(first + n)
            addCap(at: first, outward: d, into: &outline)
            outline.append(first - n)
            addCap(at: first, outward: d * -1, into: &outline)
            polygons.append(outline)
            return
        }
        outline.reserveCapacity(2 * points.count + 8)
        addOffsetLine(points, closed: false, into: &outline)
        let last = points[points.count - 1]
        addCap(at: last, outward: Stroker.unit(last - points[points.count - 2]), into: &outline)
        let reversed = Array(points.reversed())
        addOffsetLine(reversed, closed: false, into: &outline)
        addCap(at: first, outward: Stroker.unit(first - points[1]), into: &outline)
        polygons.append(outline)
    }

    private func strokeClosed(_ points: [CGPoint], into polygons: inout [[CGPoint]]) {
        var left: [CGPoint] = []
        left.reserveCapacity(2 * points.count + 4)
        addOffsetLine(points, closed: true, into: &left)
        var right: [CGPoint] = []
        right.reserveCapacity(2 * points.count + 4)
        addOffsetLine(Array(points.reversed()), closed: true, into: &right)
        polygons.append(left)
        polygons.append(right)
    }

    /// Appends the left offset line of `points` (at `halfWidth`, on the side of the
    /// normal `(−dy, dx)`), with the join on the outside of each corner and a detour
    /// through the corner point on the inside. A closed line also joins at its first
    /// point, where it starts and ends.
    private func addOffsetLine(_ points: [CGPoint], closed: Bool, into outline: inout [CGPoint]) {
        let n = points.count
        let segments = closed ? n : n - 1
        guard segments >= 1 else { return }
        var previousDirection = closed ? Stroker.unit(points[0] - points[n - 1]) : CGPoint(x: 0, y: 0)
        var previousLength = closed ? Stroker.length(points[0] - points[n - 1]) : 0
        for i in 0..<segments {
            let p = points[i]
            let v = points[(i + 1) % n] - p
            let length = Stroker.length(v)
            let d = Stroker.unit(v)
            if i == 0 && !closed {
                outline.append(p + Stroker.normal(d) * halfWidth)
            } else {
                addCorner(
                    at: p, from: previousDirection, to: d, shorterSide: min(previousLength, length),
                    into: &outline)
            }
            previousDirection = d
            previousLength = length
        }
        if !closed {
            outline.append(points[n - 1] + Stroker.normal(previousDirection) * halfWidth)
        }
    }

    /// The left offset line's points at corner `p` between directions `d0` and `d1`;
    /// `shorterSide` is the length of the shorter of the two segments meeting there.
    private func addCorner(
        at p: CGPoint, from d0: CGPoint, to d1: CGPoint, shorterSide: CGFloat, into outline: inout [CGPoint]
    ) {
        let n0 = Stroker.normal(d0) * halfWidth, n1 = Stroker.normal(d1) * halfWidth
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12 && dot > 0 {
            // Straight on: the two offsets meet.
            outline.append(p + n0)
            return
        }
        // The left side is outside the corner when the path turns towards the right
        // (negative cross product); a reversal (cross 0) puts its join on the left.
        guard cross <= 0 else {
            // The inside of the corner. The two offset lines cross at `p + (n0 + n1) / (1 +
            // dot)`, `halfWidth · tan(turn / 2)` along each segment from the corner. When
            // that is within half of both segments, going straight through the crossing
            // leaves out only the small loop where the two segments' rectangles overlap
            // (winding 2 there, 1 without it): the same non-zero fill with no
            // self-crossing edges for the rasterizer to cut bands at. Otherwise (short
            // segments, sharp turns) the detour through the corner point keeps it exact.
            if dot > -0.5, halfWidth * cross <= 0.5 * shorterSide * (1 + dot) {
                outline.append(p + (n0 + n1) * (1 / (1 + dot)))
                return
            }
            outline.append(p + n0)
            outline.append(p)
            outline.append(p + n1)
            return
        }
        if join == .miter {
            let cosHalf = ((1 + dot) / 2).squareRoot()
            let ratio = cosHalf > 1e-9 ? 1 / cosHalf : .infinity
            if ratio <= miterLimit {
                // The tip is where the two offset lines meet, so `p + n0` and `p + n1` lie
                // on the edges into and out of it: the outline goes straight to the tip,
                // one vertex instead of three, the same polygon with two edges fewer (and
                // two fewer edge ends for the rasterizer to cut rows into bands at).
                outline.append(p + Stroker.unit(n0 + n1) * (halfWidth * ratio))
                return
            }
        }
        outline.append(p + n0)
        if join == .round {
            let arc = self.arc(around: p, from: n0, turn: abs(atan2(cross, dot)), through: d0)
            outline.append(contentsOf: arc.dropFirst().dropLast())
        }
        outline.append(p + n1)
    }

    /// Appends the cap at `p` between the left offset point (`p` + normal of `outward`)
    /// and the right one, going round the outside; nothing for butt caps.
    private func addCap(at p: CGPoint, outward: CGPoint, into outline: inout [CGPoint]) {
        let n = Stroker.normal(outward) * halfWidth
        switch cap {
        case .butt:
            return
        case .square:
            let e = outward * halfWidth
            outline.append(p + n + e)
            outline.append(p - n + e)
        case .round:
            let arc = self.arc(around: p, from: n, turn: .pi, through: outward)
            outline.append(contentsOf: arc.dropFirst().dropLast())
        }
    }

    /// Points on the circle of radius `halfWidth` around `center` from offset `from`,
    /// turning by `turn` radians on the side `through` points to.
    private func arc(
        around center: CGPoint, from: CGPoint, turn: CGFloat, through: CGPoint
    ) -> [CGPoint] {
        let r = halfWidth
        // Steps of acos(1 − tolerance/r) keep each chord within tolerance/4 of the circle
        // (as cairo's pen does), so round caps and joins lose under 2 % of a level's area.
        let stepAngle = r > tolerance ? acos(1 - tolerance / r) : CGFloat.pi / 4
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
        let startsOn = index % 2 == 0
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
        if polyline.isClosed && startsOn && index % 2 == 0 {
            // A closed subpath that is on where it starts and ends: as in Core Graphics and
            // cairo, the last dash continues into the first through the start point with a
            // join, not two caps (and with no gap at all, the subpath stays closed).
            guard let first = pieces.first else { return [polyline] }
            pieces[0] = Polyline(
                points: current + first.points.dropFirst(), isClosed: false, startDirection: first.startDirection)
        } else if current.count >= 2 {
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

    private static func length(_ v: CGPoint) -> CGFloat { hypot(v.x, v.y) }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }

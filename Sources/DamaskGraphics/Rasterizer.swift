import Foundation

/// Scan-converts polygons into a ``CoverageMask`` with exact-area coverage.
///
/// ## Algorithm
///
/// Edges are kept in an edge table sorted by their top. Each pixel row is cut into
/// horizontal *bands* at every edge end point inside the row and at every crossing of two
/// edges, so that inside a band the active edges neither start, end nor cross. In a band
/// the edges are ordered by x and walked once with a running winding number; each span
/// inside the path by the fill rule (non-zero or even-odd) contributes its left edge with
/// sign +1 and its right edge with sign −1 to a row of *cells*. An edge piece inside pixel
/// column `c` with height `dy` adds the area to its right within the cell to cell `c` and
/// the rest of `dy` to cell `c + 1` (the signed area / cover accumulation of font-rs and
/// FreeType's gray rasterizer). The prefix sum of the cells is the exact area of the
/// pixel covered by the path, for either fill rule and for overlapping or
/// self-intersecting polygons, because the spans of one band are disjoint.
///
/// Work is proportional to the edges (their pixel crossings) plus the covered columns of
/// each row; nothing is sampled or sorted per sub-scanline.
///
/// ## Numbers
///
/// Heights are fixed-point: a pixel row is `subpixelScale` (256) units, band limits are
/// integers, so the contributions of one band's left and right edges cancel exactly. A
/// cell value of `cellOne` (2·256·256) is full coverage. Cells are `Int32` added with
/// wrapping arithmetic: an individual cell may overflow when very many edges cross it, but
/// the prefix sums (true coverages, 0…`cellOne`) come out exact modulo 2³².
///
/// Without antialiasing a pixel is covered when its centre is inside.
struct Rasterizer {
    /// Coordinates are clamped to ±this before scan conversion, so absurd input cannot
    /// overflow integer conversions (it is far outside any bitmap).
    static let coordinateLimit: Double = 16_777_216
    /// Fixed-point units per pixel in y.
    static let subpixelScale = 256
    /// The cell value of a fully covered pixel.
    static let cellOne: Int32 = 2 * 256 * 256
    /// The most band cuts × active edges one row is resolved exactly with; a row beyond it
    /// (thousands of edge pieces in one row) sums windings instead, which is exact wherever
    /// a pixel's windings differ by at most one. Cutting at crossings stops at the same
    /// budget (crossing splits × edges), so absurd input costs bounded work per row.
    static let bandWorkLimit = 1 << 16

    /// One non-horizontal polygon edge in mask-relative pixel coordinates, oriented
    /// downwards (`top < bottom`, fixed-point y).
    struct Edge {
        /// Fixed-point y of the top end (subpixel units, relative to the mask's row 0).
        var top: Int
        /// Fixed-point y of the bottom end.
        var bottom: Int
        /// x (pixels, relative to the mask's column 0) at `top`.
        var x: Double
        /// dx per subpixel unit of y.
        var slope: Double
        /// +1 when the polygon goes down along this edge, −1 when up.
        var winding: Int32

        /// x at fixed-point height `y`.
        @inline(__always) func x(at y: Int) -> Double { x + Double(y - top) * slope }
    }

    /// An edge crossing the current band, with its x at the band's top and bottom.
    struct Crossing {
        var top: Double
        var bottom: Double
        var winding: Int32
        var edge: Int32
    }

    /// Rasterizes `polygons` (device space, each implicitly closed) within the integer
    /// device box `bounds`, returning nil when nothing is covered there. Polygons with
    /// non-finite coordinates are skipped.
    static func mask(
        polygons: [[CGPoint]], rule: FillRule, antialias: Bool,
        bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) -> CoverageMask? {
        guard let table = EdgeTable(polygons: polygons, bounds: bounds),
            let mask = CoverageMask(x: table.x0, y: table.y0, width: table.width, height: table.height)
        else { return nil }
        var sink = MaskSink(bytes: mask.bytes, bytesPerRow: mask.bytesPerRow)
        scan(table, rule: rule, antialias: antialias, into: &sink)
        return mask
    }

    /// Scan-converts `table` and hands every covered span, row by row from the top and
    /// left to right within a row, to `sink`. Each pixel is reported at most once.
    static func scan<Sink: CoverageSink>(
        _ table: EdgeTable, rule: FillRule, antialias: Bool, into sink: inout Sink
    ) {
        if antialias {
            var converter = ScanConverter(width: table.width, height: table.height, rule: rule)
            converter.fill(edges: table.edges, into: &sink)
        } else {
            fillAliased(width: table.width, height: table.height, edges: table.edges, rule: rule, into: &sink)
        }
    }
}

/// The non-horizontal edges of some polygons, clipped to an integer device box, in the
/// box's coordinates: what ``Rasterizer/scan(_:rule:antialias:into:)`` converts.
struct EdgeTable {
    /// The device-space column and row of the box's origin (coordinate 0 of the edges).
    let x0: Int, y0: Int
    /// The box's size in pixels (positive).
    let width: Int, height: Int
    /// The edges, sorted by their top.
    let edges: [Rasterizer.Edge]

    /// Builds the table of `polygons` (device space, each implicitly closed) within the
    /// integer device box `bounds`; nil when no edge reaches into it. Polygons with
    /// non-finite coordinates are skipped.
    init?(polygons: [[CGPoint]], bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        typealias Edge = Rasterizer.Edge
        let subpixelScale = Rasterizer.subpixelScale
        var minX = Double.infinity, maxX = -Double.infinity
        var minY = Double.infinity, maxY = -Double.infinity
        var count = 0
        for polygon in polygons where polygon.count >= 3 {
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            for p in polygon {
                minX = min(minX, Double(p.x)); maxX = max(maxX, Double(p.x))
                minY = min(minY, Double(p.y)); maxY = max(maxY, Double(p.y))
            }
            count += polygon.count
        }
        guard count > 0 else { return nil }
        let limit = Rasterizer.coordinateLimit
        minX = min(max(minX, -limit), limit); maxX = min(max(maxX, -limit), limit)
        minY = min(max(minY, -limit), limit); maxY = min(max(maxY, -limit), limit)
        let x0 = max(bounds.x0, Int(minX.rounded(.down)))
        let x1 = min(bounds.x1, Int(maxX.rounded(.up)) + 1)
        let y0 = max(bounds.y0, Int(minY.rounded(.down)))
        let y1 = min(bounds.y1, Int(maxY.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return nil }

        // Build the edge table in mask-relative coordinates, dropping what lies wholly
        // above or below the mask (it cannot affect any row there).
        let scale = Double(subpixelScale)
        let maskTop = 0, maskBottom = (y1 - y0) * subpixelScale
        var edges: [Edge] = []
        edges.reserveCapacity(count)
        let originX = Double(x0), originY = Double(y0)
        for polygon in polygons where polygon.count >= 3 {
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            var previous = polygon[polygon.count - 1]
            var px = min(max(Double(previous.x), -limit), limit) - originX
            var py = ((min(max(Double(previous.y), -limit), limit) - originY) * scale).rounded()
            for point in polygon {
                let qx = min(max(Double(point.x), -limit), limit) - originX
                let qy = ((min(max(Double(point.y), -limit), limit) - originY) * scale).rounded()
                defer { previous = point; px = qx; py = qy }
                if py == qy { continue }
                let (tx, ty, bx, by, winding): (Double, Double, Double, Double, Int32) =
                    py < qy ? (px, py, qx, qy, 1) : (qx, qy, px, py, -1)
                let top = Int(ty), bottom = Int(by)
                if bottom <= maskTop || top >= maskBottom { continue }
                let slope = (bx - tx) / (by - ty)
                // Start the edge at the mask's top when it begins above it.
                let start = max(top, maskTop)
                let startX = tx + Double(start - top) * slope
                edges.append(Edge(
                    top: start, bottom: min(bottom, maskBottom), x: startX, slope: slope, winding: winding))
            }
        }
        guard !edges.isEmpty else { return nil }
        edges.sort { $0.top < $1.top }
        self.x0 = x0
        self.y0 = y0
        width = x1 - x0
        height = y1 - y0
        self.edges = edges
    }
}

extension Rasterizer {
    /// Non-antialiased fill: a pixel is covered when its centre is inside.
    fileprivate static func fillAliased<Sink: CoverageSink>(
        width: Int, height: Int, edges: [Edge], rule: FillRule, into sink: inout Sink
    ) {
        var active: [Int] = []
        var crossings: [(x: Double, winding: Int32)] = []
        var next = 0
        for row in 0..<height {
            let y = row * subpixelScale + subpixelScale / 2
            while next < edges.count, edges[next].top <= y {
                active.append(next)
                next += 1
            }
            active.removeAll { edges[$0].bottom <= y }
            crossings.removeAll(keepingCapacity: true)
            for index in active where edges[index].top <= y {
                crossings.append((edges[index].x(at: y), edges[index].winding))
            }
            guard crossings.count >= 2 else { continue }
            crossings.sort { $0.x < $1.x }
            var winding: Int32 = 0
            var spanStart = 0.0
            for crossing in crossings {
                let wasInside = rule == .winding ? winding != 0 : winding & 1 != 0
                winding &+= crossing.winding
                let isInside = rule == .winding ? winding != 0 : winding & 1 != 0
                if !wasInside && isInside {
                    spanStart = crossing.x
                } else if wasInside && !isInside {
                    // Pixels whose centres lie in [spanStart, x).
                    let first = Int(min(max((spanStart - 0.5).rounded(.up), 0), Double(width)))
                    let end = Int(min(max((crossing.x - 0.5).rounded(.up), 0), Double(width)))
                    if first < end { sink.span(row: row, x: first, count: end - first, coverage: 255) }
                }
            }
        }
    }
}

/// The antialiased scan converter for one box. ``fill(edges:into:)`` allocates the cell
/// row and the band's crossing list, owns them for the call and frees them before it
/// returns.
///
/// Invariants that make the unchecked pointer accesses safe:
/// - `cells` has `width + 2` entries; every write goes to an index clamped to `0…width`
///   (pieces left of the mask are folded into cell 0, pieces right of it are dropped).
/// - `crossings` has room for every active edge (its capacity is the edge count).
private struct ScanConverter {
    let width: Int
    let height: Int
    let rule: FillRule

    init(width: Int, height: Int, rule: FillRule) {
        self.width = width
        self.height = height
        self.rule = rule
    }

    mutating func fill<Sink: CoverageSink>(edges: [Edge], into sink: inout Sink) {
        let cellCount = width + 2
        let cells = UnsafeMutablePointer<Int32>.allocate(capacity: cellCount)
        cells.initialize(repeating: 0, count: cellCount)
        defer { cells.deallocate() }
        let edgeCapacity = max(edges.count, 1)
        let crossings = UnsafeMutablePointer<Rasterizer.Crossing>.allocate(capacity: edgeCapacity)
        defer { crossings.deallocate() }
        var touched = TouchedCells(capacity: cellCount)
        defer { touched.deallocate() }
        // The active edges' indices, and the band limits of the current row (the row's top
        // and bottom plus at most two end points per active edge).
        let active = UnsafeMutablePointer<Int32>.allocate(capacity: edgeCapacity)
        defer { active.deallocate() }
        let cuts = UnsafeMutablePointer<Int>.allocate(capacity: 2 * edgeCapacity + 2)
        defer { cuts.deallocate() }
        var activeCount = 0
        var next = 0
        let one = Rasterizer.subpixelScale
        edges.withUnsafeBufferPointer { table in
            let edge = table.baseAddress!
            for row in 0..<height {
                let rowTop = row * one, rowBottom = rowTop + one
                // Drop the edges that ended above this row, keeping the order, then add
                // those starting in it.
                var kept = 0
                for i in 0..<activeCount where edge[Int(active[i])].bottom > rowTop {
                    active[kept] = active[i]
                    kept += 1
                }
                activeCount = kept
                while next < table.count, edge[next].top < rowBottom {
                    active[activeCount] = Int32(truncatingIfNeeded: next)
                    activeCount += 1
                    next += 1
                }
                if activeCount == 0 {
                    if next >= table.count { break }
                    continue
                }
                // Band limits: the row's top and bottom and every end point inside it.
                cuts[0] = rowTop
                var cutCount = 1
                for i in 0..<activeCount {
                    let e = edge[Int(active[i])]
                    if e.top > rowTop { cuts[cutCount] = e.top; cutCount += 1 }
                    if e.bottom < rowBottom { cuts[cutCount] = e.bottom; cutCount += 1 }
                }
                cuts[cutCount] = rowBottom
                cutCount += 1
                if cutCount > 2 { ScanConverter.sort(cuts, count: cutCount) }
                let activeEdges = UnsafeBufferPointer(start: active, count: activeCount)
                if cutCount * activeCount > Rasterizer.bandWorkLimit {
                    // Too many bands × edges for this row (thousands of tiny pieces, such
                    // as a long finely dashed stroke): accumulate every edge with its
                    // winding and apply the rule to the summed winding instead.
                    for index in activeEdges {
                        let e = edge[Int(index)]
                        let top = max(e.top, rowTop), bottom = min(e.bottom, rowBottom)
                        addEdge(
                            from: e.x(at: top), to: e.x(at: bottom), height: bottom - top, sign: e.winding,
                            cells: cells, touched: &touched)
                    }
                    emit(row: row, cells: cells, touched: &touched, folding: true, into: &sink)
                    continue
                }
                var splits = 0
                var bandTop = rowTop
                for cut in UnsafeBufferPointer(start: cuts + 1, count: cutCount - 1) where cut > bandTop {
                    // [bandTop, cut) has a fixed set of active edges; cut it further where
                    // two of them cross.
                    while bandTop < cut {
                        var n = 0
                        for index in activeEdges {
                            let e = edge[Int(index)]
                            guard e.top <= bandTop, e.bottom >= cut else { continue }
                            crossings[n] = Rasterizer.Crossing(
                                top: e.x(at: bandTop), bottom: e.x(at: cut), winding: e.winding, edge: index)
                            n += 1
                        }
                        ScanConverter.sort(crossings, count: n)
                        var bandBottom = cut
                        if n > 1, splits &* n < Rasterizer.bandWorkLimit {
                            for i in 0..<(n - 1) where crossings[i].bottom > crossings[i + 1].bottom {
                                let a = crossings[i], b = crossings[i + 1]
                                let dTop = b.top - a.top, dBottom = a.bottom - b.bottom
                                let t = dTop / (dTop + dBottom)
                                // Round to the fixed-point grid but always make progress: a
                                // crossing just below the top cuts one unit (1/256 px) off.
                                let y = max(bandTop + roundedInt(t * Double(cut - bandTop)), bandTop + 1)
                                if y < bandBottom { bandBottom = y }
                            }
                        }
                        if bandBottom < cut {
                            splits += 1
                            n = 0
                            for index in activeEdges {
                                let e = edge[Int(index)]
                                guard e.top <= bandTop, e.bottom >= cut else { continue }
                                crossings[n] = Rasterizer.Crossing(
                                    top: e.x(at: bandTop), bottom: e.x(at: bandBottom), winding: e.winding,
                                    edge: index)
                                n += 1
                            }
                            ScanConverter.sort(crossings, count: n)
                        }
                        accumulateSpans(
                            crossings, count: n, height: bandBottom - bandTop, cells: cells,
                            touched: &touched)
                        bandTop = bandBottom
                    }
                }
                emit(row: row, cells: cells, touched: &touched, folding: false, into: &sink)
            }
        }
    }

    /// Sorts a row's band limits (insertion sort for the usual handful).
    @inline(__always)
    private static func sort(_ items: UnsafeMutablePointer<Int>, count: Int) {
        if count > 32 {
            var buffer = UnsafeMutableBufferPointer(start: items, count: count)
            buffer.sort()
            return
        }
        for i in 1..<count {
            let item = items[i]
            var j = i
            while j > 0, items[j - 1] > item {
                items[j] = items[j - 1]
                j -= 1
            }
            items[j] = item
        }
    }

    /// Insertion sort by x at the band top, ties by x at the bottom (the order just below
    /// the top). Bands are few edges and nearly sorted from one to the next.
    @inline(__always)
    private static func sort(_ items: UnsafeMutablePointer<Rasterizer.Crossing>, count: Int) {
        guard count > 1 else { return }
        if count > 32 {
            var buffer = UnsafeMutableBufferPointer(start: items, count: count)
            buffer.sort { (a: Rasterizer.Crossing, b: Rasterizer.Crossing) -> Bool in
                if a.top != b.top { return a.top < b.top }
                return a.bottom < b.bottom
            }
            return
        }
        for i in 1..<count {
            let item = items[i]
            var j = i
            while j > 0 {
                let previous = items[j - 1]
                if previous.top < item.top || (previous.top == item.top && previous.bottom <= item.bottom) { break }
                items[j] = previous
                j -= 1
            }
            items[j] = item
        }
    }

    /// Walks one band's ordered edges with the winding number and adds each inside span's
    /// left edge (+) and right edge (−) to the cells.
    @inline(__always)
    private func accumulateSpans(
        _ crossings: UnsafeMutablePointer<Rasterizer.Crossing>, count: Int, height: Int,
        cells: UnsafeMutablePointer<Int32>, touched: inout TouchedCells
    ) {
        var winding: Int32 = 0
        let evenOdd = rule == .evenOdd
        for i in 0..<count {
            let c = crossings[i]
            let wasInside = evenOdd ? winding & 1 != 0 : winding != 0
            winding &+= c.winding
            let isInside = evenOdd ? winding & 1 != 0 : winding != 0
            if wasInside != isInside {
                addEdge(
                    from: c.top, to: c.bottom, height: height, sign: isInside ? 1 : -1, cells: cells,
                    touched: &touched)
            }
        }
    }

    /// Adds the straight edge piece from x `xTop` to x `xBottom` over `height` subpixel
    /// units to the cells: for each pixel column it passes through, the part of the
    /// piece's height in that column times the area right of it (in cell `c`), and the
    /// remainder of that height (in cell `c + 1`).
    @inline(__always)
    private func addEdge(
        from xTop: Double, to xBottom: Double, height: Int, sign: Int32,
        cells: UnsafeMutablePointer<Int32>, touched: inout TouchedCells
    ) {
        let limit = Double(width)
        @inline(__always) func add(column c: Int, dy: Int, sumOfX: Double) {
            // sumOfX = x1 + x2 of the piece, both within [c, c + 1].
            guard dy != 0 else { return }
            if c < 0 {
                cells[0] &+= sign &* Int32(dy * 512)
                touched.mark(0)
                return
            }
            if c >= width { return }
            let full = Int32(dy * 512)
            var right = Int32(truncatingIfNeeded: roundedInt(Double(dy) * (sumOfX - 2 * Double(c)) * 256))
            right = min(max(right, 0), full)
            cells[c] &+= sign &* (full &- right)
            cells[c + 1] &+= sign &* right
            touched.mark(c)
            touched.mark(c + 1)
        }
        // Whole piece in one column (the common case: steep edges).
        let lo = min(xTop, xBottom), hi = max(xTop, xBottom)
        let firstColumn = lo < 0 ? -1 : lo >= limit ? width : Int(lo)
        let lastColumn = hi < 0 ? -1 : hi >= limit ? width : Int(hi)
        if firstColumn == lastColumn {
            add(column: firstColumn, dy: height, sumOfX: xTop + xBottom)
            return
        }
        // Walk from left to right, splitting the height at each column boundary with
        // rounded fixed-point y; consecutive pieces share boundaries, so their heights sum
        // to `height` exactly.
        let dxTotal = xBottom - xTop
        let leftToRight = dxTotal > 0
        // y (0…height) where the edge is at x, measured from the edge's top.
        @inline(__always) func y(atX x: Double) -> Int {
            let t = (x - xTop) / dxTotal
            return min(max(roundedInt(t * Double(height)), 0), height)
        }
        // Going left to right: the "start" is the piece's leftmost end.
        let startX = leftToRight ? xTop : xBottom
        let startY = leftToRight ? 0 : height
        var previousX = startX
        var previousY = startY
        var column = firstColumn
        while column < lastColumn {
            let boundary = Double(column + 1)
            let boundaryY = y(atX: boundary)
            let dy = leftToRight ? boundaryY - previousY : previousY - boundaryY
            if column < 0 {
                add(column: -1, dy: dy, sumOfX: 0)
            } else {
                add(column: column, dy: dy, sumOfX: previousX + boundary)
            }
            previousX = boundary
            previousY = boundaryY
            column += 1
            if column >= width { return }
        }
        let endX = leftToRight ? xBottom : xTop
        let endY = leftToRight ? height : 0
        let dy = leftToRight ? endY - previousY : previousY - endY
        add(column: column, dy: dy, sumOfX: previousX + endX)
    }

    /// Turns the row's touched cells into coverage bytes and zeroes them. Between two
    /// touched cells the coverage is constant, so each gap is one fill (the span output):
    /// the work is the touched cells plus a `memset` per covered run. A span whose right
    /// edge is beyond the mask runs to the row's end.
    ///
    /// With `folding`, cells hold summed windings rather than rule-resolved spans, and the
    /// fill rule is applied to each pixel's average winding (non-zero: its magnitude
    /// clamped to 1; even-odd: its distance from the nearest even number).
    @inline(__always)
    private func emit<Sink: CoverageSink>(
        row: Int, cells: UnsafeMutablePointer<Int32>, touched: inout TouchedCells,
        folding: Bool, into sink: inout Sink
    ) {
        let count = touched.count
        guard count > 0 else { return }
        touched.sort()
        var running: Int32 = 0
        let one = Rasterizer.cellOne
        let evenOdd = rule == .evenOdd
        // cellOne is 2^17: scale to 0…255 with rounding by a multiply and a shift.
        @inline(__always) func byte(_ value: Int32) -> UInt8 {
            var v = value
            if folding {
                if evenOdd {
                    v = v & (2 &* one &- 1)  // modulo two windings (cellOne is a power of 2)
                    if v > one { v = 2 &* one &- v }
                } else {
                    v = v == Int32.min ? one : abs(v)
                }
            }
            v = min(max(v, 0), one)
            return UInt8(truncatingIfNeeded: (v &* 255 &+ (1 << 16)) >> 17)
        }
        let indices = touched.indices
        for k in 0..<count {
            let x = Int(indices[k])
            touched.flags[x] = 0
            running &+= cells[x]
            cells[x] = 0
            guard x < width else { continue }
            let value = byte(running)
            let next = k + 1 < count ? min(Int(indices[k + 1]), width) : width
            if value != 0 { sink.span(row: row, x: x, count: next - x, coverage: value) }
        }
        touched.count = 0
    }
}

/// The cells of one row that edges touched, each listed once, so that a row's output
/// costs its touched cells rather than its width.
///
/// Owns `flags` and `indices` (both `capacity` entries, allocated in `init`) until
/// ``deallocate()``. Invariant: `flags[i] == 1` exactly for the `count` listed indices,
/// all in `0..<capacity`.
private struct TouchedCells {
    let flags: UnsafeMutablePointer<UInt8>
    let indices: UnsafeMutablePointer<Int32>
    var count = 0

    init(capacity: Int) {
        flags = .allocate(capacity: capacity)
        flags.initialize(repeating: 0, count: capacity)
        indices = .allocate(capacity: capacity)
    }

    func deallocate() {
        flags.deallocate()
        indices.deallocate()
    }

    /// Lists cell `i` unless it already is.
    @inline(__always) mutating func mark(_ i: Int) {
        if flags[i] != 0 { return }
        flags[i] = 1
        indices[count] = Int32(truncatingIfNeeded: i)
        count += 1
    }

    /// Sorts the listed indices (insertion sort for the usual handful).
    mutating func sort() {
        guard count > 1 else { return }
        if count > 24 {
            var buffer = UnsafeMutableBufferPointer(start: indices, count: count)
            buffer.sort()
            return
        }
        for i in 1..<count {
            let item = indices[i]
            var j = i
            while j > 0, indices[j - 1] > item {
                indices[j] = indices[j - 1]
                j -= 1
            }
            indices[j] = item
        }
    }
}

private typealias Edge = Rasterizer.Edge

/// `value` rounded to the nearest integer, halves away from zero, without a call into libm
/// (`rounded()` is a function call on x86-64 before SSE4.1). `value` must be well inside
/// `Int`'s range (the rasterizer's values are bounded by the coordinate limit × 2¹⁷).
@inline(__always)
private func roundedInt(_ value: Double) -> Int {
    Int(value + (value < 0 ? -0.5 : 0.5))
}

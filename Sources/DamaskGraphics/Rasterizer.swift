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
/// Most rows of a shape are one band (no edge starts, ends or crosses inside them). Those
/// take a short path: the active edges stay sorted by x from row to row, one comparison
/// per edge confirms the order at the row's top and bottom, x is fixed point (1/4096 px,
/// stepped from row to row by an integer per edge, 2⁻³² px precise), a piece inside one
/// column is added with integer arithmetic, and the touched cells, which then arrive in
/// column order, are handed on run by run during the walk, to a sink that sums and uses
/// each pixel's coverage in one pass.
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
    /// Fixed-point units per pixel in x where rows are converted as one band (2¹²).
    static let fixedScale = 4096
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
        /// Subpixel units of y per pixel of x along the edge (`1 / |slope|`, at most 10¹⁸):
        /// how far the edge descends between two column boundaries.
        var columnStep: Double
        /// dx per pixel row in ``Rasterizer/exactScale`` units (2⁻³² px), for rows converted
        /// as one band, which step x by this from row to row instead of recomputing it
        /// (an edge there spans at least a row, so `|dx|` per row is at most its whole
        /// width, below 2²⁶ px; the error after n rows is below n·2⁻³³ px).
        var rowStep: Int

        /// x at fixed-point height `y`.
        @inline(__always) func x(at y: Int) -> Double { x + Double(y &- top) * slope }
    }

    /// Units per pixel of the x that rows converted as one band step from row to row (2³²).
    static let exactScale: Double = 4_294_967_296

    /// `value` in ``exactScale`` units, truncated, with magnitudes beyond 2⁶² (and NaN)
    /// clamped, so no input can trap. Only values within the coordinate limit reach the
    /// scan converter's arithmetic: their x are below 2⁵⁷ units.
    @inline(__always)
    static func exact(_ value: Double) -> Int {
        let scaled = value * exactScale
        guard scaled.magnitude < 4.6e18 else { return scaled > 0 ? 1 << 62 : -(1 << 62) }
        return Int(scaled)
    }

    /// An edge crossing the current band, with its x at the band's top and bottom.
    struct Crossing {
        var top: Double
        var bottom: Double
        var winding: Int32
        var edge: Int32
        /// The edge's ``Edge/columnStep``.
        var columnStep: Double
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
                    top: start, bottom: min(bottom, maskBottom), x: startX, slope: slope, winding: winding,
                    columnStep: abs(slope) > 1e-18 ? 1 / abs(slope) : 1e18,
                    rowStep: Rasterizer.exact(slope * scale)))
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
/// row, the coverage row handed to the sink, the band's crossing list and the active
/// edges' lists, owns them for the call and frees them before it returns.
///
/// Invariants that make the unchecked pointer accesses safe:
/// - `cells` has `width + 2` entries; every write goes to an index clamped to `0…width`
///   (pieces left of the mask are folded into cell 0, pieces right of it are dropped).
/// - `crossings` has room for every active edge (its capacity is the edge count).
/// - `active`, `exact`, `xTop`, `xBottom` and `cuts` have room for every edge (and `cuts` for two
///   end points per edge plus the row's limits).
/// - Every cell written in a row lies in a range recorded in `touched` (ranges stay within
///   `0…width`), and ``emit(row:cells:values:touched:folding:into:)`` zeroes exactly those,
///   so the cells are all zero again at the start of each row. On the one-band path the
///   ranges are not recorded: they arrive in column order (each edge's first cell is the
///   column of the smaller of its two ends, and both ends are sorted), and every run is
///   zeroed by ``emitRun(row:first:last:running:done:cells:values:folding:into:)`` before
///   the walk moves past it.
/// - `values` has `width` entries; ``emit(row:cells:values:touched:folding:into:)`` writes
///   index `c − first` of a run of cells `first…last` only for `c < width`.
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
        let values = UnsafeMutablePointer<UInt8>.allocate(capacity: max(width, 1))
        defer { values.deallocate() }
        let edgeCapacity = max(edges.count, 1)
        let crossings = UnsafeMutablePointer<Rasterizer.Crossing>.allocate(capacity: edgeCapacity)
        defer { crossings.deallocate() }
        var touched = TouchedRanges()
        defer { touched.deallocate() }
        // The active edges' indices, and the band limits of the current row (the row's top
        // and bottom plus at most two end points per active edge).
        let active = UnsafeMutablePointer<Int32>.allocate(capacity: edgeCapacity)
        defer { active.deallocate() }
        let cuts = UnsafeMutablePointer<Int>.allocate(capacity: 2 * edgeCapacity + 2)
        defer { cuts.deallocate() }
        // The active edges' x at the top and bottom of a row converted as one band, in the
        // order of `active`, in fixed point (``Rasterizer/fixedScale`` units per pixel).
        let xTop = UnsafeMutablePointer<Int>.allocate(capacity: edgeCapacity)
        defer { xTop.deallocate() }
        let xBottom = UnsafeMutablePointer<Int>.allocate(capacity: edgeCapacity)
        defer { xBottom.deallocate() }
        // The active edges' x at the current row's top in ``Rasterizer/exactScale`` units,
        // carried from a row converted as one band to the next.
        let exact = UnsafeMutablePointer<Int>.allocate(capacity: edgeCapacity)
        defer { exact.deallocate() }
        var activeCount = 0
        var next = 0
        // Whether `exact` holds every active edge's x at the last row's bottom (this
        // row's top), in the order of `active`: true after a row that tried one band.
        var carried = false
        let one = Rasterizer.subpixelScale
        edges.withUnsafeBufferPointer { table in
            let edge = table.baseAddress!
            for row in 0..<height {
                let rowTop = row * one, rowBottom = rowTop + one
                // Drop the edges that ended above this row, keeping the order (and the
                // carried x alongside), then add those starting in it.
                // Meanwhile note whether any active edge starts or ends inside the row.
                var kept = 0
                var firstBottom = Int.max
                for i in 0..<activeCount {
                    let index = active[i]
                    let bottom = edge[Int(index)].bottom
                    guard bottom > rowTop else { continue }
                    active[kept] = index
                    if carried { exact[kept] = exact[i] }
                    kept += 1
                    firstBottom = min(firstBottom, bottom)
                }
                let known = carried ? kept : 0
                carried = false
                activeCount = kept
                var startsInside = false
                while next < table.count, edge[next].top < rowBottom {
                    active[activeCount] = Int32(truncatingIfNeeded: next)
                    activeCount += 1
                    startsInside = startsInside || edge[next].top > rowTop
                    firstBottom = min(firstBottom, edge[next].bottom)
                    next += 1
                }
                if activeCount == 0 {
                    if next >= table.count { break }
                    continue
                }
                if !startsInside, firstBottom >= rowBottom {
                    carried = true
                    if singleBand(
                        row: row, edge: edge, active: active, count: activeCount, known: known, exact: exact,
                        xTop: xTop, xBottom: xBottom, cells: cells, values: values, into: &sink)
                    {
                        continue
                    }
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
                        let range = addEdge(
                            from: e.x(at: top), to: e.x(at: bottom), height: bottom - top,
                            columnStep: e.columnStep, sign: e.winding, cells: cells)
                        if range.first <= range.last { touched.add(range.first, range.last) }
                    }
                    emit(row: row, cells: cells, values: values, touched: &touched, folding: true, into: &sink)
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
                                top: e.x(at: bandTop), bottom: e.x(at: cut), winding: e.winding, edge: index,
                                columnStep: e.columnStep)
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
                                    edge: index, columnStep: e.columnStep)
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
                emit(row: row, cells: cells, values: values, touched: &touched, folding: false, into: &sink)
            }
        }
    }

    /// Converts row `row` as one band when that is exact, and returns whether it did.
    ///
    /// The caller has checked that every active edge spans the whole row (none starts or
    /// ends inside it). The first `known` entries of `exact` hold the x of `active`'s
    /// first `known` edges at the row's top (their bottoms in the row above, carried
    /// over), in ``Rasterizer/exactScale`` units; the others are computed. Each edge's x
    /// at the row's bottom is its top plus its ``Rasterizer/Edge/rowStep``: integer
    /// stepping, no floating point per row. This leaves every edge's x at the row's
    /// bottom in `exact`, and sorts `active` by x at the row's top (ties by x at its
    /// bottom), in place, with `exact`, `xTop` and `xBottom` alongside; `active` stays in
    /// that order between rows, so from one row to the next the sort usually moves
    /// nothing.
    /// When the edges' order at the row's bottom is the same, no two of them cross inside
    /// the row: the row is one band, whose spans go straight to the cells, and the row is
    /// emitted. Otherwise it returns false with nothing written, and the caller cuts the
    /// row into bands.
    ///
    /// The common row of a shape (a few edges passing through) costs one pass to compute
    /// the ends, one to check the order and one to walk the winding: no band limits, no
    /// crossing records and no sorting of them.
    @inline(__always)
    private func singleBand<Sink: CoverageSink>(
        row: Int, edge: UnsafePointer<Edge>, active: UnsafeMutablePointer<Int32>, count: Int, known: Int,
        exact: UnsafeMutablePointer<Int>, xTop: UnsafeMutablePointer<Int>, xBottom: UnsafeMutablePointer<Int>,
        cells: UnsafeMutablePointer<Int32>, values: UnsafeMutablePointer<UInt8>, into sink: inout Sink
    ) -> Bool {
        let one = Rasterizer.subpixelScale
        let rowTop = row * one
        // The ends, noting whether they are already in order (the usual case: the order at
        // the last row's bottom, checked there, is this row's order at the top).
        // Fixed point: rounding keeps the order of the ends, so the columns derived from
        // them keep it too (which the run bookkeeping below relies on); two edges that
        // cross by less than 1/4096 px inside the row are taken as touching, which moves
        // no pixel's coverage by a measurable amount.
        var inOrder = true
        var previousTop = Int.min, previousBottom = Int.min
        // From 2⁻³² px to 1/4096 px, rounding: a shift by 20 after adding half a unit.
        let half = 1 << 19
        for i in 0..<count {
            let e = edge[Int(active[i])]
            let topExact = i < known ? exact[i] : Rasterizer.exact(e.x(at: rowTop))
            let bottomExact = topExact &+ e.rowStep
            exact[i] = bottomExact
            let top = (topExact &+ half) &>> 20, bottom = (bottomExact &+ half) &>> 20
            xTop[i] = top
            xBottom[i] = bottom
            // Out of order at the top, or crossing before the bottom.
            if top < previousTop || bottom < previousBottom { inOrder = false }
            previousTop = top
            previousBottom = bottom
        }
        if !inOrder, !ScanConverter.sortBand(active: active, exact: exact, xTop: xTop, xBottom: xBottom, count: count) {
            return false
        }
        // Walk the edges left to right, adding each inside span's left (+) and right (−)
        // edge. The cells an edge touches start at the column of min(xTop, xBottom), which
        // never decreases along the walk (both ends are in order), so the touched cells
        // arrive as runs in order: a run is handed on as soon as the next edge starts
        // beyond it, with no list of ranges to sort and merge.
        var winding: Int32 = 0
        let evenOdd = rule == .evenOdd
        var running: Int32 = 0
        var done = 0
        var runFirst = 0, runLast = -1  // the pending run of touched cells (empty: last < first)
        for i in 0..<count {
            let e = edge[Int(active[i])]
            let wasInside = evenOdd ? winding & 1 != 0 : winding != 0
            winding &+= e.winding
            let isInside = evenOdd ? winding & 1 != 0 : winding != 0
            guard wasInside != isInside else { continue }
            let range = addEdge(
                fixedTop: xTop[i], bottom: xBottom[i], height: one, columnStep: e.columnStep,
                sign: isInside ? 1 : -1, cells: cells)
            guard range.first <= range.last else { continue }
            if runLast < runFirst {
                runFirst = range.first
                runLast = range.last
            } else if range.first > runLast &+ 1 {
                emitRun(
                    row: row, first: runFirst, last: runLast, running: &running, done: &done, cells: cells,
                    values: values, folding: false, into: &sink)
                runFirst = range.first
                runLast = range.last
            } else {
                runLast = max(runLast, range.last)
            }
        }
        if runLast >= runFirst {
            emitRun(
                row: row, first: runFirst, last: runLast, running: &running, done: &done, cells: cells,
                values: values, folding: false, into: &sink)
        }
        emitTail(row: row, running: running, done: done, folding: false, into: &sink)
        return true
    }

    /// Sorts a band's edges by x at the top, ties by x at the bottom (insertion sort,
    /// moving `active`, `exact`, `xTop` and `xBottom` together; the order usually held from
    /// the last row, so little moves), and returns whether the bottoms are then in order
    /// too (no two edges cross inside the band).
    private static func sortBand(
        active: UnsafeMutablePointer<Int32>, exact: UnsafeMutablePointer<Int>, xTop: UnsafeMutablePointer<Int>,
        xBottom: UnsafeMutablePointer<Int>, count: Int
    ) -> Bool {
        for i in 1..<count {
            let top = xTop[i], bottom = xBottom[i]
            let previousTop = xTop[i - 1]
            if previousTop < top || (previousTop == top && xBottom[i - 1] <= bottom) { continue }
            let index = active[i]
            let carried = exact[i]
            var j = i
            while j > 0 {
                let t = xTop[j - 1], b = xBottom[j - 1]
                if t < top || (t == top && b <= bottom) { break }
                xTop[j] = t
                xBottom[j] = b
                exact[j] = exact[j - 1]
                active[j] = active[j - 1]
                j -= 1
            }
            xTop[j] = top
            xBottom[j] = bottom
            exact[j] = carried
            active[j] = index
        }
        for i in 1..<count where xBottom[i] < xBottom[i - 1] { return false }
        return true
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
        cells: UnsafeMutablePointer<Int32>, touched: inout TouchedRanges
    ) {
        var winding: Int32 = 0
        let evenOdd = rule == .evenOdd
        for i in 0..<count {
            let c = crossings[i]
            let wasInside = evenOdd ? winding & 1 != 0 : winding != 0
            winding &+= c.winding
            let isInside = evenOdd ? winding & 1 != 0 : winding != 0
            if wasInside != isInside {
                let range = addEdge(
                    from: c.top, to: c.bottom, height: height, columnStep: c.columnStep, sign: isInside ? 1 : -1,
                    cells: cells)
                if range.first <= range.last { touched.add(range.first, range.last) }
            }
        }
    }

    /// Adds the straight edge piece from x `xTop` to x `xBottom` over `height` subpixel
    /// units to the cells: for each pixel column it passes through, the part of the
    /// piece's height in that column times the area right of it (in cell `c`), and the
    /// remainder of that height (in cell `c + 1`). Returns the cells it wrote, `first…last`
    /// (within `0…width`; `first > last` when the piece lies right of the mask and nothing
    /// was written).
    ///
    /// A piece crossing several columns is walked left to right with its y at each column
    /// boundary stepped by a constant increment (no division per column); the heights are
    /// differences of rounded boundary heights, so they sum to `height` exactly. A column
    /// the piece crosses from side to side holds it at mean x `c + ½`, so its two cells get
    /// `dy · 256` each: integer work only.
    @inline(__always)
    private func addEdge(
        from xTop: Double, to xBottom: Double, height: Int, columnStep step: Double, sign: Int32,
        cells: UnsafeMutablePointer<Int32>
    ) -> (first: Int, last: Int) {
        guard height > 0 else { return (1, 0) }
        let limit = Double(width)
        let lo = min(xTop, xBottom), hi = max(xTop, xBottom)
        let firstColumn = lo < 0 ? -1 : lo >= limit ? width : Int(lo)
        let lastColumn = hi < 0 ? -1 : hi >= limit ? width : Int(hi)
        if firstColumn == lastColumn {
            // Whole piece in one column (the common case: steep edges).
            if firstColumn < 0 {
                cells[0] &+= sign &* Int32(truncatingIfNeeded: height &* 512)
                return (0, 0)
            } else if firstColumn < width {
                addPiece(column: firstColumn, dy: height, sumOfX: xTop + xBottom, sign: sign, cells: cells)
                return (firstColumn, firstColumn &+ 1)
            }
            return (1, 0)
        }
        return addAcross(
            from: xTop, to: xBottom, firstColumn: firstColumn, lastColumn: lastColumn, height: height,
            columnStep: step, sign: sign, cells: cells)
    }

    /// ``addEdge(from:to:height:columnStep:sign:cells:)`` with fixed-point ends
    /// (``Rasterizer/fixedScale`` units per pixel), for rows converted as one band: the
    /// columns come from shifts, and a piece inside one column (most pieces of a shape's
    /// steep edges) is added with integer arithmetic alone. Its share right of the piece
    /// is `height · (fx₀ + fx₁) / 16` in cell units (fx: the ends' fractions in 1/4096 px),
    /// rounded, which is what the floating-point form computes, without the rounding of x.
    @inline(__always)
    private func addEdge(
        fixedTop x0: Int, bottom x1: Int, height: Int, columnStep step: Double, sign: Int32,
        cells: UnsafeMutablePointer<Int32>
    ) -> (first: Int, last: Int) {
        let limit = width &<< 12
        let lo = min(x0, x1), hi = max(x0, x1)
        let firstColumn = lo < 0 ? -1 : lo >= limit ? width : lo &>> 12
        let lastColumn = hi < 0 ? -1 : hi >= limit ? width : hi &>> 12
        if firstColumn == lastColumn {
            if firstColumn < 0 {
                cells[0] &+= sign &* Int32(truncatingIfNeeded: height &* 512)
                return (0, 0)
            } else if firstColumn < width {
                let full = Int32(truncatingIfNeeded: height &* 512)
                let right = Int32(truncatingIfNeeded: (height &* ((x0 & 4095) &+ (x1 & 4095)) &+ 8) &>> 4)
                cells[firstColumn] &+= sign &* (full &- right)
                cells[firstColumn &+ 1] &+= sign &* right
                return (firstColumn, firstColumn &+ 1)
            }
            return (1, 0)
        }
        return addAcross(
            fixedFrom: lo, to: hi, firstColumn: firstColumn, lastColumn: lastColumn, height: height,
            columnStep: step, sign: sign, cells: cells)
    }

    /// ``addAcross(from:to:firstColumn:lastColumn:height:columnStep:sign:cells:)`` for a
    /// piece with fixed-point ends `left < right` (1/4096 px, in either direction: the
    /// area does not depend on it): the same walk, with the first and last columns'
    /// shares computed from the ends' fractions in integer arithmetic, as a piece inside
    /// one column is.
    @inline(__always)
    private func addAcross(
        fixedFrom left: Int, to right: Int, firstColumn: Int, lastColumn: Int, height: Int,
        columnStep step: Double, sign: Int32, cells: UnsafeMutablePointer<Int32>
    ) -> (first: Int, last: Int) {
        let heightLimit = Double(height)
        let unit = 1 / Double(Rasterizer.fixedScale)
        var column = firstColumn
        // Height from `left` to the first column's right boundary (`left` lies before it).
        var yExact = min(Double(((column &+ 1) &<< 12) &- left) * unit * step, heightLimit)
        var y = min(roundedInt(yExact), height)
        if column < 0 {
            cells[0] &+= sign &* Int32(truncatingIfNeeded: y &* 512)
        } else {
            // From `left`'s fraction to the boundary (fraction 4096).
            addPiece(column: column, dy: y, fractionSum: (left & 4095) &+ 4096, sign: sign, cells: cells)
        }
        column &+= 1
        addWholeColumns(
            from: &column, to: min(lastColumn, width), y: &y, yExact: &yExact, step: step,
            heightLimit: heightLimit, height: height, sign: sign, cells: cells)
        if column < width {
            // From the column's left boundary (fraction 0) to `right`'s fraction.
            addPiece(column: column, dy: height &- y, fractionSum: right & 4095, sign: sign, cells: cells)
        }
        return (max(firstColumn, 0), min(lastColumn &+ 1, width))
    }

    /// Adds the columns a piece crosses whole, from `column` up to `end` (exclusive): each
    /// takes the height the piece gains across it (`yExact` advanced by `step`, rounded, at
    /// most `height`), half to its own cell and half to the next; leaves `column` at `end`
    /// (or where it was) and `y`, `yExact` at the last boundary crossed.
    @inline(__always)
    private func addWholeColumns(
        from column: inout Int, to end: Int, y: inout Int, yExact: inout Double, step: Double,
        heightLimit: Double, height: Int, sign: Int32, cells: UnsafeMutablePointer<Int32>
    ) {
        while column < end {
            yExact = min(yExact + step, heightLimit)
            let next = min(roundedInt(yExact), height)
            let half = sign &* Int32(truncatingIfNeeded: (next &- y) &* 256)
            cells[column] &+= half
            cells[column &+ 1] &+= half
            y = next
            column &+= 1
        }
    }

    /// Adds a piece of height `dy` (≥ 0) inside column `c` (`0 ≤ c < width`) whose two x
    /// ends' fractions within the column (1/4096 px, each `0…4096`) sum to `fractionSum`:
    /// `dy · fractionSum / 16` (rounded) goes to cell `c + 1` and the rest of `dy · 512`
    /// to cell `c`, as ``addPiece(column:dy:sumOfX:sign:cells:)`` computes in floating point.
    @inline(__always)
    private func addPiece(column c: Int, dy: Int, fractionSum: Int, sign: Int32, cells: UnsafeMutablePointer<Int32>) {
        let full = Int32(truncatingIfNeeded: dy &* 512)
        var right = Int32(truncatingIfNeeded: (dy &* fractionSum &+ 8) &>> 4)
        right = min(max(right, 0), full)
        cells[c] &+= sign &* (full &- right)
        cells[c &+ 1] &+= sign &* right
    }

    /// Adds an edge piece that crosses column boundaries (`firstColumn < lastColumn`, the
    /// columns of its left and right ends clamped to `-1…width`), walking its columns left
    /// to right; returns the cells it wrote.
    @inline(__always)
    private func addAcross(
        from xTop: Double, to xBottom: Double, firstColumn: Int, lastColumn: Int, height: Int,
        columnStep step: Double, sign: Int32, cells: UnsafeMutablePointer<Int32>
    ) -> (first: Int, last: Int) {
        // Walk left to right: the start is the piece's leftmost end, and y is measured
        // from there (0 at the start, `height` at the other end).
        let leftToRight = xBottom > xTop
        let startX = leftToRight ? xTop : xBottom
        let endX = leftToRight ? xBottom : xTop
        // `step` is the piece's height per pixel of x (its height over its width), kept with
        // the edge so that no division is needed here; y is clamped to the piece's height,
        // which rounding (or a near-vertical edge's huge step) may pass.
        let heightLimit = Double(height)
        var column = firstColumn
        var yExact = min((Double(column + 1) - startX) * step, heightLimit)
        var y = min(roundedInt(yExact), height)
        if column < 0 {
            // Everything left of the mask folds into cell 0 at full area.
            cells[0] &+= sign &* Int32(truncatingIfNeeded: y &* 512)
        } else {
            addPiece(column: column, dy: y, sumOfX: startX + Double(column + 1), sign: sign, cells: cells)
        }
        column &+= 1
        addWholeColumns(
            from: &column, to: min(lastColumn, width), y: &y, yExact: &yExact, step: step,
            heightLimit: heightLimit, height: height, sign: sign, cells: cells)
        if column < width {
            addPiece(column: column, dy: height - y, sumOfX: Double(column) + endX, sign: sign, cells: cells)
        }
        return (max(firstColumn, 0), min(lastColumn &+ 1, width))
    }

    /// Adds a piece of height `dy` inside column `c` (`0 ≤ c < width`) whose two x ends
    /// (both within `[c, c + 1]`) sum to `sumOfX`.
    @inline(__always)
    private func addPiece(column c: Int, dy: Int, sumOfX: Double, sign: Int32, cells: UnsafeMutablePointer<Int32>) {
        guard dy != 0 else { return }
        let full = Int32(truncatingIfNeeded: dy &* 512)
        var right = Int32(truncatingIfNeeded: roundedInt(Double(dy) * (sumOfX - 2 * Double(c)) * 256))
        right = min(max(right, 0), full)
        cells[c] &+= sign &* (full &- right)
        cells[c + 1] &+= sign &* right
    }

    /// Turns the row's touched cells into coverage and hands it on, zeroing the cells.
    ///
    /// The touched ranges are visited in order. Between them the coverage is constant, so
    /// each gap is one ``CoverageSink/span(row:x:count:coverage:)`` call; the cells of a
    /// range (the pixels edges pass through, mostly partly covered, each with its own
    /// coverage) are summed into `values` and handed on in one
    /// ``CoverageSink/coverage(row:x:values:count:)`` call, without a branch per pixel.
    /// The work is the touched cells plus one call per range and gap. A gap whose right
    /// side is beyond the mask runs to the row's end.
    ///
    /// With `folding`, cells hold summed windings rather than rule-resolved spans, and the
    /// fill rule is applied to each pixel's average winding (non-zero: its magnitude
    /// clamped to 1; even-odd: its distance from the nearest even number).
    ///
    /// `values` has room for `width` bytes (the caller owns it).
    @inline(__always)
    private func emit<Sink: CoverageSink>(
        row: Int, cells: UnsafeMutablePointer<Int32>, values: UnsafeMutablePointer<UInt8>,
        touched: inout TouchedRanges, folding: Bool, into sink: inout Sink
    ) {
        guard touched.count > 0 else { return }
        touched.sort()
        var running: Int32 = 0
        var done = 0  // cells up to this index are summed (and zeroed), pixels below it handed on
        var k = 0
        while k < touched.count {
            // Merge the ranges that overlap or abut into one run of cells.
            let first = max(Int(touched.ranges[k] >> 32), done)
            var last = Int(touched.ranges[k] & 0xFFFF_FFFF)
            k += 1
            while k < touched.count, Int(touched.ranges[k] >> 32) <= last + 1 {
                last = max(last, Int(touched.ranges[k] & 0xFFFF_FFFF))
                k += 1
            }
            guard last >= first else { continue }
            emitRun(
                row: row, first: first, last: last, running: &running, done: &done, cells: cells, values: values,
                folding: folding, into: &sink)
        }
        emitTail(row: row, running: running, done: done, folding: folding, into: &sink)
        touched.count = 0
    }

    /// The coverage byte (0…255, rounded) of a prefix sum of cells; with `folding`, of a
    /// summed winding (see ``emit(row:cells:values:touched:folding:into:)``).
    @inline(__always)
    private func byte(_ value: Int32, folding: Bool) -> UInt8 {
        let one = Rasterizer.cellOne
        var v = value
        if folding {
            if rule == .evenOdd {
                v = v & (2 &* one &- 1)  // modulo two windings (cellOne is a power of 2)
                if v > one { v = 2 &* one &- v }
            } else {
                v = v == Int32.min ? one : abs(v)
            }
        }
        return Rasterizer.coverageByte(v)
    }

    /// Hands on the gap from cell `done` to `first` (constant coverage, the sum so far) and
    /// then the pixels of cells `first..<last` (each its own coverage), zeroing cells
    /// `first…last`; `running` carries the prefix sum through cell `last` and `done`
    /// becomes `last`.
    ///
    /// The pixel of a run's last cell is left to the gap that follows: that cell only
    /// takes the remainder of the edge pieces ending in the column before it (what lies
    /// right of them), so the pixel's coverage is the sum the gap goes on with (full
    /// right of a shape's left edge, nothing right of its right edge). It is painted with
    /// the gap's span, or not at all, instead of pixel by pixel.
    ///
    /// Requires `done ≤ first ≤ last ≤ width`, and the next run's `first` above `last + 1`
    /// (runs that overlap or abut are merged before). Cells at `width` carry the sum only
    /// (no pixel).
    ///
    /// A sink that ``CoverageSink/takesCells`` gets the run's cells inside the mask as
    /// they are (unless `folding`), and turns them into coverage and pixels in one pass;
    /// `values` is then not used.
    @inline(__always)
    private func emitRun<Sink: CoverageSink>(
        row: Int, first: Int, last: Int, running: inout Int32, done: inout Int,
        cells: UnsafeMutablePointer<Int32>, values: UnsafeMutablePointer<UInt8>, folding: Bool,
        into sink: inout Sink
    ) {
        // The gap before the run keeps the coverage reached so far.
        if first > done {
            let value = byte(running, folding: folding)
            if value != 0 { sink.span(row: row, x: done, count: first &- done, coverage: value) }
        }
        let end = min(last, width)
        var sum = running
        var c = first
        if Sink.takesCells, !folding {
            if end > first {
                sum = sink.cells(row: row, x: first, cells: cells + first, count: end &- first, running: sum)
                c = end
            }
            while c <= last {
                sum &+= cells[c]
                cells[c] = 0
                c &+= 1
            }
            running = sum
            done = last
            return
        }
        while c < end {
            sum &+= cells[c]
            cells[c] = 0
            values[c &- first] = byte(sum, folding: folding)
            c &+= 1
        }
        while c <= last {
            sum &+= cells[c]
            cells[c] = 0
            c &+= 1
        }
        running = sum
        if end > first {
            // Leave out the uncovered pixels at both ends of the run.
            var lo = 0, hi = end &- first
            while lo < hi, values[lo] == 0 { lo &+= 1 }
            while hi > lo, values[hi &- 1] == 0 { hi &-= 1 }
            if lo < hi { sink.coverage(row: row, x: first &+ lo, values: values + lo, count: hi &- lo) }
        }
        done = last
    }

    /// Hands on the row's remainder after cell `done` (a gap at the coverage reached).
    @inline(__always)
    private func emitTail<Sink: CoverageSink>(
        row: Int, running: Int32, done: Int, folding: Bool, into sink: inout Sink
    ) {
        guard done < width else { return }
        let value = byte(running, folding: folding)
        if value != 0 { sink.span(row: row, x: done, count: width &- done, coverage: value) }
    }
}

/// The column ranges of one row that edges touched, so that a row's output costs its
/// touched cells rather than its width.
///
/// Owns `ranges` (`capacity` entries, allocated in `init`) until ``deallocate()``. Each
/// range is packed as `first << 32 | last` (inclusive cell indices, `0 ≤ first ≤ last ≤
/// width`), so sorting the packed values orders the ranges by their first cell. When more
/// ranges arrive than fit, they are merged into their hull: visiting untouched (zero) cells
/// is harmless, only slower.
private struct TouchedRanges {
    static let capacity = 512
    let ranges: UnsafeMutablePointer<UInt64>
    var count = 0

    init() {
        ranges = .allocate(capacity: TouchedRanges.capacity)
    }

    func deallocate() {
        ranges.deallocate()
    }

    /// Records cells `first…last`.
    @inline(__always) mutating func add(_ first: Int, _ last: Int) {
        let packed = UInt64(truncatingIfNeeded: first) << 32 | UInt64(truncatingIfNeeded: last)
        if count < TouchedRanges.capacity {
            ranges[count] = packed
            count += 1
            return
        }
        // Full: replace everything by the hull.
        var low = first, high = last
        for k in 0..<count {
            low = min(low, Int(ranges[k] >> 32))
            high = max(high, Int(ranges[k] & 0xFFFF_FFFF))
        }
        ranges[0] = UInt64(truncatingIfNeeded: low) << 32 | UInt64(truncatingIfNeeded: high)
        count = 1
    }

    /// Sorts the ranges by their first cell (insertion sort for the usual handful).
    mutating func sort() {
        guard count > 1 else { return }
        if count > 24 {
            var buffer = UnsafeMutableBufferPointer(start: ranges, count: count)
            buffer.sort()
            return
        }
        for i in 1..<count {
            let item = ranges[i]
            var j = i
            while j > 0, ranges[j - 1] > item {
                ranges[j] = ranges[j - 1]
                j -= 1
            }
            ranges[j] = item
        }
    }
}

extension Rasterizer {
    /// The coverage byte (0…255, rounded) of a prefix sum of cells: ``cellOne`` is full
    /// coverage, and sums outside `0…cellOne` are clamped.
    @inline(__always)
    static func coverageByte(_ value: Int32) -> UInt8 {
        // cellOne is 2^17: scale to 0…255 with rounding by a multiply and a shift.
        let v = min(max(value, 0), cellOne)
        return UInt8(truncatingIfNeeded: (v &* 255 &+ (1 << 16)) >> 17)
    }
}

private typealias Edge = Rasterizer.Edge

/// `value` rounded to the nearest integer (halves to even), without a call into libm
/// (`rounded()` is a function call on x86-64 before SSE4.1) and without the range check of
/// `Int(_: Double)`: adding 1.5·2⁵² leaves the rounded integer in the low 51 bits of the
/// sum's bit pattern, which are sign-extended. `|value|` must be below 2⁵⁰ (the
/// rasterizer's values are bounded by the coordinate limit × 2¹⁷ = 2⁴¹); NaN gives an
/// unspecified integer, never a trap.
@inline(__always)
private func roundedInt(_ value: Double) -> Int {
    let bits = Int(truncatingIfNeeded: (value + 6_755_399_441_055_744.0).bitPattern)
    return (bits << 13) >> 13
}

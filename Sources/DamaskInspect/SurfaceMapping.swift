import Foundation

/// How a buffer's pixels lie on its surface under one ``SurfaceGeometry``: the surface's size,
/// where each buffer pixel shows, which buffer pixel a surface pixel shows, and which changed
/// buffer pixels a commit's damage gets repainted.
///
/// The map is separable: after the buffer transform, one buffer axis runs along surface x and
/// the other along surface y (swapped by the 90° and 270° transforms, reversed by the
/// rotations and flips), each scaled by `1 / scale` and through the viewport's source crop and
/// destination. Value type; computed per commit.
struct SurfaceMapping {
    let bufferWidth: Int
    let bufferHeight: Int
    /// The surface's size in surface pixels (the viewport destination, else the source size,
    /// else the transformed buffer divided by the scale, as compositors compute it).
    let surfaceWidth: Int
    let surfaceHeight: Int
    /// Whether buffer y runs along surface x (90° and 270° transforms and their flips).
    let swapsAxes: Bool
    /// Whether the buffer axis along surface x (y) runs the other way.
    private let xReversed: Bool
    private let yReversed: Bool
    private let scale: Double
    /// The buffer pixels shown along buffer x and y: the whole buffer, but for a buffer whose
    /// size is not a multiple of the scale (which Weston 10 accepts; mutter posts
    /// `invalid_size`) the multiple below it. Weston sizes the surface by integer division and
    /// maps it onto that many buffer pixels from the buffer's origin, whatever the transform:
    /// the last rows or columns are never shown.
    let shownWidth: Int
    let shownHeight: Int
    private let crop: (x: Double, y: Double, width: Double, height: Double)

    init(geometry: SurfaceGeometry, bufferWidth: Int, bufferHeight: Int) {
        (self.bufferWidth, self.bufferHeight) = (bufferWidth, bufferHeight)
        let transform = geometry.transform & 7
        swapsAxes = transform & 1 == 1
        // Per wl_output.transform (see SurfaceGeometry's untransform): which way each axis runs.
        (xReversed, yReversed) = [(false, false), (true, false), (true, true), (false, true), (true, false), (false, false), (false, true), (true, true)][transform]
        let scale = max(1, geometry.scale)
        self.scale = Double(scale)
        let transformed = swapsAxes ? (bufferHeight, bufferWidth) : (bufferWidth, bufferHeight)
        (shownWidth, shownHeight) = (bufferWidth / scale * scale, bufferHeight / scale * scale)
        crop = geometry.source ?? (0, 0, Double(transformed.0 / scale), Double(transformed.1 / scale))
        if let destination = geometry.destination {
            (surfaceWidth, surfaceHeight) = destination
        } else if let source = geometry.source {
            (surfaceWidth, surfaceHeight) = (Int(source.width.rounded(.up)), Int(source.height.rounded(.up)))
        } else {
            (surfaceWidth, surfaceHeight) = (transformed.0 / scale, transformed.1 / scale)
        }
    }

    /// The surface coordinate (along x when `alongX`) of buffer coordinate `c` of the buffer
    /// axis that runs along it.
    private func surface(_ c: Double, alongX: Bool) -> Double {
        let (length, reversed) = alongX == swapsAxes ? (Double(shownHeight), alongX ? xReversed : yReversed) : (Double(shownWidth), alongX ? xReversed : yReversed)
        let t = reversed ? length - c : c
        return alongX
            ? (t / scale - crop.x) * Double(surfaceWidth) / crop.width
            : (t / scale - crop.y) * Double(surfaceHeight) / crop.height
    }

    /// The surface pixels (along x when `alongX`) that buffer coordinates `from..<to` of the
    /// axis running along it cover, rounded outward and clipped to the surface (empty: not
    /// visible).
    func surfaceRange(_ from: Int, _ to: Int, alongX: Bool) -> Range<Int> {
        guard crop.width > 0, crop.height > 0 else { return 0..<0 }
        let a = surface(Double(from), alongX: alongX), b = surface(Double(to), alongX: alongX)
        let size = alongX ? surfaceWidth : surfaceHeight
        let low = Int(max(-1, min(Double(size + 1), (min(a, b) + 1e-9).rounded(.down))))
        let high = Int(max(-1, min(Double(size + 1), (max(a, b) - 1e-9).rounded(.up))))
        return max(0, low)..<max(max(0, low), min(size, high))
    }

    /// The buffer pixel (x, y) that surface pixel (sx, sy) shows (sampled at its centre).
    func bufferPixel(sx: Int, sy: Int) -> (x: Int, y: Int) {
        func buffer(_ s: Int, alongX: Bool) -> Int {
            let (size, origin, length) = alongX ? (surfaceWidth, crop.x, crop.width) : (surfaceHeight, crop.y, crop.height)
            let t = ((Double(s) + 0.5) * length / Double(size) + origin) * scale
            let runsY = alongX == swapsAxes
            let axisLength = runsY ? shownHeight : shownWidth
            let reversed = alongX ? xReversed : yReversed
            let c = reversed ? Double(axisLength) - t : t
            return min(max(0, axisLength - 1), max(0, Int(c.rounded(.down))))
        }
        let alongX = buffer(sx, alongX: true), alongY = buffer(sy, alongX: false)
        return swapsAxes ? (alongY, alongX) : (alongX, alongY)
    }

    /// The buffer pixels never shown because the buffer's size is not a multiple of the scale
    /// (see ``shownWidth``): a change there is no under-damage.
    var unshownBufferRects: [PixelRect] {
        [PixelRect(x: shownWidth, y: 0, width: bufferWidth - shownWidth, height: bufferHeight),
         PixelRect(x: 0, y: shownHeight, width: shownWidth, height: bufferHeight - shownHeight)].filter { !$0.isEmpty }
    }

    /// The commit's damage in surface pixels, as Weston keeps it: the surface damage, and the
    /// buffer damage (clipped to the buffer) mapped to the surface and rounded outward.
    func surfaceDamage(surface: [PixelRect], buffer: [PixelRect]) -> DamageRegion {
        let bounds = PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight)
        let mapped = buffer.map { $0.intersection(bounds) }.filter { !$0.isEmpty }.map { rect -> PixelRect in
            let (alongX, alongY) = swapsAxes ? ((rect.y, rect.maxY), (rect.x, rect.maxX)) : ((rect.x, rect.maxX), (rect.y, rect.maxY))
            let xs = surfaceRange(alongX.0, alongX.1, alongX: true), ys = surfaceRange(alongY.0, alongY.1, alongX: false)
            return PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
        }
        // Each edge is clamped, not the origin and size: moving the origin of a rect that lies
        // left of or above the surface onto it would damage pixels it never covered.
        func clamp(_ value: Int) -> Int { max(-1, min(value, 1 << 32)) }
        let clamped = surface.map { rect -> PixelRect in
            let (left, top) = (clamp(rect.x), clamp(rect.y))
            let (right, bottom) = (clamp(rect.x.addingReportingOverflow(rect.width).partialValue), clamp(rect.y.addingReportingOverflow(rect.height).partialValue))
            return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
        }.filter { !$0.isEmpty }
        return DamageRegion(clamped + mapped, clippedTo: PixelRect(x: 0, y: 0, width: surfaceWidth, height: surfaceHeight))
    }

    /// The buffer pixels whose change the compositor shows, per buffer row: a pixel is covered
    /// when its whole image on the surface (rounded out to surface pixels) lies in
    /// `surfaceDamage` — Weston repaints surface (output) pixels, so a buffer pixel shown
    /// larger than the damage is partly left stale — and it is in `bufferDamage` (the damage
    /// converted to buffer pixels, rounded out: what mutter uploads); a pixel not shown at
    /// all (outside the viewport's source crop) is covered, whatever its value.
    func coverage(surfaceDamage: DamageRegion, bufferDamage: DamageRegion) -> DamageRegion {
        // Buffer columns (x) run along the surface axis `columnsAlongX`; rows along the other.
        let columnsAlongX = !swapsAxes
        let columns = (0..<bufferWidth).map { surfaceRange($0, $0 + 1, alongX: columnsAlongX) }
        let visible = columns.firstIndex { !$0.isEmpty }.map { first in first..<((columns.lastIndex { !$0.isEmpty } ?? first) + 1) } ?? 0..<0
        let reversed = columnsAlongX ? xReversed : yReversed
        /// The buffer columns whose surface range lies inside `span`.
        func columnsInside(_ span: Range<Int>) -> Range<Int> {
            // Ranges move monotonically with the column: forward, or backward when reversed.
            func partition(_ predicate: (Range<Int>) -> Bool) -> Int {
                var (low, high) = (visible.lowerBound, visible.upperBound)
                while low < high {
                    let mid = (low + high) / 2
                    if predicate(columns[mid]) { high = mid } else { low = mid + 1 }
                }
                return low
            }
            let range: Range<Int>
            if reversed {
                let start = partition { $0.upperBound <= span.upperBound }, end = partition { $0.lowerBound < span.lowerBound }
                range = start..<max(start, end)
            } else {
                let start = partition { $0.lowerBound >= span.lowerBound }, end = partition { $0.upperBound > span.upperBound }
                range = start..<max(start, end)
            }
            return range
        }
        var cache: [Range<Int>: [Range<Int>]] = [:]
        /// Buffer columns covered for a row whose surface range (along the other axis) is `row`.
        func covered(_ row: Range<Int>) -> [Range<Int>] {
            if let known = cache[row] { return known }
            var allowed: [Range<Int>]
            if columnsAlongX {
                // Surface x spans damaged in every surface row the buffer row covers.
                // Band by band, not row by row: a viewport destination can make one buffer
                // row millions of surface rows tall.
                allowed = [0..<surfaceWidth]
                var next = row.lowerBound
                for band in surfaceDamage.bands where band.bottom > row.lowerBound && band.top < row.upperBound {
                    guard band.top <= next, !allowed.isEmpty else { break }
                    allowed = Self.intersect(allowed, band.spans)
                    next = band.bottom
                }
                if next < row.upperBound { allowed = [] }
            } else {
                // Surface rows in which the buffer row's surface x range is damaged whole.
                allowed = []
                for band in surfaceDamage.bands where band.spans.contains(where: { $0.lowerBound <= row.lowerBound && row.upperBound <= $0.upperBound }) {
                    allowed = Self.union(allowed, [band.top..<band.bottom])
                }
            }
            // Sorted: under a reversed axis the surface's first span is the buffer's last.
            let result = allowed.map(columnsInside).filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
            cache[row] = result
            return result
        }
        let hidden = [0..<visible.lowerBound, visible.upperBound..<bufferWidth].filter { !$0.isEmpty }
        var rects: [PixelRect] = []
        var bands: [DamageRegion.Band] = []
        for y in 0..<bufferHeight {
            let row = surfaceRange(y, y + 1, alongX: !columnsAlongX)
            let spans = row.isEmpty
                ? [0..<bufferWidth]
                : Self.union(Self.intersect(covered(row), bufferDamage.spans(inRow: y)), hidden)
            guard !spans.isEmpty else { continue }
            if let last = bands.last, last.bottom == y, last.spans == spans {
                bands[bands.count - 1] = DamageRegion.Band(top: last.top, bottom: y + 1, spans: spans)
            } else {
                bands.append(DamageRegion.Band(top: y, bottom: y + 1, spans: spans))
            }
        }
        for band in bands {
            rects += band.spans.map { PixelRect(x: $0.lowerBound, y: band.top, width: $0.count, height: band.bottom - band.top) }
        }
        return DamageRegion(bands: bands, rects: rects)
    }

    /// The intersection of two sorted lists of disjoint ranges.
    static func intersect(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            let low = max(a[i].lowerBound, b[j].lowerBound), high = min(a[i].upperBound, b[j].upperBound)
            if low < high { result.append(low..<high) }
            if a[i].upperBound < b[j].upperBound { i += 1 } else { j += 1 }
        }
        return result
    }

    /// The union of two sorted lists of disjoint ranges, sorted and merged.
    static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in (a + b).sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

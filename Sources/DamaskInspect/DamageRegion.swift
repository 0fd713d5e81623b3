/// The union of damage rectangles as horizontal bands of disjoint x-intervals, so its area
/// counts overlapping rectangles once and a pixel's membership is a band lookup.
public struct DamageRegion: Sendable, Equatable {
    /// One band: rows `top..<bottom` covered on the sorted, disjoint `spans` (x ranges).
    public struct Band: Sendable, Equatable {
        public let top: Int
        public let bottom: Int
        public let spans: [Range<Int>]
    }

    public let bands: [Band]
    /// The rectangles the region was built from (clipped), as declared.
    public let rects: [PixelRect]

    /// The region covered by `rects`, clipped to `bounds`.
    public init(_ rects: [PixelRect], clippedTo bounds: PixelRect) {
        let clipped = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        self.rects = clipped
        let edges = Set(clipped.flatMap { [$0.y, $0.maxY] }).sorted()
        var bands: [Band] = []
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            let ranges = clipped.filter { $0.y <= top && $0.maxY >= bottom }.map { $0.x..<$0.maxX }.sorted { $0.lowerBound < $1.lowerBound }
            var merged: [Range<Int>] = []
            for range in ranges {
                if let last = merged.last, range.lowerBound <= last.upperBound {
                    merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            guard !merged.isEmpty else { continue }
            if let last = bands.last, last.bottom == top, last.spans == merged {
                bands[bands.count - 1] = Band(top: last.top, bottom: bottom, spans: merged)
            } else {
                bands.append(Band(top: top, bottom: bottom, spans: merged))
            }
        }
        self.bands = bands
    }

    /// A region given as its bands (sorted, disjoint, each with sorted disjoint spans) and the
    /// rectangles to report for it.
    init(bands: [Band], rects: [PixelRect]) {
        (self.bands, self.rects) = (bands, rects)
    }

    /// Pixels covered, overlaps counted once.
    public var area: Int {
        bands.reduce(0) { $0 + ($1.bottom - $1.top) * $1.spans.reduce(0) { $0 + $1.count } }
    }

    public var isEmpty: Bool { bands.isEmpty }

    /// The spans covering row `y` (empty when none).
    public func spans(inRow y: Int) -> [Range<Int>] {
        var low = 0, high = bands.count
        while low < high {
            let mid = (low + high) / 2
            if bands[mid].bottom <= y { low = mid + 1 } else { high = mid }
        }
        guard low < bands.count, bands[low].top <= y else { return [] }
        return bands[low].spans
    }

    /// Whether pixel (x, y) is damaged.
    public func contains(x: Int, y: Int) -> Bool {
        spans(inRow: y).contains { $0.contains(x) }
    }
}

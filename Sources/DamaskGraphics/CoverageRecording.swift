/// The output of one scan conversion (its spans and coverage runs, in order), kept so that
/// a path drawn again under the same transform, clip box, fill rule and antialiasing
/// replays its coverage instead of converting its edges again (see ``PathGeometryCache``).
///
/// Coverage does not depend on the colour, alpha or destination pixels, so a replay into a
/// ``SolidSpanPainter`` paints exactly what the conversion painted. A recording is a value:
/// two arrays, immutable once stored in a cache, so any number of threads may replay it.
struct CoverageRecording: Sendable {
    /// One span or run, relative to the converted box.
    struct Item: Sendable {
        var row: Int32
        var x: Int32
        var count: Int32
        /// The span's coverage (1…255); 0 marks a run whose `count` values come next in
        /// ``values``.
        var coverage: UInt8
    }

    /// The spans and runs, in the order the scan converter produced them.
    private(set) var items: [Item] = []
    /// The per-pixel coverages of the runs, one after the other.
    private(set) var values: [UInt8] = []

    /// The memory the recording holds, in bytes (approximately).
    var byteCount: Int { items.count * MemoryLayout<Item>.stride + values.count }

    /// Hands every recorded span and run to `sink`, in the recorded order, so the sink sees
    /// the same calls as during the recorded conversion.
    func replay<Sink: CoverageSink>(into sink: inout Sink) {
        items.withUnsafeBufferPointer { items in
            values.withUnsafeBufferPointer { values in
                guard var next = values.baseAddress else {
                    for item in items {
                        sink.span(row: Int(item.row), x: Int(item.x), count: Int(item.count), coverage: item.coverage)
                    }
                    return
                }
                for item in items {
                    if item.coverage != 0 {
                        sink.span(row: Int(item.row), x: Int(item.x), count: Int(item.count), coverage: item.coverage)
                    } else {
                        sink.coverage(row: Int(item.row), x: Int(item.x), values: next, count: Int(item.count))
                        next += Int(item.count)
                    }
                }
            }
        }
    }

    /// Appends a span (coverage 1…255). Coordinates fit in `Int32`: they lie inside a
    /// bitmap's box.
    mutating func appendSpan(row: Int, x: Int, count: Int, coverage: UInt8) {
        items.append(
            Item(
                row: Int32(truncatingIfNeeded: row), x: Int32(truncatingIfNeeded: x),
                count: Int32(truncatingIfNeeded: count), coverage: coverage))
    }

    /// Appends a run of `count` per-pixel coverages.
    mutating func appendRun(row: Int, x: Int, values run: UnsafePointer<UInt8>, count: Int) {
        items.append(
            Item(
                row: Int32(truncatingIfNeeded: row), x: Int32(truncatingIfNeeded: x),
                count: Int32(truncatingIfNeeded: count), coverage: 0))
        values.append(contentsOf: UnsafeBufferPointer(start: run, count: count))
    }
}

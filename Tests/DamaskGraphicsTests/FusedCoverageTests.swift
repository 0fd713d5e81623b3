@testable import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Sinks that take the scan converter's cells (``CoverageSink/takesCells``) sum, convert
/// and use each pixel's coverage in one pass. Whatever the sink, a conversion must give
/// the same coverage byte for every pixel as the two-pass form (cells summed into a row of
/// coverage bytes, then handed on).
@Suite("Coverage taken from cells", .timeLimit(.minutes(5)))
struct FusedCoverageTests {
    /// Writes spans and runs into a zeroed byte grid (the two-pass form: no cells).
    struct BytesSink: CoverageSink {
        var bytes: [UInt8]
        let width: Int
        var writes = 0

        mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
            for i in 0..<count { bytes[row * width + x + i] = coverage }
            writes += count
        }

        mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
            for i in 0..<count { bytes[row * width + x + i] = values[i] }
            writes += count
        }
    }

    /// Takes cells through the protocol's default ``CoverageSink/cells(row:x:cells:count:running:)``
    /// (pixel by pixel as spans).
    struct DefaultCellsSink: CoverageSink {
        var inner: BytesSink
        static var takesCells: Bool { true }

        mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
            inner.span(row: row, x: x, count: count, coverage: coverage)
        }

        mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
            inner.coverage(row: row, x: x, values: values, count: count)
        }
    }

    /// The benchmark's five-pointed star (outer radius 240, inner 96) around (256, 256).
    static func star() -> [CGPoint] {
        (0..<10).map { index in
            let radius: CGFloat = index.isMultiple(of: 2) ? 240 : 96
            let angle = -CGFloat.pi / 2 + CGFloat(index) * .pi / 5
            return CGPoint(x: 256 + radius * cos(angle), y: 256 + radius * sin(angle))
        }
    }

    /// The star's 3 px stroke outline (miter joins), as `stroke(_:)` builds it.
    static func starStroke() -> [[CGPoint]] {
        let stroker = Stroker(
            lineWidth: 3, cap: .butt, join: .miter, miterLimit: 10, dashLengths: [], dashPhase: 0, tolerance: 0.1)
        return stroker.outline(of: [Polyline(points: star(), isClosed: true)])
    }

    /// Random polygons in a 160×120 box, partly outside it, some self-intersecting.
    static func randomPolygons(seed: UInt64) -> [[CGPoint]] {
        var random = SeededRandom(seed: seed)
        return (0..<3).map { _ in
            (0..<(3 + random.next(9))).map { _ in
                CGPoint(x: CGFloat.random(in: -10..<170, using: &random), y: CGFloat.random(in: -10..<130, using: &random))
            }
        }
    }

    /// The coverage grids of `polygons` through the two-pass form, the default cell
    /// handling and ``MaskSink`` (which takes cells), in that order.
    static func grids(
        _ polygons: [[CGPoint]], rule: FillRule, bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) throws -> (bytes: [UInt8], defaultCells: [UInt8], mask: [UInt8], writes: Int) {
        let table = try #require(EdgeTable(polygons: polygons, bounds: bounds))
        let empty = BytesSink(bytes: Array(repeating: 0, count: table.width * table.height), width: table.width)
        var bytes = empty
        Rasterizer.scan(table, rule: rule, antialias: true, into: &bytes)
        var cells = DefaultCellsSink(inner: empty)
        Rasterizer.scan(table, rule: rule, antialias: true, into: &cells)
        let mask = try #require(Rasterizer.mask(polygons: polygons, rule: rule, antialias: true, bounds: bounds))
        #expect(mask.width == table.width && mask.height == table.height)
        var maskBytes: [UInt8] = []
        for row in 0..<mask.height {
            for column in 0..<mask.width { maskBytes.append(mask.bytes[row * mask.bytesPerRow + column]) }
        }
        return (bytes.bytes, cells.inner.bytes, maskBytes, bytes.writes)
    }

    @Test("the star's fill and stroke get the same coverage from cells as from coverage bytes", arguments: [FillRule.winding, .evenOdd])
    func starCoverageIsTheSame(rule: FillRule) throws {
        for polygons in [[Self.star()], Self.starStroke()] {
            let grids = try Self.grids(polygons, rule: rule, bounds: (0, 0, 512, 512))
            #expect(grids.writes > 1000, "the shape must cover pixels")
            #expect(grids.bytes.contains { $0 != 0 && $0 != 255 }, "the shape must have partly covered pixels")
            #expect(grids.defaultCells == grids.bytes)
            #expect(grids.mask == grids.bytes)
        }
    }

    @Test("random polygons, clipped and self-intersecting, get the same coverage from cells as from coverage bytes")
    func randomCoverageIsTheSame() throws {
        for seed in UInt64(1)...40 {
            let rule: FillRule = seed.isMultiple(of: 2) ? .evenOdd : .winding
            let grids = try Self.grids(Self.randomPolygons(seed: seed), rule: rule, bounds: (0, 0, 160, 120))
            #expect(grids.defaultCells == grids.bytes, "seed \(seed)")
            #expect(grids.mask == grids.bytes, "seed \(seed)")
        }
    }

    @Test("scaling a pixel in one 64-bit word rounds every channel exactly as the two-lane form")
    func wideScaleEqualsTwoLaneMultiply() {
        var random = SeededRandom(seed: 16)
        let extremes: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_FF00, 0x00FF_00FF, 0x8080_8080, 0x7F7F_7F7F, 0x0101_0101]
        var mismatches = 0
        for factor in 0...255 {
            let pixels = extremes + (0..<400).map { _ in UInt32(truncatingIfNeeded: random.next()) }
            for pixel in pixels
            where SolidSpanPainter.scale(pixel, by: UInt64(factor)) != SolidSpanPainter.multiply(pixel, by: UInt32(factor)) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(SolidSpanPainter.scale(0xFF80_4020, by: 128) == 0x8040_2010)
    }

    /// Counts the pixels handed on as runs of cells and as spans, writing coverage bytes.
    struct CountingSink: CoverageSink {
        var inner: BytesSink
        var runPixels = 0
        var spanPixels = 0
        static var takesCells: Bool { true }

        mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
            spanPixels += count
            inner.span(row: row, x: x, count: count, coverage: coverage)
        }

        mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
            inner.coverage(row: row, x: x, values: values, count: count)
        }

        mutating func cells(row: Int, x: Int, cells: UnsafeMutablePointer<Int32>, count: Int, running: Int32) -> Int32 {
            runPixels += count
            var sum = running
            for i in 0..<count {
                sum &+= cells[i]
                cells[i] = 0
                inner.bytes[row * inner.width + x + i] = Rasterizer.coverageByte(sum)
            }
            return sum
        }
    }

    @Test("only the pixels edges pass through go pixel by pixel: a row of a box from x 10.5 to 20.5 hands on 2, the rest as one span")
    func runsHoldOnlyTheEdgePixels() throws {
        let box = [CGPoint(x: 10.5, y: 2), CGPoint(x: 20.5, y: 2), CGPoint(x: 20.5, y: 12), CGPoint(x: 10.5, y: 12)]
        let table = try #require(EdgeTable(polygons: [box], bounds: (0, 0, 32, 16)))
        var sink = CountingSink(inner: BytesSink(bytes: Array(repeating: 0, count: table.width * table.height), width: table.width))
        Rasterizer.scan(table, rule: .winding, antialias: true, into: &sink)
        #expect(sink.runPixels == 10 * 2, "two half-covered pixels per row")
        #expect(sink.spanPixels == 10 * 9, "the nine covered pixels between them")
        let grids = try Self.grids([box], rule: .winding, bounds: (0, 0, 32, 16))
        #expect(sink.inner.bytes == grids.bytes)
        let row = 5 - table.y0
        let firstColumn = 10 - table.x0
        #expect(Array(sink.inner.bytes[(row * table.width + firstColumn)...].prefix(12)) == [128] + Array(repeating: 255, count: 9) + [128, 0])
    }
}

/// Receives the covered pixels of a scan conversion (see
/// ``Rasterizer/scan(_:rule:antialias:into:)``).
///
/// Coordinates are relative to the converted box (``EdgeTable/x0``, ``EdgeTable/y0``):
/// `0 ≤ x`, `x + count ≤ width`, `0 ≤ row < height`. Pixels arrive row by row from the
/// top, left to right within a row, each pixel at most once, either as a span of constant
/// non-zero coverage, as a run of per-pixel coverages (where edges pass; values may be
/// 0 there, meaning untouched, or 255) or, for a sink whose ``takesCells`` is true, as a
/// run of the scan converter's cells. Conformers may rely on these bounds to write
/// through unchecked pointers.
protocol CoverageSink {
    /// Takes `count` pixels of row `row` starting at column `x`, all with `coverage`
    /// (255 = fully covered).
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8)

    /// Takes `count` pixels of row `row` starting at column `x`, pixel `x + i` with
    /// coverage `values[i]`. `values` is borrowed for the call only.
    mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int)

    /// Whether the scan converter hands this sink its runs of cells
    /// (``cells(row:x:cells:count:running:)``) instead of coverage bytes, so the coverage
    /// is computed and used in one pass with no intermediate buffer. False unless a
    /// conformer says otherwise; the answer must not change.
    static var takesCells: Bool { get }

    /// Takes `count` pixels of row `row` starting at column `x` as scan-converter cells:
    /// pixel `x + i` has the coverage ``Rasterizer/coverageByte(_:)`` of
    /// `running + cells[0] + … + cells[i]` (wrapping sums), which may be 0. Must set those
    /// `count` cells to 0 and return the last sum (`running` when `count` is 0). `cells` is
    /// borrowed for the call only. Called only when ``takesCells`` is true.
    mutating func cells(row: Int, x: Int, cells: UnsafeMutablePointer<Int32>, count: Int, running: Int32) -> Int32
}

extension CoverageSink {
    static var takesCells: Bool { false }

    /// Hands the run on pixel by pixel as spans (correct for any sink, but slow; sinks
    /// that say ``takesCells`` implement their own).
    mutating func cells(row: Int, x: Int, cells: UnsafeMutablePointer<Int32>, count: Int, running: Int32) -> Int32 {
        var sum = running
        for i in 0..<count {
            sum &+= cells[i]
            cells[i] = 0
            let value = Rasterizer.coverageByte(sum)
            if value != 0 { span(row: row, x: x &+ i, count: 1, coverage: value) }
        }
        return sum
    }
}

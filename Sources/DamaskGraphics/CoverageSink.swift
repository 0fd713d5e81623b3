/// Receives the covered pixels of a scan conversion (see
/// ``Rasterizer/scan(_:rule:antialias:into:)``).
///
/// Coordinates are relative to the converted box (``EdgeTable/x0``, ``EdgeTable/y0``):
/// `0 ≤ x`, `x + count ≤ width`, `0 ≤ row < height`. Pixels arrive row by row from the
/// top, left to right within a row, each pixel at most once, either as a span of constant
/// non-zero coverage or as a run of per-pixel coverages (where edges pass; values may be
/// 0 there, meaning untouched, or 255). Conformers may rely on these bounds to write
/// through unchecked pointers.
protocol CoverageSink {
    /// Takes `count` pixels of row `row` starting at column `x`, all with `coverage`
    /// (255 = fully covered).
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8)

    /// Takes `count` pixels of row `row` starting at column `x`, pixel `x + i` with
    /// coverage `values[i]`. `values` is borrowed for the call only.
    mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int)
}

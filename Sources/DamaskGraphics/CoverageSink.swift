/// Receives the covered spans of a scan conversion (see
/// ``Rasterizer/scan(_:rule:antialias:into:)``).
///
/// Coordinates are relative to the converted box (``EdgeTable/x0``, ``EdgeTable/y0``):
/// `0 ≤ x`, `x + count ≤ width`, `0 ≤ row < height`. Spans arrive row by row from the
/// top, left to right within a row, never overlapping, each with a constant non-zero
/// coverage (255 = fully covered). Conformers may rely on these bounds to write through
/// unchecked pointers.
protocol CoverageSink {
    /// Takes `count` pixels of row `row` starting at column `x`, all with `coverage`.
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8)
}

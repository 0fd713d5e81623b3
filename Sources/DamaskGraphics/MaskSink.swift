/// Writes spans and coverage runs into the bytes of a zeroed ``CoverageMask`` of the
/// converted box's size; runs of cells are summed straight into the mask's bytes
/// (``takesCells``), zeros included (the mask is zeroed, so they change nothing).
///
/// Borrows `bytes` (the mask owns them); the mask must outlive the scan.
struct MaskSink: CoverageSink {
    /// The mask's first byte (row 0, column 0).
    let bytes: UnsafeMutablePointer<UInt8>
    /// The distance between mask rows in bytes.
    let bytesPerRow: Int

    @inline(__always)
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
        (bytes + row * bytesPerRow + x).update(repeating: coverage, count: count)
    }

    @inline(__always)
    mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
        (bytes + row * bytesPerRow + x).update(from: values, count: count)
    }

    static var takesCells: Bool { true }

    @inline(__always)
    mutating func cells(row: Int, x: Int, cells: UnsafeMutablePointer<Int32>, count: Int, running: Int32) -> Int32 {
        let target = bytes + row * bytesPerRow + x
        var sum = running
        for i in 0..<count {
            sum &+= cells[i]
            cells[i] = 0
            target[i] = Rasterizer.coverageByte(sum)
        }
        return sum
    }
}

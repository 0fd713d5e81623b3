/// Writes spans and coverage runs into the bytes of a zeroed ``CoverageMask`` of the
/// converted box's size.
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
}

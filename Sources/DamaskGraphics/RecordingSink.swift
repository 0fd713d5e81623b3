/// Forwards a scan conversion to another sink and records it into a
/// ``CoverageRecording`` on the way, until the recording would exceed `limit` bytes (then
/// it stops recording and reports ``overflowed``; the forwarding goes on).
struct RecordingSink<Inner: CoverageSink>: CoverageSink {
    /// Where the spans go.
    var inner: Inner
    /// What was recorded so far.
    var recording = CoverageRecording()
    /// The most bytes the recording may hold.
    let limit: Int
    /// Whether the recording was abandoned for being larger than `limit`.
    private(set) var overflowed = false

    init(inner: Inner, limit: Int) {
        self.inner = inner
        self.limit = limit
    }

    @inline(__always)
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
        inner.span(row: row, x: x, count: count, coverage: coverage)
        guard !overflowed else { return }
        recording.appendSpan(row: row, x: x, count: count, coverage: coverage)
        checkLimit()
    }

    @inline(__always)
    mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
        inner.coverage(row: row, x: x, values: values, count: count)
        guard !overflowed else { return }
        recording.appendRun(row: row, x: x, values: values, count: count)
        checkLimit()
    }

    private mutating func checkLimit() {
        if recording.byteCount > limit {
            overflowed = true
            recording = CoverageRecording()
        }
    }
}

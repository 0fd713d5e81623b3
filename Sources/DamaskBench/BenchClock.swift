import Foundation

/// Monotonic wall-clock and CPU-time readings, in nanoseconds.
enum BenchClock {
    /// `CLOCK_MONOTONIC` now.
    static func monotonic() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// The CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPU() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

    /// Reads any clock by its identifier (the presentation clock uses this).
    static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

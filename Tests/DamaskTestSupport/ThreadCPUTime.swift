import Foundation

/// CPU time of the calling thread, for bounds on how much work something takes.
///
/// Unlike wall-clock time it does not grow while other tests, processes or helpers hold
/// the cores, so a bound on it ("linear, not quadratic", "rejected from the header alone")
/// holds on a loaded two-core machine and in parallel `swift test`. Measure only
/// synchronous code: an `await` may resume on another thread.
public enum ThreadCPUTime {
    /// Seconds of CPU the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`); not a
    /// number when the clock cannot be read, so that every bound on it fails.
    public static func now() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .nan }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds of CPU the calling thread has used since `start` (a value of ``now()``).
    public static func since(_ start: Double) -> Double {
        now() - start
    }
}

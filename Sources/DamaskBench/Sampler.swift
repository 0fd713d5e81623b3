/// Runs a measured body after a warm-up, repeatedly, and summarises the samples.
///
/// Every sample is the CPU time of the calling thread, so time the process spends
/// preempted by other work on a shared machine is not counted. Short bodies are batched:
/// each sample runs the body as many times as it takes to fill ``minimumSampleNanoseconds``
/// (calibrated once, after the warm-up), and reports the time per run.
struct Sampler: Sendable {
    /// Runs discarded before sampling (caches, glyph caches, page faults).
    var warmUps: Int
    /// Samples kept.
    var repeats: Int
    /// The least CPU time one sample should take.
    var minimumSampleNanoseconds: UInt64
    /// When set, only figures whose name contains this text (case-insensitive) are
    /// measured (`--case`), so a profiler sees one case alone.
    var caseFilter: String? = nil

    /// Whether the figure called `name` is measured under ``caseFilter``.
    func includes(_ name: String) -> Bool {
        guard let filter = caseFilter else { return true }
        return name.range(of: filter, options: .caseInsensitive) != nil
    }

    /// Measures `body`; returns nanoseconds per run.
    func measure(_ body: () -> Void) -> Statistics {
        for _ in 0..<warmUps { body() }
        let batch = batchSize(for: body)
        return Statistics((0..<repeats).map { _ in Self.time(batch, body) })
    }

    /// Measures `subject` against `baseline`, alternating them sample by sample so that
    /// both see the same machine; the ratio is taken pair by pair.
    func compare(
        _ subject: () -> Void, against baseline: () -> Void
    ) -> (subject: Statistics, baseline: Statistics, ratio: Statistics) {
        for _ in 0..<warmUps {
            subject()
            baseline()
        }
        let subjectBatch = batchSize(for: subject)
        let baselineBatch = batchSize(for: baseline)
        var subjects: [Double] = []
        var baselines: [Double] = []
        var ratios: [Double] = []
        for index in 0..<repeats {
            let pair: (Double, Double)
            if index.isMultiple(of: 2) {
                let first = Self.time(subjectBatch, subject)
                pair = (first, Self.time(baselineBatch, baseline))
            } else {
                let second = Self.time(baselineBatch, baseline)
                pair = (Self.time(subjectBatch, subject), second)
            }
            subjects.append(pair.0)
            baselines.append(pair.1)
            ratios.append(pair.1 > 0 ? pair.0 / pair.1 : 0)
        }
        return (Statistics(subjects), Statistics(baselines), Statistics(ratios))
    }

    /// How many runs of `body` fill one sample.
    private func batchSize(for body: () -> Void) -> Int {
        let once = max(1, Self.time(1, body))
        let wanted = Double(minimumSampleNanoseconds) / once
        return max(1, min(100_000, Int(wanted.rounded(.up))))
    }

    /// The thread CPU time of `count` runs of `body`, per run, in nanoseconds.
    private static func time(_ count: Int, _ body: () -> Void) -> Double {
        let start = BenchClock.threadCPU()
        for _ in 0..<count { body() }
        return Double(BenchClock.threadCPU() - start) / Double(count)
    }
}

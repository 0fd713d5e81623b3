/// The median and the spread of a set of samples.
///
/// The spread is the interquartile range (25th to 75th percentile), which a few outliers
/// caused by other processes on a shared machine do not move.
struct Statistics: Codable, Sendable {
    /// The middle sample.
    var median: Double
    /// The 25th percentile.
    var lowerQuartile: Double
    /// The 75th percentile.
    var upperQuartile: Double
    /// The smallest sample.
    var minimum: Double
    /// The largest sample.
    var maximum: Double
    /// How many samples there were.
    var count: Int

    /// Summarises `samples`; an empty set gives zeros.
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        guard !sorted.isEmpty else {
            (median, lowerQuartile, upperQuartile, minimum, maximum) = (0, 0, 0, 0, 0)
            return
        }
        median = Self.percentile(0.5, of: sorted)
        lowerQuartile = Self.percentile(0.25, of: sorted)
        upperQuartile = Self.percentile(0.75, of: sorted)
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
    }

    /// Summarises one exact value (a count, a size).
    init(exactly value: Double) {
        self.init([value])
    }

    /// The interquartile range relative to the median, in percent (0 when the median is 0).
    var relativeSpread: Double {
        median == 0 ? 0 : (upperQuartile - lowerQuartile) / median * 100
    }

    /// Linear interpolation between the closest ranks of `sorted`.
    private static func percentile(_ fraction: Double, of sorted: [Double]) -> Double {
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}

extension Statistics {
    /// The same summary with every value multiplied by `factor` (a unit change).
    func scaled(by factor: Double) -> Statistics {
        var copy = self
        copy.median *= factor
        copy.lowerQuartile *= factor
        copy.upperQuartile *= factor
        copy.minimum *= factor
        copy.maximum *= factor
        return copy
    }
}

import DamaskViews

/// What happened while a script played.
public struct PlaybackReport: Sendable {
    /// The expectations that failed, in order (at most one unless
    /// `PlaybackOptions.stopsAtFirstFailure` is false).
    public var failures: [ExpectationFailure] = []
    /// Every commit the window made during playback, in order.
    public var commits: [CommitReport] = []
    /// The screenshots written, as resolved paths.
    public var screenshots: [String] = []
    /// How many commands were played.
    public var commandCount = 0

    /// Creates an empty report.
    public init() {}

    /// Whether every expectation held.
    public var succeeded: Bool { failures.isEmpty }
}

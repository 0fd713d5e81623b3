/// One measured figure: its median and spread, and, when it has a baseline measured in the
/// same run, the pairwise ratio to it.
struct Figure: Codable, Sendable {
    /// The suite that measured it (`graphics`, `views`, `damage`, …).
    var suite: String
    /// The case, e.g. `opaque rect fill 1920x1080`.
    var name: String
    /// What was measured, e.g. `time`, `damaged pixels`.
    var metric: String
    /// The unit of ``value``: `ms`, `µs`, `px`, `bytes`, `count`, …
    var unit: String
    /// The median and spread of the samples.
    var value: Statistics
    /// The baseline's name, when there is one.
    var baseline: String?
    /// The baseline's samples, in the same unit.
    var baselineValue: Statistics?
    /// The figure divided by the baseline, sample pair by sample pair.
    var ratio: Statistics?
    /// Anything a reader needs to interpret the figure.
    var note: String?
}

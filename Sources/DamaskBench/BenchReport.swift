import Foundation

/// Collects the figures and targets of a run, prints them as a table as they arrive, and
/// writes them all as JSON.
///
/// Main-actor isolated: the suites run on the main thread.
@MainActor final class BenchReport {
    /// The machine the run measured.
    let machine: MachineFacts
    /// The command line, for the record.
    let arguments: [String]
    /// Every figure so far, in order.
    private(set) var figures: [Figure] = []
    /// Every target checked so far.
    private(set) var targets: [Target] = []
    /// Suites that could not run, with the reason.
    private(set) var skipped: [String: String] = [:]
    private var currentSuite: String?

    /// Starts a report about `machine`.
    init(machine: MachineFacts, arguments: [String]) {
        self.machine = machine
        self.arguments = arguments
    }

    /// Prints the machine facts.
    func printHeader() {
        Console.write("damask-bench on \(machine.cpuModel), \(machine.cores) cores, load \(machine.loadAverage)")
        Console.write("pixman \(machine.pixmanVersion), kernel \(machine.kernel), \(machine.date)")
        Console.write("times are CPU time of the measuring thread; median [interquartile range]; ratios pair by pair")
    }

    /// Records and prints one figure.
    func add(_ figure: Figure) {
        if figure.suite != currentSuite {
            currentSuite = figure.suite
            Console.write("\n== \(figure.suite) ==")
            Console.write(
                Self.pad("case", 40) + Self.pad("metric", 18) + Self.pad("median", 22, right: true)
                    + "  " + Self.pad("baseline", 24) + Self.pad("baseline median", 18, right: true)
                    + "  " + Self.pad("ratio", 26, right: true))
        }
        figures.append(figure)
        var line = Self.pad(figure.name, 40) + Self.pad(figure.metric, 18)
        line += Self.pad(Self.describe(figure.value, unit: figure.unit), 22, right: true) + "  "
        if let baseline = figure.baseline, let value = figure.baselineValue {
            line += Self.pad(baseline, 24) + Self.pad(Self.format(value.median) + " " + figure.unit, 18, right: true)
        } else {
            line += Self.pad("", 24) + Self.pad("", 18)
        }
        if let ratio = figure.ratio {
            line += "  " + Self.pad(Self.describeRatio(ratio), 26, right: true)
        }
        if let note = figure.note { line += "  (\(note))" }
        Console.write(line)
    }

    /// Records and prints a target check.
    func check(_ target: Target) {
        targets.append(target)
        let verdict = target.holds ? "HOLDS" : "MISSES"
        Console.write(
            "target: \(target.statement): measured \(Self.format(target.measured)) \(target.unit), "
                + "limit \(Self.format(target.limit)) \(target.unit): \(verdict)")
    }

    /// Records that `suite` could not run, and why.
    func skip(_ suite: String, reason: String) {
        skipped[suite] = reason
        Console.write("\n== \(suite) == skipped: \(reason)")
    }

    /// Prints the summary of targets at the end of the run.
    func printSummary() {
        guard !targets.isEmpty else { return }
        Console.write("\n== targets ==")
        for target in targets {
            Console.write("\(target.holds ? "HOLDS " : "MISSES") \(target.statement): \(Self.format(target.measured)) \(target.unit) (limit \(Self.format(target.limit)))")
        }
    }

    /// Writes every figure, target and machine fact to `path` as JSON.
    func writeJSON(to path: String) throws {
        struct Document: Encodable {
            var machine: MachineFacts
            var arguments: [String]
            var figures: [Figure]
            var targets: [Target]
            var skipped: [String: String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(
            Document(machine: machine, arguments: arguments, figures: figures, targets: targets, skipped: skipped))
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// `median [q1–q3] unit`, or just the value for exact figures.
    static func describe(_ statistics: Statistics, unit: String) -> String {
        if statistics.count <= 1 || statistics.lowerQuartile == statistics.upperQuartile {
            return format(statistics.median) + " " + unit
        }
        return format(statistics.median) + " " + unit + " ±" + format(statistics.relativeSpread, digits: 2) + "%"
    }

    /// `×0.42 [0.40–0.45]`.
    static func describeRatio(_ ratio: Statistics) -> String {
        "×" + format(ratio.median) + " [" + format(ratio.lowerQuartile) + "–" + format(ratio.upperQuartile) + "]"
    }

    /// Three significant digits, without exponent for everyday magnitudes.
    static func format(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        if value == value.rounded(), magnitude < 1e7 { return String(Int(value)) }
        if magnitude >= 1e7 || magnitude < 1e-4 { return String(format: "%.\(digits - 1)e", value) }
        if magnitude >= pow(10, Double(digits - 1)) { return String(format: "%.0f", value) }
        let decimals = digits - 1 - Int(log10(magnitude).rounded(.down))
        return String(format: "%.\(max(0, decimals))f", value)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text + " " }
        let padding = String(repeating: " ", count: width - count)
        return right ? padding + text : text + padding
    }
}

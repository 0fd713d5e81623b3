import Foundation

/// Runs the chosen suites in order, prints the table and writes the JSON report.
@MainActor struct BenchRunner {
    /// The parsed command line.
    let options: BenchOptions

    /// Runs everything asked for. A suite that cannot run (no Weston) is recorded as
    /// skipped; the others still run.
    /// Runs the chosen suites; returns whether every target held (true when none was set).
    func run() throws -> Bool {
        let started = BenchClock.monotonic()
        let report = BenchReport(machine: .current(), arguments: Array(CommandLine.arguments.dropFirst()))
        report.printHeader()
        let sampler = options.sampler
        if let scenario = options.profiledScenario {
            DamageSuite(report: report, frames: options.frames, warmUps: options.warmUps).profile(
                scenario, coldCaches: options.profilesColdCaches)
            return true
        }
        if options.countsPages {
            try TouchedPagesSuite(report: report, frames: options.frames, warmUps: options.warmUps).run()
            report.printSummary()
            if let path = options.jsonPath { try report.writeJSON(to: path) }
            return true
        }
        for suite in options.suites {
            do {
                switch suite {
                case "graphics": try GraphicsSuite(report: report, sampler: sampler).run()
                case "views": ViewsSuite(report: report, sampler: sampler).run()
                case "controls": try ControlsSuite(report: report, sampler: sampler).run()
                case "typing": TypingSuite(report: report, sampler: sampler).run()
                case "damage":
                    DamageSuite(report: report, frames: options.frames, warmUps: options.warmUps).run()
                    try DamageChoicesSuite(report: report, sampler: sampler).run()
                case "latency": try LatencySuite(report: report, options: options).run()
                case "idle": try IdleSuite(report: report, options: options).run()
                case "memory": try MemorySuite(report: report, options: options).run()
                case "startup": try StartupSuite(report: report, options: options).run()
                case "typing-peers": try TypingPeersSuite(report: report, options: options).run()
                case "inspect": try InspectSuite(report: report, sampler: sampler).run()
                default: break
                }
            } catch {
                report.skip(suite, reason: "\(error)")
            }
        }
        report.printSummary()
        let seconds = Double(BenchClock.monotonic() - started) / 1e9
        Console.write(String(format: "\nfinished in %.1f s", seconds))
        if let path = options.jsonPath {
            try report.writeJSON(to: path)
            Console.write("wrote \(path)")
        }
        return report.targets.allSatisfy(\.holds)
    }
}

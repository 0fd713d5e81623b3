import DamaskProcess
import Foundation

/// damask-demo's start-up against foot's under the same private headless Weston: the time
/// from `exec` to the first commit that shows a buffer on the window's toplevel surface
/// (Weston's protocol log), the CPU time the program used until then, and its peak RSS
/// once it settled.
///
/// Both programs run under one Weston with a seat (foot refuses to start without one),
/// `--repeats` times each after one discarded warm-up of each, interleaved (demo first in
/// even rounds, foot first in odd ones) so that load changes hit both alike; ratios are
/// taken round by round.
@MainActor struct StartupSuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (repeats, offscreen-only).
    let options: BenchOptions

    /// How long a program runs after its first frame before its peak RSS is read.
    static let settleMicroseconds: UInt32 = 500_000
    /// How long a program may take to show its first frame.
    static let firstFrameTimeout: UInt64 = 20_000_000_000

    /// What one start measured.
    struct Start {
        /// `exec` to the first commit with a buffer, wall clock, milliseconds.
        var firstFrameMilliseconds: Double
        /// CPU time of all the program's threads when the first frame was seen, milliseconds.
        var cpuMilliseconds: Double
        /// Peak RSS (`VmHWM`) after settling, MiB.
        var peakResidentMiB: Double
        /// Whether the program had the Swift runtime as a shared library (`libswiftCore.so`
        /// in its mappings) rather than linked in (`--static-swift-stdlib`).
        var sharesSwiftRuntime: Bool
    }

    /// One program that is measured.
    private struct Program {
        var name: String
        var executable: String
        var arguments: [String]
    }

    /// The damask-demo `scripts/build-demo-release` builds (`.build/static/release/damask-demo`:
    /// the Swift runtime linked in, the build README's demo command runs), under
    /// `DAMASK_ROOT`, the current directory or the package this file was compiled from;
    /// nil when none is built.
    static func releaseDemoPath() -> String? {
        PackageCheckout.roots.map { $0 + "/.build/static/release/damask-demo" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the suite.
    func run() throws {
        guard !options.offscreenOnly else {
            report.skip("startup", reason: "--offscreen")
            return
        }
        guard let demoPath = options.demoPath ?? Self.releaseDemoPath() else {
            throw BenchError.helper(
                "the released damask-demo is not built (scripts/build-demo-release builds it in "
                    + ".build/static), or pass --demo PATH")
        }
        guard FileManager.default.isExecutableFile(atPath: demoPath) else {
            throw BenchError.helper("--demo \(demoPath) is not an executable")
        }
        guard let footPath = Self.executableInPath("foot") else {
            throw BenchError.helper("foot is not installed (scripts/setup)")
        }
        let demo = Program(name: "damask-demo", executable: demoPath, arguments: [])
        // foot's shell is `sleep`: nothing it prints can change what foot draws first.
        let foot = Program(name: "foot", executable: footPath, arguments: ["sleep", "60"])

        let weston = try PrivateCompositor.benchWeston(size: "1920x1080", seat: true)
        defer { weston.stop() }
        let environment = weston.clientEnvironment.filter { !$0.key.hasPrefix("DAMASK_") }
        _ = try measure(demo, weston: weston, environment: environment)
        _ = try measure(foot, weston: weston, environment: environment)
        var demoStarts: [Start] = []
        var footStarts: [Start] = []
        for round in 0..<options.repeats {
            if round.isMultiple(of: 2) {
                demoStarts.append(try measure(demo, weston: weston, environment: environment))
                footStarts.append(try measure(foot, weston: weston, environment: environment))
            } else {
                footStarts.append(try measure(foot, weston: weston, environment: environment))
                demoStarts.append(try measure(demo, weston: weston, environment: environment))
            }
        }
        record(demoStarts, against: footStarts)
        try checkOrderList(demoPath: demoPath)
    }

    /// The functions of `scripts/demo-startup-order.txt` (the start-up code lld packs
    /// together in the released build) that the measured binary no longer defines: renamed
    /// or removed since the list was made (`scripts/demo-startup-order` remakes it). A stale
    /// list still links but packs less, which costs peak RSS; the target makes that loud.
    /// Skipped (with the reason) for a demo not built by `scripts/build-demo-release`.
    private func checkOrderList(demoPath: String) throws {
        guard demoPath == Self.releaseDemoPath(),
            let listPath = PackageCheckout.roots.map({ $0 + "/scripts/demo-startup-order.txt" })
                .first(where: { FileManager.default.fileExists(atPath: $0) }),
            let list = try? String(contentsOfFile: listPath, encoding: .utf8)
        else {
            report.skip("startup order list", reason: "the demo is not the released build, or the list is not found")
            return
        }
        let listed = Set(list.split(separator: "\n").map(String.init))
        let nm = try ChildProcess("/usr/bin/nm", ["--defined-only", demoPath])
        nm.closeInput()
        guard nm.waitForExit(timeout: 120) == 0 else {
            nm.kill()
            throw BenchError.helper("nm --defined-only \(demoPath) failed: \(nm.standardError)")
        }
        var defined = Set<String>()
        for line in nm.lines {
            let fields = line.split(separator: " ")
            if fields.count == 3 { defined.insert(String(fields[2])) }
        }
        let missing = listed.subtracting(defined).count
        let percent = listed.isEmpty ? 100 : Double(missing) * 100 / Double(listed.count)
        report.add(
            Figure(
                suite: "startup", name: "start-up order list", metric: "names not in the binary", unit: "%",
                value: Statistics([percent]), baseline: nil, baselineValue: nil, ratio: nil,
                note: "\(missing) of \(listed.count) in scripts/demo-startup-order.txt; remake it with scripts/demo-startup-order"))
        report.check(
            Target(
                statement: "scripts/demo-startup-order.txt is current (≤ 2 % of its functions missing from the released demo)",
                measured: percent, limit: 2, unit: "%"))
    }

    /// Adds the figures and checks the targets.
    private func record(_ demo: [Start], against foot: [Start]) {
        let runtime =
            demo.allSatisfy(\.sharesSwiftRuntime)
            ? "Swift runtime shared" : demo.contains(where: \.sharesSwiftRuntime) ? "Swift runtime mixed" : "Swift runtime static"
        let note = "\(demo.count) starts each, interleaved, under one headless Weston with a seat; \(runtime)"
        func figure(_ metric: String, _ unit: String, _ value: (Start) -> Double, note: String? = nil) -> Figure {
            let ratios = zip(demo, foot).map { value($1) > 0 ? value($0) / value($1) : 0 }
            return Figure(
                suite: "startup", name: "damask-demo (default window)", metric: metric, unit: unit,
                value: Statistics(demo.map(value)), baseline: "foot", baselineValue: Statistics(foot.map(value)),
                ratio: Statistics(ratios), note: note)
        }
        let firstFrame = figure("exec→first commit", "ms", \.firstFrameMilliseconds, note: note)
        report.add(firstFrame)
        report.add(
            figure("CPU to first commit", "ms", \.cpuMilliseconds, note: "all threads, user + system"))
        let memory = figure("peak RSS", "MiB", \.peakResidentMiB, note: "VmHWM 0.5 s after the first commit")
        report.add(memory)
        report.check(
            Target(
                statement: "damask-demo exec→first commit ≤ foot's under the same Weston (median of paired ratios)",
                measured: firstFrame.ratio?.median ?? .infinity, limit: 1, unit: "× foot"))
        report.check(
            Target(
                statement: "damask-demo peak RSS ≤ 20 MiB", measured: memory.value.median, limit: 20, unit: "MiB"))
    }

    /// Starts `program`, waits for its first frame in Weston's log, lets it settle, reads
    /// its peak RSS and stops it.
    private func measure(_ program: Program, weston: PrivateCompositor, environment: [String: String]) throws -> Start {
        guard let log = FileHandle(forReadingAtPath: weston.logPath) else {
            throw BenchError.helper("cannot read Weston's log \(weston.logPath)")
        }
        defer { try? log.close() }
        log.seekToEndOfFile()
        let launched = try ChildProcess(program.executable, program.arguments, environment: environment)
        // Its stdin at end of file from the start, as /dev/null would be; SIGTERM to its
        // group (foot's shell included), SIGKILL after 3 s, whatever ends the measurement.
        launched.closeInput()
        defer { launched.kill(grace: 3) }
        var finder = FirstFrameFinder()
        var pending = Data()
        let deadline = BenchClock.monotonic() + Self.firstFrameTimeout
        var frame: FirstFrameFinder.Frame?
        while frame == nil {
            let chunk = log.availableData
            if chunk.isEmpty {
                guard launched.isRunning else { throw BenchError.helper("\(program.name) exited before its first frame") }
                guard BenchClock.monotonic() < deadline else {
                    throw BenchError.helper("\(program.name) showed no frame within 20 s")
                }
                usleep(500)
                continue
            }
            pending.append(chunk)
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let text = String(decoding: pending[..<lastNewline], as: UTF8.self)
            pending.removeSubrange(..<pending.index(after: lastNewline))
            for line in text.split(separator: "\n") where frame == nil {
                frame = finder.consume(line)
            }
        }
        let cpu = ProcessProbe(pid: launched.pid).read().cpuNanoseconds
        usleep(Self.settleMicroseconds)
        guard launched.isRunning else { throw BenchError.helper("\(program.name) exited after its first frame") }
        let peak = ProcessProbe(pid: launched.pid).peakResidentBytes()
        // Read to the end: procfs reports a size of 0, and the maps run past one page.
        let maps = ProcessProbe.contents(ofProcFile: "/proc/\(launched.pid)/maps")
        launched.kill(grace: 3)
        // Let the compositor forget the client before the next one starts.
        usleep(100_000)
        return Start(
            firstFrameMilliseconds: (frame?.milliseconds ?? 0)
                - (Double(launched.spawnedAt.tv_sec) * 1000 + Double(launched.spawnedAt.tv_nsec) / 1e6),
            cpuMilliseconds: Double(cpu) / 1e6, peakResidentMiB: Double(peak) / 1_048_576,
            sharesSwiftRuntime: maps.contains("/libswiftCore.so"))
    }

    /// The first executable `name` in `PATH`.
    private static func executableInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

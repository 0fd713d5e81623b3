import DamaskGraphics
import DamaskViews
import DamaskProcess
import Foundation

/// Peak RSS and shm bytes of real window processes, and backing-store bytes of a tree in
/// which only some views draw.
@MainActor struct MemorySuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (offscreen-only).
    let options: BenchOptions

    /// Runs every case that can run here.
    func run() throws {
        sparseTree()
        guard !options.offscreenOnly else {
            report.skip("memory (processes)", reason: "--offscreen")
            return
        }
        let weston = try PrivateCompositor.benchWeston(size: "3840x2160")
        defer { weston.stop() }
        let directory = URL(fileURLWithPath: ChildProcess.benchExecutable).deletingLastPathComponent()
        let demo = directory.appendingPathComponent("damask-demo").path
        for size in ["1920x1080", "3840x2160"] {
            try measure(
                "empty window \(size)", ChildProcess.benchExecutable, ["client", "--size", size],
                readyLine: "ready", environment: weston.clientEnvironment)
            if FileManager.default.isExecutableFile(atPath: demo) {
                try measure(
                    "damask-demo \(size)", demo, ["--size", size], readyLine: nil,
                    environment: weston.clientEnvironment)
            } else {
                report.skip("memory (damask-demo \(size))", reason: "damask-demo is not built next to damask-bench")
            }
        }
    }

    /// Starts a program, lets it settle, and reads its peak RSS and mapped shm.
    private func measure(
        _ name: String, _ executable: String, _ arguments: [String], readyLine: String?,
        environment: [String: String]
    ) throws {
        let child = try ChildProcess(executable, arguments, environment: environment)
        defer { child.stop() }
        if let readyLine {
            guard child.waitForLine(startingWith: readyLine, timeout: 15) else {
                throw BenchError.helper("\(name) did not show its window")
            }
            usleep(500_000)
        } else {
            usleep(3_000_000)
            guard child.isRunning else { throw BenchError.helper("\(name) exited early") }
        }
        let probe = ProcessProbe(pid: child.pid)
        report.add(
            Figure(
                suite: "memory", name: name, metric: "peak RSS", unit: "MiB",
                value: Statistics(exactly: Double(probe.peakResidentBytes()) / 1_048_576)))
        report.add(
            Figure(
                suite: "memory", name: name, metric: "shm mapped", unit: "MiB",
                value: Statistics(exactly: Double(probe.sharedMemoryBytes()) / 1_048_576),
                note: "memfd pools shared with the compositor"))
    }

    /// 500 views of which 50 draw: backing-store bytes against every view drawing.
    private func sparseTree() {
        let surface = BenchSurface(size: CGSize(width: 1000, height: 500))
        let window = Window(surface: surface)
        var everyViewBytes = 0
        for index in 0..<500 {
            let frame = CGRect(x: (index % 25) * 40, y: (index / 25) * 25, width: 40, height: 25)
            let view = index.isMultiple(of: 10) ? SwatchView(frame: frame) : View(frame: frame)
            if !(view is SwatchView) {
                view.backgroundColor = Color(red: 0.9, green: CGFloat(index % 7) / 7, blue: 0.8, alpha: 1)
            }
            window.contentView.addSubview(view)
            everyViewBytes += 40 * 25 * 4
        }
        window.flush()
        let bytes = window.statistics.liveBackingStoreBytes
        report.add(
            Figure(
                suite: "memory", name: "500 views, 50 draw", metric: "backing stores", unit: "KiB",
                value: Statistics(exactly: Double(bytes) / 1024), baseline: "if all 500 drew",
                baselineValue: Statistics(exactly: Double(everyViewBytes) / 1024),
                ratio: Statistics(exactly: Double(bytes) / Double(everyViewBytes)),
                note: "Window.statistics.liveBackingStoreBytes"))
        withExtendedLifetime(window) {}
    }
}

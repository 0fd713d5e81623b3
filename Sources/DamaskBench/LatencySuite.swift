import DamaskGraphics
import DamaskProcess
import DamaskViews
import DamaskWayland
import Foundation

/// From an input event entering `Window.dispatch` to the commit that shows its effect
/// (offscreen and under Weston), and from that commit to its presentation.
@MainActor struct LatencySuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (repeats, offscreen-only).
    let options: BenchOptions

    /// One press: wall and CPU time to the commit, frame callbacks waited.
    private struct Press {
        var wallMilliseconds: Double
        var cpuMilliseconds: Double
        var framesWaited: Int
        var commitTime: UInt64
    }

    /// Runs the offscreen cases, then the Weston case.
    func run() throws {
        offscreen()
        guard !options.offscreenOnly else {
            report.skip("latency (Weston)", reason: "--offscreen")
            return
        }
        try underWeston()
    }

    private var samples: Int { max(6, options.repeats * 2) }

    /// A press on a 64×64 button in an 800×600 window on a ``BenchSurface``, with no frame
    /// callback outstanding and with one outstanding (fired right after the dispatch).
    private func offscreen() {
        let surface = BenchSurface(size: CGSize(width: 800, height: 600))
        let window = Window(surface: surface)
        let counter = FrameCountingDelegate(window: window)
        let button = SwatchView(frame: CGRect(x: 100, y: 100, width: 64, height: 64))
        window.contentView.addSubview(button)
        window.flush()
        surface.fireFrame()
        for outstanding in [false, true] {
            var presses: [Press] = []
            for index in 0..<(samples + options.warmUps) {
                if !outstanding { surface.fireFrame() } else if !surface.hasPendingFrame { window.flush() }
                guard let press = self.press(window, counter: counter, whileWaiting: {
                    if outstanding { surface.fireFrame() }
                }) else { continue }
                if index >= options.warmUps { presses.append(press) }
            }
            let name = outstanding ? "offscreen, frame callback outstanding" : "offscreen, idle window"
            add(name, presses)
            if !outstanding {
                report.check(
                    Target(
                        statement: "input event to commit for a small change ≤ 1 ms CPU (offscreen)",
                        measured: Statistics(presses.map(\.cpuMilliseconds)).median, limit: 1, unit: "ms CPU"))
            }
            report.check(
                Target(
                    statement: "input to commit never more than one frame callback later (\(name))",
                    measured: Double(presses.map(\.framesWaited).max() ?? 0), limit: 1, unit: "frame callbacks"))
        }
        withExtendedLifetime(counter) {}
    }

    /// The same press under a private headless Weston (or the compositor in
    /// `WAYLAND_DISPLAY`), with commit-to-presentation from `wp_presentation`.
    private func underWeston() throws {
        let weston = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil
            ? try PrivateCompositor.benchWeston(size: "1024x768") : nil
        defer { weston?.stop() }
        // An absolute socket path works as a display name; nil means WAYLAND_DISPLAY.
        let connection = try WaylandConnection(name: weston?.socketPath)
        var failure: WaylandError?
        connection.onFatalError = { failure = $0 }
        let surface = try WaylandSurface(
            connection: connection, title: "Damask Bench latency", appID: "org.damask.Bench", size: CGSize(width: 800, height: 600))
        let window = Window(surface: surface)
        let counter = FrameCountingDelegate(window: window)
        let button = SwatchView(frame: CGRect(x: 100, y: 100, width: 64, height: 64))
        window.contentView.addSubview(button)
        let feedback = PresentationFeedback(connection: connection)
        connection.start()
        defer {
            feedback?.close()
            surface.close()
            connection.close()
        }
        guard spin(until: { window.frameCount > 0 }, timeout: 5) else {
            throw BenchError.helper("the window never committed under Weston (\(failure.map { "\($0)" } ?? "no error"))")
        }
        _ = spin(until: { false }, timeout: 0.1)

        var presses: [Press] = []
        var outstandingPresses: [Press] = []
        var presentations: [Double] = []
        var discarded = 0
        var generator = SystemRandomNumberGenerator()
        for index in 0..<(samples / 2 + options.warmUps) {
            // The first press of a pair comes when the window is quiet (its last frame
            // callback fired), at a random phase of the compositor's repaint cycle; the
            // second follows the first's commit at once, so its frame callback is still
            // outstanding and the commit must wait for it.
            _ = spin(until: { !surface.isFramePending }, timeout: 0.1)
            _ = spin(until: { false }, timeout: Double.random(in: 0...0.02, using: &generator))
            var outcome: PresentationFeedback.Outcome?
            feedback?.requestFeedback(for: surface) { outcome = $0 }
            guard let quiet = self.press(window, counter: counter, whileWaiting: {}) else { continue }
            let offset = feedback?.clockID.map {
                Int64(bitPattern: BenchClock.read($0)) - Int64(bitPattern: BenchClock.monotonic())
            } ?? 0
            let outstanding = self.press(window, counter: counter, whileWaiting: {})
            if feedback != nil { _ = spin(until: { outcome != nil }, timeout: 1) }
            guard index >= options.warmUps else { continue }
            presses.append(quiet)
            if let outstanding { outstandingPresses.append(outstanding) }
            switch outcome {
            case .presented(let timestamp, _, _):
                let committedAt = Int64(bitPattern: quiet.commitTime) + offset
                presentations.append(Double(Int64(bitPattern: timestamp) - committedAt) / 1e6)
            case .discarded: discarded += 1
            case nil: break
            }
        }
        add("Weston, quiet window", presses)
        report.check(
            Target(
                statement: "input event to commit for a small change ≤ 1 ms CPU (Weston)",
                measured: Statistics(presses.map(\.cpuMilliseconds)).median, limit: 1, unit: "ms CPU"))
        add("Weston, frame callback outstanding", outstandingPresses)
        report.check(
            Target(
                statement: "input to commit never more than one frame callback later (Weston)",
                measured: Double((presses + outstandingPresses).map(\.framesWaited).max() ?? 0), limit: 1,
                unit: "frame callbacks"))
        if feedback == nil {
            report.skip("latency (presentation)", reason: "the compositor offers no wp_presentation")
        } else {
            report.add(
                Figure(
                    suite: "latency", name: "Weston, quiet window", metric: "commit→presented", unit: "ms",
                    value: Statistics(presentations),
                    note: "wp_presentation feedback" + (discarded > 0 ? ", \(discarded) discarded" : "")))
        }
    }

    /// Dispatches a press and waits for the commit it causes; `whileWaiting` runs once after
    /// the dispatch's turn (to fire a frame callback). Returns `nil` if nothing committed.
    private func press(_ window: Window, counter: FrameCountingDelegate, whileWaiting: () -> Void) -> Press? {
        let frames = counter.frames
        let commits = window.frameCount
        var committed: (wall: UInt64, cpu: UInt64)?
        let previous = window.onCommit
        window.onCommit = { _ in
            if committed == nil { committed = (BenchClock.monotonic(), BenchClock.threadCPU()) }
        }
        defer { window.onCommit = previous }
        let location = CGPoint(x: 132, y: 132)
        let wallStart = BenchClock.monotonic(), cpuStart = BenchClock.threadCPU()
        window.dispatch(.pointer(PointerEvent(kind: .down, location: location, button: .left, clickCount: 1)))
        _ = RunLoop.main.run(mode: .default, before: Date())
        if committed == nil { whileWaiting() }
        _ = spin(until: { committed != nil }, timeout: 1)
        window.dispatch(.pointer(PointerEvent(kind: .up, location: location, button: .left, clickCount: 1)))
        guard let committed, window.frameCount > commits else { return nil }
        return Press(
            wallMilliseconds: Double(committed.wall - wallStart) / 1e6,
            cpuMilliseconds: Double(committed.cpu - cpuStart) / 1e6,
            framesWaited: counter.frames - frames, commitTime: committed.wall)
    }

    /// Runs the main run loop until `condition` holds or `timeout` seconds pass.
    private func spin(until condition: () -> Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            let now = Date()
            if now >= deadline { return false }
            _ = RunLoop.main.run(mode: .default, before: min(deadline, now.addingTimeInterval(0.005)))
        }
        return true
    }

    private func add(_ name: String, _ presses: [Press]) {
        report.add(
            Figure(
                suite: "latency", name: name, metric: "event→commit", unit: "ms",
                value: Statistics(presses.map(\.wallMilliseconds)), note: "wall clock"))
        report.add(
            Figure(
                suite: "latency", name: name, metric: "event→commit CPU", unit: "ms",
                value: Statistics(presses.map(\.cpuMilliseconds))))
        report.add(
            Figure(
                suite: "latency", name: name, metric: "frames waited", unit: "callbacks",
                value: Statistics(presses.map { Double($0.framesWaited) }), note: "maximum \(presses.map(\.framesWaited).max() ?? 0)"))
    }
}

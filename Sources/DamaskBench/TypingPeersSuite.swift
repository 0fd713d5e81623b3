import DamaskProcess
import Foundation

/// Typing into damask-demo's text field against foot, a GTK 4 `Gtk.Entry` and a Qt 6
/// `QLineEdit`, measured from outside under one private headless Weston whose test seat
/// (``SeatKeyboard``) types: per key, the time from the compositor delivering the key to
/// the client's next `wl_surface.commit` (both stamped inside Weston), and the client
/// process's CPU time (all threads, `schedstat`) over the keys divided by their number.
///
/// Two cases: a short line (an empty field, ``keys`` typed) and the end of a line already
/// ``longLine`` characters long. Each run starts every client once per case, one at a time,
/// in an order that rotates from run to run (clients interleaved, so load changes hit all
/// alike); ratios against foot are taken run by run and their median is checked.
@MainActor struct TypingPeersSuite {
    /// Where figures go.
    let report: BenchReport
    /// The command line (repeats, the demo).
    let options: BenchOptions

    /// Keys typed per client and case.
    static let keys = 160
    /// The long line's length in characters.
    static let longLine = 10_000
    /// The letters typed (evdev codes of a s d f g h j k l, e r t u i o): no Shift, no
    /// key that changes the line's structure.
    static let keyCodes = [30, 31, 32, 33, 34, 35, 36, 37, 38, 18, 19, 20, 22, 23, 24]

    /// One client measured once in one case.
    struct Sample {
        /// Key→commit latency per key, milliseconds.
        var latencies: [Double]
        /// CPU time per key, milliseconds.
        var cpuPerKey: Double
    }

    /// Runs the suite.
    func run() throws {
        guard !options.offscreenOnly else {
            report.skip("typing-peers", reason: "--offscreen")
            return
        }
        guard let demoPath = options.demoPath ?? StartupSuite.releaseDemoPath() else {
            throw BenchError.helper(
                "the released damask-demo is not built (scripts/build-demo-release builds it in .build/static), or pass --demo PATH")
        }
        guard FileManager.default.isExecutableFile(atPath: demoPath) else {
            throw BenchError.helper("--demo \(demoPath) is not an executable")
        }
        let peers = try TypingPeer.all(demo: demoPath, longText: Self.longText)
        defer { peers.forEach { $0.removeFiles() } }
        let keyboard = try SeatKeyboard()
        defer { keyboard.remove() }
        let weston = try PrivateCompositor.benchWeston(size: "1024x768", seat: true, environment: keyboard.environment())
        defer { weston.stop() }
        try keyboard.open()

        let runs = max(2, options.repeats / 5)
        var samples: [String: [Sample]] = [:]
        for run in 0..<runs {
            for long in [false, true] {
                for index in peers.indices {
                    let peer = peers[(index + run) % peers.count]
                    let sample = try measure(peer, long: long, keyboard: keyboard, environment: weston.clientEnvironment)
                    samples[Self.key(peer.name, long), default: []].append(sample)
                }
            }
        }
        record(samples, peers: peers, runs: runs)
    }

    private static func key(_ name: String, _ long: Bool) -> String { name + (long ? " long" : " short") }

    /// ASCII prose of exactly ``longLine`` characters.
    static var longText: String {
        let words = "the quick brown fox jumps over a lazy dog while damask keeps its lead "
        var text = ""
        while text.count < longLine { text += words }
        return String(text.prefix(longLine))
    }

    /// Starts `peer`, waits until it is ready and quiet, types ``keys`` keys through the
    /// seat and stops it.
    private func measure(_ peer: TypingPeer, long: Bool, keyboard: SeatKeyboard, environment: [String: String]) throws -> Sample {
        _ = keyboard.newEvents()
        let process = try ChildProcess(peer.executable, peer.arguments(long: long), environment: environment.merging(peer.environment) { $1 })
        defer {
            process.kill(grace: 3)
            usleep(100_000)  // let the compositor forget the client before the next one
        }
        let pid = process.pid
        // Ready: the peer's own signal (the demo's script done), then no commit for 300 ms.
        if let line = peer.readyLine, !process.waitForLine(startingWith: line, timeout: 120) {
            throw BenchError.helper("\(peer.name) never got ready: \(process.transcript.suffix(800))")
        }
        var lastCommit = BenchClock.monotonic()
        var committed = false
        let readyDeadline = BenchClock.monotonic() + 60_000_000_000
        while !committed || BenchClock.monotonic() - lastCommit < 300_000_000 {
            for case .commit(let commitPID, _) in keyboard.newEvents() where commitPID == pid {
                committed = true
                lastCommit = BenchClock.monotonic()
            }
            guard process.isRunning, BenchClock.monotonic() < readyDeadline else {
                throw BenchError.helper("\(peer.name) showed no frame or never went quiet: \(process.transcript.suffix(800))")
            }
            usleep(2_000)
        }
        var cpu = ThreadTimes(pid: pid)
        var latencies: [Double] = []
        var missed = 0
        var generator = SystemRandomNumberGenerator()
        for index in 0..<Self.keys {
            let code = Self.keyCodes[index % Self.keyCodes.count]
            keyboard.send(code, down: true)
            var keyTime: UInt64?
            var latency: Double?
            let deadline = BenchClock.monotonic() + 500_000_000
            while latency == nil, BenchClock.monotonic() < deadline {
                for event in keyboard.newEvents() {
                    switch event {
                    case .key(let ns): keyTime = ns
                    case .commit(let commitPID, let ns) where commitPID == pid:
                        if let keyTime, latency == nil { latency = Double(ns - keyTime) / 1e6 }
                    case .commit: break
                    }
                }
                if latency == nil { usleep(1_000) }  // the times come from Weston's trace, not from this poll
            }
            keyboard.send(code, down: false)
            cpu.poll()
            if let latency { latencies.append(latency) } else { missed += 1 }
            // A pause of 30–47 ms: the next key comes at a random phase of the repaint cycle.
            usleep(UInt32.random(in: 30_000...47_000, using: &generator))
        }
        _ = keyboard.newEvents()
        cpu.poll()
        guard process.isRunning else { throw BenchError.helper("\(peer.name) exited while typed into") }
        guard missed <= Self.keys / 20 else {
            throw BenchError.helper("\(peer.name) committed nothing after \(missed) of \(Self.keys) keys")
        }
        return Sample(latencies: latencies, cpuPerKey: Double(cpu.used) / 1e6 / Double(Self.keys))
    }

    /// Adds a figure per client and case (Damask's with foot as baseline) and checks the
    /// targets: CPU per key ≤ foot's, latency ≤ 0.7× foot's (medians of per-run ratios).
    private func record(_ samples: [String: [Sample]], peers: [TypingPeer], runs: Int) {
        for long in [false, true] {
            let caseName = long ? "at the end of a 10,000-character line" : "a short line"
            let foot = samples[Self.key("foot", long)] ?? []
            for peer in peers {
                let mine = samples[Self.key(peer.name, long)] ?? []
                let isFoot = peer.name == "foot"
                let latencyMedians = mine.map { Statistics($0.latencies).median }
                let footLatencies = foot.map { Statistics($0.latencies).median }
                let latencyRatios = zip(latencyMedians, footLatencies).map { $1 > 0 ? $0 / $1 : .infinity }
                let cpuRatios = zip(mine, foot).map { $1.cpuPerKey > 0 ? $0.cpuPerKey / $1.cpuPerKey : .infinity }
                let note = "\(runs) runs × \(Self.keys) keys, interleaved; headless Weston 10, test seat"
                report.add(
                    Figure(
                        suite: "typing-peers", name: "\(peer.name), \(caseName)", metric: "key→commit", unit: "ms",
                        value: Statistics(mine.flatMap(\.latencies)),
                        baseline: isFoot ? nil : "foot", baselineValue: isFoot ? nil : Statistics(foot.flatMap(\.latencies)),
                        ratio: isFoot ? nil : Statistics(latencyRatios), note: note + "; ratio of per-run medians"))
                report.add(
                    Figure(
                        suite: "typing-peers", name: "\(peer.name), \(caseName)", metric: "CPU per key", unit: "ms",
                        value: Statistics(mine.map(\.cpuPerKey)),
                        baseline: isFoot ? nil : "foot", baselineValue: isFoot ? nil : Statistics(foot.map(\.cpuPerKey)),
                        ratio: isFoot ? nil : Statistics(cpuRatios), note: "client process, all threads, user + system"))
                guard peer.name == "damask-demo" else { continue }
                report.check(
                    Target(
                        statement: "damask-demo CPU per typed key ≤ foot's, \(caseName) (median of per-run ratios)",
                        measured: Statistics(cpuRatios).median, limit: 1, unit: "× foot"))
                report.check(
                    Target(
                        statement: "damask-demo key→commit ≤ 0.7× foot's, \(caseName) (median of per-run ratios)",
                        measured: Statistics(latencyRatios).median, limit: 0.7, unit: "× foot"))
            }
        }
    }
}

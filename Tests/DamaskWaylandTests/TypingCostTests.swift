import Foundation
import Testing

/// What a typed key costs damask-demo, counted by the kernel: keys typed on headless Weston's
/// test seat (`DAMASK_SEAT_KEYS`, as `damask-bench typing-peers` types them) into the text
/// field, each waited for until the demo commits its frame (`DAMASK_SEAT_TRACE`).
///
/// Issue 29 counted per key: 3 writes and 2 reads of libdispatch's eventfd (a display pass,
/// a flush and a re-signal queued through `DispatchQueue.main.async`), and libdispatch's
/// manager thread waking once a second for a timer nobody used. `MainLoop.performAtEndOfTurn`
/// and the player's main-queue task executor removed both; this pins them.
@Suite("damask-demo: what a typed key costs under Weston", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct TypingCostTests {
    /// Keys typed.
    static let keys = 40
    /// Evdev codes of a s d f g h j k l.
    static let codes = [30, 31, 32, 33, 34, 35, 36, 37, 38]

    /// A thread's voluntary context switches (its sleeps), by thread id.
    static func sleeps(_ pid: pid_t) -> [String: Int] {
        let tasks = "/proc/\(pid)/task"
        var result: [String: Int] = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            result[thread] = line.flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        return result
    }

    /// The process's write-family system calls so far (`syscw` of `/proc/PID/io`: write,
    /// writev, pwrite; not sendmsg, which the Wayland socket uses).
    static func writeCalls(_ pid: pid_t) -> Int? {
        let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        return io.split(separator: "\n").first { $0.hasPrefix("syscw:") }
            .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("A typed key wakes only the demo's main thread, a few times, and writes to no eventfd")
    func typedKeyWakesOneThread() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/keys", trace = directory + "/trace", script = directory + "/focus.damask"
        try #require(mkfifo(fifo, 0o600) == 0, "cannot make \(fifo)")
        _ = FileManager.default.createFile(atPath: trace, contents: nil)
        try "scene text\nwait idle\nclick 300 180\nwait idle\n".write(toFile: script, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["DAMASK_SEAT_KEYS"] = fifo
        environment["DAMASK_SEAT_TRACE"] = trace
        let weston = try PrivateCompositor(.weston(size: "1024x768", seat: true), environment: environment)
        defer { weston.stop() }
        let demo = try ClientProcess(
            DemoIdleTests.demo, ["--size", "800x600", "--speed", "fast", "--stay", "--play", script],
            environment: weston.clientEnvironment)
        try #require(
            demo.waitForLine(timeout: 60) { $0.hasPrefix("damask-demo: played") } != nil,
            "the demo's script did not end: \(demo.standardError)")
        let pid = demo.pid
        // Quiet: the main thread still for 1.5 s (the caret stops blinking 5 s after the click).
        var last = DemoIdleTests.mainThreadWakeUps(pid), settled = false
        for _ in 0..<40 where !settled {
            usleep(1_500_000)
            let now = DemoIdleTests.mainThreadWakeUps(pid)
            settled = now == last
            last = now
        }
        try #require(settled, "the demo never went quiet")
        let writer = try #require(FileHandle(forWritingAtPath: fifo), "cannot open the seat's FIFO")
        defer { try? writer.close() }
        let reader = try #require(FileHandle(forReadingAtPath: trace), "cannot open the seat's trace")
        defer { try? reader.close() }
        _ = reader.readDataToEndOfFile()
        let (sleepsBefore, writesBefore) = (Self.sleeps(pid), try #require(Self.writeCalls(pid)))
        var traced = ""
        for index in 0..<Self.keys {
            let code = Self.codes[index % Self.codes.count]
            writer.write(Data("down \(code)\n".utf8))
            // The key's frame: a commit of the demo after the key in Weston's trace.
            let deadline = Date().addingTimeInterval(10)
            var committed = false
            while !committed, Date() < deadline {
                traced += String(decoding: reader.availableData, as: UTF8.self)
                if let key = traced.range(of: "key down \(code) ", options: .backwards) {
                    committed = traced[key.upperBound...].contains("commit \(pid) ")
                }
                if !committed { usleep(1_000) }
            }
            #expect(committed, "key \(index) was not committed")
            traced = ""
            writer.write(Data("up \(code)\n".utf8))
            usleep(30_000)
        }
        usleep(200_000)
        let (sleepsAfter, writesAfter) = (Self.sleeps(pid), try #require(Self.writeCalls(pid)))
        let main = String(pid)
        let mainSleeps = (sleepsAfter[main] ?? 0) - (sleepsBefore[main] ?? 0)
        // The press, the release, the frame callback, sometimes the buffer release: 3–4.
        #expect(mainSleeps > 0 && mainSleeps <= 5 * Self.keys, "\(mainSleeps) main-thread sleeps for \(Self.keys) keys")
        for (thread, count) in sleepsAfter where thread != main {
            let woke = count - (sleepsBefore[thread] ?? 0)
            #expect(woke == 0, "thread \(thread) woke \(woke) times while \(Self.keys) keys were typed")
        }
        // Each was 3 eventfd writes per key (120 here); what is left is not per key.
        let writes = writesAfter - writesBefore
        #expect(writes <= Self.keys / 4, "\(writes) write calls for \(Self.keys) keys")
        #expect(demo.process.isRunning, "the demo ended: \(demo.standardError)")
    }
}

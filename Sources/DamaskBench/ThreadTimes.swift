import Foundation

/// The CPU time a process used since this started watching it, summed over its threads
/// (`/proc/PID/task/TID/schedstat`, nanoseconds), counting threads that started meanwhile
/// and keeping the last reading of threads that ended (a thread's time leaves the task list
/// with it, so the sum over live threads can go down; ``poll()`` often to lose little).
struct ThreadTimes {
    /// The process watched.
    let pid: Int32
    /// Each thread's CPU time when first seen (zero for threads started after the start).
    private var start: [String: UInt64] = [:]
    /// Each thread's latest CPU time.
    private var latest: [String: UInt64] = [:]

    /// Starts watching `pid` now.
    init(pid: Int32) {
        self.pid = pid
        start = Self.read(pid)
        latest = start
    }

    /// Reads every live thread once more.
    mutating func poll() {
        for (thread, time) in Self.read(pid) {
            if start[thread] == nil { start[thread] = 0 }
            latest[thread] = max(latest[thread] ?? 0, time)
        }
    }

    /// CPU nanoseconds used since the start.
    var used: UInt64 {
        latest.reduce(0) { $0 + ($1.value - min($1.value, start[$1.key] ?? 0)) }
    }

    private static func read(_ pid: Int32) -> [String: UInt64] {
        let directory = "/proc/\(pid)/task"
        var times: [String: UInt64] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            let schedstat = (try? String(contentsOfFile: "\(directory)/\(task)/schedstat", encoding: .utf8)) ?? ""
            if let time = schedstat.split(separator: " ").first.flatMap({ UInt64($0) }) { times[task] = time }
        }
        return times
    }
}

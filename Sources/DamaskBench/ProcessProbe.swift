import Foundation

/// Reads another process's scheduling and memory counters from `/proc`.
struct ProcessProbe {
    /// The process observed.
    let pid: Int32

    /// One reading of the counters that matter for idleness.
    struct Reading {
        /// Voluntary plus involuntary context switches, summed over all threads: each is a
        /// time a thread went to sleep or was switched out, i.e. (at least) one wake-up.
        var contextSwitches: Int
        /// CPU time used by all threads, in nanoseconds (`schedstat`).
        var cpuNanoseconds: UInt64
        /// Threads alive.
        var threads: Int
        /// The main thread's share of ``contextSwitches`` (the thread whose id is the pid).
        var mainThreadContextSwitches: Int
        /// The voluntary part of ``contextSwitches``: times a thread went to sleep and was
        /// woken again. The rest are preemptions, which a loaded machine adds.
        var voluntaryContextSwitches = 0
    }

    /// Reads the counters now.
    func read() -> Reading {
        let taskDirectory = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: taskDirectory)) ?? []
        var reading = Reading(contextSwitches: 0, cpuNanoseconds: 0, threads: tasks.count, mainThreadContextSwitches: 0)
        for task in tasks {
            let before = reading.contextSwitches
            let status = (try? String(contentsOfFile: "\(taskDirectory)/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") {
                if line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    reading.contextSwitches += count
                    if line.hasPrefix("voluntary") { reading.voluntaryContextSwitches += count }
                }
            }
            if task == String(pid) { reading.mainThreadContextSwitches += reading.contextSwitches - before }
            let schedstat = (try? String(contentsOfFile: "\(taskDirectory)/\(task)/schedstat", encoding: .utf8)) ?? ""
            reading.cpuNanoseconds += schedstat.split(separator: " ").first.flatMap { UInt64($0) } ?? 0
        }
        return reading
    }

    /// The peak resident set size (`VmHWM`), in bytes.
    func peakResidentBytes() -> Int {
        statusField("VmHWM:") * 1024
    }

    /// The resident set size now (`VmRSS`), in bytes.
    func residentBytes() -> Int {
        statusField("VmRSS:") * 1024
    }

    /// The bytes of shared-memory files mapped (memfd and /dev/shm mappings): the wl_shm
    /// pools the process gave the compositor.
    func sharedMemoryBytes() -> Int {
        let maps = Self.contents(ofProcFile: "/proc/\(pid)/maps")
        var total = 0
        for line in maps.split(separator: "\n") where line.contains("/memfd:") || line.contains("/dev/shm/") {
            let range = line.split(separator: " ")[0].split(separator: "-")
            guard range.count == 2, let start = Int(range[0], radix: 16), let end = Int(range[1], radix: 16) else { continue }
            total += end - start
        }
        return total
    }

    /// The whole text of a procfs file, read to its end ("" when it cannot be opened):
    /// procfs reports a size of 0, so a read sized by the file's size can come back short
    /// for files longer than a page, such as `maps`.
    static func contents(ofProcFile path: String) -> String {
        FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
    }

    private func statusField(_ name: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        let fields = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
        return fields.first.flatMap { Int($0) } ?? 0
    }
}

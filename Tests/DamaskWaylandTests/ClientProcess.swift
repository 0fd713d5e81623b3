import Foundation
import Testing

/// A program started by a test, with its stdout collected line by line, its stderr kept
/// apart, and its stdin open for commands: a ``TestProcess`` with the waits the foundation
/// and reliability tests use.
///
/// Owns its ``TestProcess``; `deinit` ends the program's process group if it still runs.
/// The waiting methods may be called from any task.
final class ClientProcess: @unchecked Sendable {
    /// The running program.
    let process: TestProcess

    /// Starts `executable` with `arguments` in `environment`.
    init(_ executable: URL, _ arguments: [String] = [], environment: [String: String]) throws {
        process = try TestProcess(executable.path, arguments, environment: environment)
    }

    /// The process id (also its process group's).
    var pid: pid_t { process.pid }

    /// Everything printed on stdout so far, one entry per complete line.
    var outputLines: [String] { process.lines }

    /// Everything printed on stderr so far.
    var standardError: String { process.standardError }

    /// Sends one command line on stdin.
    func send(_ line: String) { process.send(line) }

    /// Waits until a line satisfying `predicate` appears (after the first `skipping` lines),
    /// returning it, or nil after `timeout` or once the program's output has ended.
    func waitForLine(timeout: TimeInterval = 10, skipping: Int = 0, where predicate: (String) -> Bool) -> String? {
        process.waitForLine(from: skipping, timeout: timeout, where: predicate)?.line
    }

    /// Waits until `count` stdout lines start with `prefix` (counting every line); returns
    /// whether they did within `timeout`.
    func waitForLines(count: Int, prefix: String, timeout: TimeInterval = 10) -> Bool {
        process.waitUntil(timeout: timeout) { lines in lines.lazy.filter { $0.hasPrefix(prefix) }.count >= count }
    }

    /// Waits for the process to end, up to `timeout`; returns its exit status, or nil if it is
    /// still running (or a signal ended it).
    func waitForExit(timeout: TimeInterval) -> Int32? {
        process.waitForExit(timeout: timeout)
    }

    /// The IDs of the process's threads now (empty when its task list cannot be read).
    func threadIDs() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? [])
    }

    /// Total context switches of all the process's threads: each is a wake-up or a
    /// preemption, so an idle program's count does not grow.
    ///
    /// A thread's status that cannot be read (it ended between the listing and the read)
    /// adds nothing; when no thread can be read, or the process has no task list, this is
    /// `Int.max / 2`, which records an issue: an unreadable /proc must fail "no wake-ups",
    /// never pass it as a count that stays at 0.
    func contextSwitches(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let tasks = "/proc/\(process.pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        var total = 0, read = 0
        for thread in threads {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            let counts = status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
                .compactMap { $0.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            guard counts.count == 2 else { continue }
            total += counts.reduce(0, +)
            read += 1
        }
        guard read > 0 else {
            Issue.record("cannot read the context switches of \(process.pid) from \(tasks)", sourceLocation: sourceLocation)
            return Int.max / 2
        }
        return total
    }
}

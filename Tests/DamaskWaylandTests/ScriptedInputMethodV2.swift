import Foundation

/// The project's own input method for input-method-unstable-v2
/// (`Tests/InputMethods/scripted-input-method-v2.c`) on a sway session: it sends exactly the preedit,
/// commit and delete requests a test gives it, valid or hostile, and reports every event
/// (activate, surrounding_text, content_type, done, …) as a line.
///
/// Owns its ``TestProcess``; `deinit` ends it. Not thread-safe: use from one test.
final class ScriptedInputMethodV2 {
    let process: TestProcess

    /// Starts the input method on `environment`'s compositor and waits until it holds the
    /// seat's input method.
    init(environment: [String: String]) throws {
        let executable = try InputMethodPrograms.inputMethodV2()
        process = try TestProcess(executable, [], environment: environment)
        guard process.waitForLine(timeout: 20, where: { $0 == "ready" || $0.hasPrefix("error") })?.line == "ready" else {
            throw TestProcessError.didNotStart(program: executable, waitingFor: "ready", output: process.transcript)
        }
    }

    deinit { process.kill(grace: 1) }

    /// Sends one command line (`preedit B E TEXT`, `commit TEXT`, `delete B A`, `done`, `sync`).
    func send(_ command: String) { process.send(command) }

    /// The event lines so far.
    var events: [String] { process.lines }

    /// Waits until more than `count` lines equal `line` or start with `line + " "`; returns
    /// whether they did within `timeout`.
    func waitFor(_ line: String, beyond count: Int = 0, timeout: TimeInterval = 20) -> Bool {
        process.waitUntil(timeout: timeout) { lines in
            lines.count { $0 == line || $0.hasPrefix(line + " ") } > count
        }
    }

    /// How many lines so far equal `line` or start with `line + " "`.
    func count(_ line: String) -> Int {
        events.count { $0 == line || $0.hasPrefix(line + " ") }
    }

    /// The latest `surrounding_text` the compositor sent: the text and the cursor, in bytes.
    var surroundingText: (text: String, cursor: Int)? {
        guard let line = events.last(where: { $0.hasPrefix("surrounding_text ") }) else { return nil }
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count >= 3, let cursor = Int(fields[1]) else { return nil }
        return (fields.count == 4 ? String(fields[3]) : "", cursor)
    }

    /// Waits until the latest `surrounding_text` is `text` with the cursor at byte `cursor`;
    /// returns whether it was within `timeout`.
    ///
    /// The protocol lets a text-input-v3 client hold its state back while the serials
    /// disagree (the demo did, before it sent state as it changes): its surrounding text then
    /// waits for the input method's next commit. So, as a real input method does on its next
    /// event, this one answers a newer `done` with an empty commit at that serial (which also
    /// ends any preedit) while it waits.
    func waitForSurroundingText(_ text: String, cursor: Int, timeout: TimeInterval = 20) -> Bool {
        let expected = "surrounding_text \(cursor) \(cursor) \(text)"
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = events
            if lines.last(where: { $0.hasPrefix("surrounding_text ") }) == expected { return true }
            let done = lines.last { $0.hasPrefix("done ") }.flatMap { Int($0.dropFirst(5)) } ?? 0
            let answered = lines.last { $0.hasPrefix("committed ") }.flatMap { Int($0.dropFirst(10)) } ?? 0
            if done > answered { send("done") }
            let count = lines.count
            _ = process.waitUntil(timeout: min(1, max(0, deadline.timeIntervalSinceNow))) { $0.count > count }
        }
        return events.last(where: { $0.hasPrefix("surrounding_text ") }) == expected
    }

    /// Sends `commands` then `done`, and waits until the program has sent them all (a
    /// `sync` round trip after them answered).
    func play(_ commands: [String], timeout: TimeInterval = 20) -> Bool {
        let synced = count("synced")
        for command in commands + ["done", "sync"] { send(command) }
        return waitFor("synced", beyond: synced, timeout: timeout)
    }
}

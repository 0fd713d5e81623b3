import DamaskTestSupport
import Foundation
import Testing

/// The integration tests' process runner: deadlines that hold, process groups that end,
/// and failures that say which program and what it printed.
@Suite("Test process runner", .exclusive, .timeLimit(.minutes(5)))
struct TestProcessTests {
    @Test("A program past its deadline is killed with its children and what it printed is kept")
    func deadlineKillsTheProcessGroup() throws {
        let started = Date()
        let result = try TestProcess.run(
            "/bin/sh", ["-c", "echo before; sleep 30 & echo child $!; sleep 30"], timeout: 1)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.timedOut)
        #expect(!result.exited)
        #expect(elapsed < 5, "returned after \(elapsed) s for a 1 s deadline")
        #expect(result.output.contains("before"), "\(result.output)")
        #expect(result.output.contains("killed after 1.0 s: /bin/sh"), "\(result.output)")
        let child = try #require(
            result.output.split(separator: "\n").first { $0.hasPrefix("child ") }.flatMap { Int32($0.dropFirst(6)) })
        // The background child was in the group: it dies too (gone, or a zombie until init
        // reaps it) once the kernel has delivered the signal.
        func state() -> String? {
            (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first.map(String.init)
        }
        let deadline = Date().addingTimeInterval(10)
        while let current = state(), current != "Z", Date() < deadline { usleep(10_000) }
        let last = state()
        #expect(last == nil || last == "Z", "the group's child \(child) still runs: \(last ?? "")")
    }

    @Test("A program that ends by itself reports its status and its output, stdout and stderr")
    func completedRunReportsStatusAndOutput() throws {
        let result = try TestProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 30)
        #expect(result.status == 3)
        #expect(result.exited && !result.timedOut)
        #expect(result.output.contains("out") && result.output.contains("err"), "\(result.output)")
    }

    @Test("A program that cannot be started is named with the reason")
    func missingProgramIsNamed() {
        #expect {
            _ = try TestProcess.run("/nonexistent/damask-no-such-program", ["x"], timeout: 5)
        } throws: { error in
            let text = String(describing: error)
            return text.contains("/nonexistent/damask-no-such-program x") && text.contains("No such file")
        }
    }

    @Test("A compositor that does not start is reported with the script's command line and its stderr")
    func compositorThatDoesNotStartIsNamed() {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/nonexistent"  // env cannot even find bash
        #expect {
            _ = try PrivateCompositor(.weston(), environment: environment)
        } throws: { error in
            let text = String(describing: error)
            return text.contains("scripts/with-weston --scale 1 --size 800x600") && text.contains("bash")
        }
    }

    @Test("Waiting for a line ends at the deadline, and at once when the program's output ends")
    func waitingForALineIsBounded() throws {
        let silent = try TestProcess("/bin/sleep", ["30"])
        let started = Date()
        #expect(silent.waitForLine(timeout: 0.5, where: { _ in true }) == nil)
        #expect(Date().timeIntervalSince(started) < 3)
        silent.kill()
        #expect(!silent.isRunning)

        let quick = try TestProcess("/bin/sh", ["-c", "echo one; exit 0"])
        let begun = Date()
        #expect(quick.waitForLine(timeout: 30, where: { $0 == "two" }) == nil)
        #expect(Date().timeIntervalSince(begun) < 10, "end of output ends the wait")
        #expect(quick.waitForExit(timeout: 10) == 0)
    }
}

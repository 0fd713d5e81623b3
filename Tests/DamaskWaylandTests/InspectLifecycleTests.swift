import DamaskTestSupport
import Foundation
import Testing

/// How a run of damask-inspect starts and ends, as a user meets it: a client that cannot be
/// started, output paths that cannot be used, the inspector interrupted (also while its
/// client ignores SIGTERM), the compositor going away under a running client, and output that
/// cannot be written (a full disk).
@Suite("damask-inspect start and end under real compositors", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct InspectLifecycleTests {
    /// A private directory for one test's files, removed by the caller.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-life-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Waits (up to `timeout` s) until the JSONL log at `path` holds a buffer commit.
    static func waitForBufferCommit(in path: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains(#""kind":"buffer""#) { return true }
            usleep(50_000)
        }
        return false
    }

    @Test("A client that cannot be started is exit 2 with one line naming it and the reason, and no summary table")
    func unstartableClientIsOneClearLine() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let cases: [(command: [String], expected: String)] = [
            (["/nonexistent/damask-client"], "damask-inspect: cannot start /nonexistent/damask-client: No such file or directory"),
            (["damask-no-such-command-\(getpid())"], "damask-inspect: cannot start damask-no-such-command-\(getpid()): No such file or directory"),
            (["/tmp"], "damask-inspect: cannot start /tmp: Permission denied"),
            (["sh", "-c", "exit 127"], "damask-inspect: cannot start sh -c exit 127: it exited with status 127 (command not found) before connecting"),
        ]
        for (command, expected) in cases {
            let run = try PrivateCompositor.run(InspectRun.executable, ["--"] + command, environment: weston.clientEnvironment, timeout: 30)
            #expect(run.status == 2, "\(command): \(run.output)")
            #expect(run.output.contains(expected), "\(command): \(run.output)")
            #expect(!run.output.contains("damask-inspect summary"), "\(command): \(run.output)")
        }
    }

    @Test("A client that never connects (one that chose X11, say) gets a note that nothing was checked, naming DISPLAY when it is set")
    func clientThatNeverConnectsIsNoted() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        var environment = weston.clientEnvironment
        environment["DISPLAY"] = ":97"
        let run = try PrivateCompositor.run(InspectRun.executable, ["--", "true"], environment: environment, timeout: 30)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("note: nothing was checked: the client never connected to the inspector's Wayland socket (DISPLAY=:97 is set: did it choose X11?"), "\(run.output)")
        let connected = try InspectRun.run(["timeout", "-s", "INT", "1", "weston-simple-shm"], environment: weston.clientEnvironment, timeout: 30)
        defer { connected.removeDirectory() }
        #expect(!connected.output.contains("nothing was checked"), "\(connected.output)")
        #expect(connected.output.contains(#"toplevel "simple-shm""#), "\(connected.output)")
    }

    @Test("An unusable --log or --evidence path is exit 2 at start with the system's reason, before the client runs")
    func unusableOutputPathsAreExit2WithTheReason() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = (directory as NSString).appendingPathComponent("client-ran")
        let file = (directory as NSString).appendingPathComponent("plain-file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let cases: [(options: [String], expected: String)] = [
            (["--log", "\(directory)/missing/commits.jsonl"], "cannot write the log \(directory)/missing/commits.jsonl: No such file or directory"),
            (["--log", directory], "cannot write the log \(directory): Is a directory"),
            (["--evidence", file], "cannot use the evidence directory \(file): it exists and is not a directory"),
            (["--evidence", "\(file)/sub"], "cannot use the evidence directory \(file)/sub: Not a directory"),
            // /proc takes no new files, whoever asks (root included).
            (["--evidence", "/proc"], "cannot use the evidence directory /proc: cannot create files in it"),
        ]
        for (options, expected) in cases {
            let run = try PrivateCompositor.run(InspectRun.executable, options + ["--", "touch", marker], environment: weston.clientEnvironment, timeout: 30)
            #expect(run.status == 2, "\(options): \(run.output)")
            #expect(run.output.contains("damask-inspect: \(expected)"), "\(options): \(run.output)")
            #expect(!run.output.contains("NSCocoaErrorDomain"), "\(options): \(run.output)")
            #expect(!FileManager.default.fileExists(atPath: marker), "\(options): the client ran")
        }
    }

    @Test("An unusable --report is exit 2 at start, and leaves the other outputs as they were: no new empty log, an existing log not emptied")
    func unusableReportLeavesTheLogAlone() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = (directory as NSString).appendingPathComponent("client-ran")
        let existing = (directory as NSString).appendingPathComponent("old.jsonl")
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("kept\n".utf8)))
        let fresh = (directory as NSString).appendingPathComponent("new.jsonl")
        let report = "\(directory)/missing/report.html"
        for log in [existing, fresh] {
            let run = try PrivateCompositor.run(
                InspectRun.executable, ["--log", log, "--report", report, "--", "touch", marker], environment: weston.clientEnvironment, timeout: 30)
            #expect(run.status == 2, "\(run.output)")
            #expect(run.output.contains("damask-inspect: cannot write the report \(report): No such file or directory"), "\(run.output)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the client ran")
        }
        #expect((try? String(contentsOfFile: existing, encoding: .utf8)) == "kept\n")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        // A usable run empties the existing log and writes it anew.
        let run = try PrivateCompositor.run(InspectRun.executable, ["--log", existing, "--", "true"], environment: weston.clientEnvironment, timeout: 30)
        #expect(run.status == 0, "\(run.output)")
        #expect((try? String(contentsOfFile: existing, encoding: .utf8)).map { !$0.contains("kept") } == true)
    }

    @Test("SIGINT to the inspector ends its client with SIGTERM and prints the summary (a signal delivered twice at once counts once); a client ignoring SIGTERM is killed at a second signal, or 5 s after a SIGHUP")
    func interruptingTheInspectorEndsTheRunWithASummary() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stubborn = #"trap "" INT TERM HUP; exec weston-simple-shm"#
        // Each signal with the pause before it (s): two at once is what `timeout` does (its
        // child, then the child's process group).
        let cases: [(client: [String], signals: [(Int32, TimeInterval)], expected: [String], atMost: TimeInterval)] = [
            (["weston-simple-shm"], [(SIGINT, 0), (SIGINT, 0)], ["client: signal 15", "note: interrupted by signal 2: the client was sent SIGTERM"], 10),
            (["sh", "-c", stubborn], [(SIGTERM, 0), (SIGTERM, 1.5)], ["client: signal 9", "note: interrupted twice (signal 15): the client was killed (SIGKILL)"], 10),
            (["sh", "-c", stubborn], [(SIGHUP, 0)], ["client: signal 9", "note: interrupted: the client did not end within 5 s of SIGTERM and was killed (SIGKILL)"], 20),
        ]
        for (index, (client, signals, expected, atMost)) in cases.enumerated() {
            let log = (directory as NSString).appendingPathComponent("commits-\(index).jsonl")
            let inspector = try TestProcess(InspectRun.executable, ["--log", log, "--"] + client, environment: weston.clientEnvironment, mergingErrors: true)
            #expect(Self.waitForBufferCommit(in: log), "\(client): \(inspector.transcript)")
            for (signal, pause) in signals {
                if pause > 0 {
                    // The signal before has been handled and ignored by the client: still running.
                    usleep(useconds_t(pause * 1_000_000))
                    #expect(inspector.isRunning, "\(client): \(inspector.transcript)")
                }
                kill(inspector.pid, signal)
            }
            let status = inspector.waitForExit(timeout: atMost)
            inspector.waitForEndOfOutput(timeout: 5)
            let output = inspector.transcript
            #expect(status == 0, "\(client) \(signals): \(output)")
            #expect(output.contains("damask-inspect summary"), "\(client) \(signals): \(output)")
            #expect(output.contains(#"toplevel "simple-shm""#), "\(client) \(signals): \(output)")
            for line in expected { #expect(output.contains(line), "\(client) \(signals): \(output)") }
            if status == nil { inspector.kill() }
        }
    }

    @Test("The compositor going away under a running client is a connection error: exit 2, summary printed", arguments: ["weston", "mutter"])
    func compositorGoingAwayIsExit2(compositor name: String) throws {
        let compositor = try PrivateCompositor(name == "weston" ? .weston() : .gnome())
        defer { compositor.stop() }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = (directory as NSString).appendingPathComponent("commits.jsonl")
        let inspector = try TestProcess(InspectRun.executable, ["--log", log, "--", "weston-simple-damage"], environment: compositor.clientEnvironment, mergingErrors: true)
        #expect(Self.waitForBufferCommit(in: log), "\(inspector.transcript)")
        compositor.kill()
        let status = inspector.waitForExit(timeout: 30)
        inspector.waitForEndOfOutput(timeout: 5)
        let output = inspector.transcript
        #expect(status == 2, "\(output)")
        #expect(output.contains("connection error: client 1: the compositor closed the connection without a protocol error"), "\(output)")
        #expect(output.contains("damask-inspect summary"), "\(output)")
        if status == nil { inspector.kill() }
    }

    /// Runs the command with a connection to the compositor in WAYLAND_SOCKET; with "keep",
    /// WAYLAND_DISPLAY stays set beside it (as a launching compositor leaves it), otherwise it
    /// is removed.
    static let socketLauncher = """
        import os, socket, sys
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
        if sys.argv[1] != "keep":
            del os.environ["WAYLAND_DISPLAY"]
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        os.set_inheritable(s.fileno(), True)
        os.environ["WAYLAND_SOCKET"] = str(s.fileno())
        os.execvp(sys.argv[2], sys.argv[2:])
        """

    @Test("Given WAYLAND_SOCKET, a client's second connection goes to WAYLAND_DISPLAY when that is set too, and without it is refused with an error saying why (exit 2)")
    func secondConnectionBesideWaylandSocket() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Two connections: a background client and a foreground one, each three frames.
        let twoClients = ["sh", "-c", "'\(client)' grow-pool 3 & '\(client)' grow-pool 3; wait"]
        for mode in ["keep", "drop"] {
            let log = (directory as NSString).appendingPathComponent("\(mode).jsonl")
            let result = try PrivateCompositor.run(
                "/usr/bin/python3", ["-c", Self.socketLauncher, mode, InspectRun.executable, "--log", log, "--"] + twoClients,
                environment: DemoRun.environment(weston.clientEnvironment), timeout: 60)
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            let clients = Set(lines.filter { $0.contains(#""kind":"buffer""#) }.compactMap { line in
                line.range(of: #""client":"#).map { line[$0.upperBound...].prefix { $0.isNumber } }.map(String.init)
            })
            if mode == "keep" {
                #expect(clients == ["1", "2"], "\(result.output)")
                #expect(result.status == 0, "\(result.output)")
            } else {
                #expect(clients == ["1"], "\(result.output)")
                #expect(result.output.contains("connection error: connection 2 of the client was refused: WAYLAND_SOCKET gave the inspector one connection to the compositor and WAYLAND_DISPLAY is not set"), "\(result.output)")
                #expect(result.status == 2, "\(result.output)")
            }
        }
    }
    @Test("A --log on a full disk (/dev/full) is an output error in the summary with the system's reason, exit 2, and no crash; a full standard error leaves the exit status the run's")
    func fullDiskIsAnOutputErrorNotACrash() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("remapped-surface")
        defer { unlink(client) }
        let full = try PrivateCompositor.run(InspectRun.executable, ["--log", "/dev/full", "--", client, "1"], environment: weston.clientEnvironment, timeout: 30)
        #expect(full.reason == .exit && full.status == 2, "\(full.reason) \(full.status): \(full.output)")
        #expect(full.output.contains("damask-inspect summary"), "\(full.output)")
        #expect(full.output.contains("output error: cannot write the log /dev/full: No space left on device; the log is incomplete"), "\(full.output)")
        // The summary cannot be written either: the status is still what the run found (1:
        // the client under-damages), not a crash.
        let silent = try PrivateCompositor.run(
            "/bin/sh", ["-c", #"exec "$0" "$@" 2>/dev/full"#, InspectRun.executable, "--", client, "1"],
            environment: weston.clientEnvironment, timeout: 30)
        #expect(silent.reason == .exit && silent.status == 1, "\(silent.reason) \(silent.status): \(silent.output)")
    }
    @Test("The --log file is written while the client runs: a slow client's commits are in it within a second or so, not only at the end")
    func logIsWrittenWhileTheClientRuns() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("remapped-surface")
        defer { unlink(client) }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = (directory as NSString).appendingPathComponent("commits.jsonl")
        // Three commits, then the command stays 6 s more: far from the 32 KiB the log gathers.
        let inspector = try TestProcess(
            InspectRun.executable, ["--log", log, "--", "sh", "-c", "'\(client)' 1; sleep 6"],
            environment: weston.clientEnvironment, mergingErrors: true)
        #expect(Self.waitForBufferCommit(in: log, timeout: 4), "\(inspector.transcript)")
        let status = inspector.waitForExit(timeout: 30)
        #expect(status == 1, "\(inspector.transcript)")
        if status == nil { inspector.kill() }
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// damask-inspect in situations an outside user meets and the other inspector tests do not:
/// surface damage and buffer damage mixed under buffer scale 2, a pool grown while the client
/// commits, a buffer destroyed between its attach and its commit, a client hanging up in the
/// middle of a message or right after a commit the inspector has not read yet, a compositor
/// reached through
/// `WAYLAND_SOCKET`, `--fail-over` (Tests/InspectClients/edge-cases.c, real compositors), and
/// a surface id reused after its surface was destroyed (remapped-surface.c).
@Suite("damask-inspect edge cases under real compositors", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct InspectEdgeCaseTests {
    static func compositor(_ name: String) throws -> PrivateCompositor {
        try PrivateCompositor(name == "weston" ? .weston() : .gnome())
    }

    /// The toplevel's buffer commits of a run.
    static func bufferRecords(_ run: InspectRun) -> [[String: Any]] {
        run.records(role: "toplevel").filter { $0["kind"] as? String == "buffer" }
    }

    @Test("Surface damage at buffer scale 2 mixed with damage_buffer in one commit, and a pool grown while committing: every commit is compared and none is under-damaged", arguments: [
        ("weston", "mixed-scale"), ("weston", "grow-pool"), ("mutter", "mixed-scale"), ("mutter", "grow-pool"),
    ])
    func mixedDamageAndGrowingPoolAreCompared(compositor name: String, mode: String) throws {
        let compositor = try Self.compositor(name)
        defer { compositor.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let run = try InspectRun.run([client, mode, "6"], environment: compositor.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output)")
        let records = Self.bufferRecords(run)
        // The first frame is new content; each of the six after it is compared with the one
        // before and changed something, all of it inside the declared damage.
        #expect(records.count == 7, "\(run.output)")
        let compared = records.dropFirst()
        #expect(compared.allSatisfy { $0["content"] as? String == "compared" }, "\(compared)")
        #expect(compared.allSatisfy { ($0["changed_px"] as? Int ?? 0) > 0 }, "\(compared)")
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 }, "\(records)")
        if mode == "mixed-scale" {
            // The surface-coordinate rectangle doubled (rounded out to even pixels) plus the
            // 12×10 buffer rectangle: never less than the 9×7 + 12×10 the client changed.
            #expect(compared.allSatisfy { ($0["damage_px"] as? Int ?? 0) >= 9 * 7 + 12 * 10 && ($0["damage"] as? [Any])?.count == 2 }, "\(compared)")
        } else {
            // Every frame is a new buffer made in the grown part of the pool (its object id may
            // be one the client destroyed before: libwayland reuses ids), committed once.
            #expect(records.allSatisfy { $0["reused"] as? Bool == false }, "\(records)")
        }
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("A client that hangs up in the middle of a commit: what it completed is forwarded and checked, the cut-off message is reported, and the inspector exits 0")
    func clientHangingUpMidMessageIsReported() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "exit-mid-commit"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.reason == .exit)
        #expect(run.output.contains("client 1: the client hung up in the middle of a message: its last 4 bytes were never completed and were not forwarded"), "\(run.output)")
        // The configure commit and the first frame; the half commit never counts.
        #expect(run.records(role: "toplevel").count == 2, "\(run.output)")
        #expect(run.output.contains("client: exit 0"), "\(run.output)")
        #expect(run.status == 0, "\(run.output)")
    }

    /// Connects to the compositor in WAYLAND_DISPLAY, then runs the command with that socket in
    /// WAYLAND_SOCKET and no WAYLAND_DISPLAY, as a compositor launching a client does.
    static let socketLauncher = """
        import os, socket, sys
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ.pop("WAYLAND_DISPLAY"))
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        os.set_inheritable(s.fileno(), True)
        os.environ["WAYLAND_SOCKET"] = str(s.fileno())
        os.execvp(sys.argv[1], sys.argv[1:])
        """

    @Test("A client that exits while the compositor's events for it wait in the inspector, its last commit still unread: that commit is checked and forwarded, and the end is a plain hang-up, not a socket failure")
    func lastCommitOfAClientThatExitedIsStillChecked() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "exit-unread"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.output.contains("frame 3"), "\(run.output)")
        // Frames 0-3: the last one, sent just before the client exited, is there too.
        let records = Self.bufferRecords(run)
        #expect(records.count == 4, "\(run.output)")
        #expect(records.last?["content"] as? String == "compared", "\(records)")
        #expect(!run.output.contains("socket failed"), "\(run.output)")
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("A wl_shm buffer attached and destroyed before the commit makes that commit unmap the surface, as compositors do: it is not counted as a buffer that is not wl_shm, and the next mapping is new content, not under-damage")
    func bufferDestroyedBeforeItsCommitUnmaps() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "destroy-pending"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output)")
        let kinds = run.records(role: "toplevel").map { "\($0["kind"] ?? "")/\($0["content"] ?? "")" }
        #expect(kinds == ["no-buffer/none", "buffer/new", "unmap/none", "no-buffer/none", "buffer/new"], "\(kinds)")
        #expect(!run.output.contains("not checked"), "\(run.output)")
        #expect(run.output.contains("under-damage commits: 0"), "\(run.output)")
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("Given the compositor as WAYLAND_SOCKET (no WAYLAND_DISPLAY), the inspector checks the client through it; a WAYLAND_SOCKET that is no open fd is exit 2", arguments: ["weston", "mutter"])
    func waylandSocketReachesTheCompositor(compositor name: String) throws {
        let compositor = try Self.compositor(name)
        defer { compositor.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-socket-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = (directory as NSString).appendingPathComponent("commits.jsonl")
        let result = try PrivateCompositor.run(
            "/usr/bin/python3", ["-c", Self.socketLauncher, InspectRun.executable, "--log", log, "--", client, "grow-pool", "3"],
            environment: DemoRun.environment(compositor.clientEnvironment), timeout: 60)
        #expect(result.output.contains("done"), "\(result.output)")
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.filter { $0.contains("\"kind\":\"buffer\"") && $0.contains("\"content\":\"compared\"") }.count == 3, "\(result.output)")
        #expect(result.status == 0, "\(result.output)")

        var environment = compositor.clientEnvironment
        environment["WAYLAND_SOCKET"] = "987"
        let closed = try PrivateCompositor.run(InspectRun.executable, ["--", client, "grow-pool", "1"], environment: environment, timeout: 30)
        #expect(closed.status == 2)
        #expect(closed.output.contains("WAYLAND_SOCKET=987 is not an open file descriptor"), "\(closed.output)")
    }

    @Test("--fail-over RATIO: a surface whose median damage ÷ changed px is above RATIO makes the exit status 1 and is named; at or under it the status stays 0")
    func failOverSetsTheExitStatus() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("edge-cases")
        defer { unlink(client) }
        // mixed-scale over-damages a little: its surface rectangle rounds out to even pixels.
        let over = try InspectRun.run([client, "mixed-scale", "6"], options: ["--fail-over", "1.0"], environment: weston.clientEnvironment, timeout: 60)
        defer { over.removeDirectory() }
        #expect(over.status == 1, "\(over.output)")
        #expect(over.output.contains("over --fail-over 1.0: client 1 @"), "\(over.output)")
        #expect(over.output.contains("under-damage commits: 0"), "\(over.output)")
        let within = try InspectRun.run([client, "mixed-scale", "6"], options: ["--fail-over", "3"], environment: weston.clientEnvironment, timeout: 60)
        defer { within.removeDirectory() }
        #expect(within.status == 0, "\(within.output)")
        #expect(!within.output.contains("over --fail-over"), "\(within.output)")
    }
    @Test("A wl_surface id reused after wl_surface.destroy: each surface is a summary row of its own and every under-damaged commit keeps its own evidence PNG, named in its log line")
    func reusedSurfaceIdKeepsRowsAndEvidenceApart() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("remapped-surface")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "3"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output)")
        // The client's own report: the surface ids it got, one round each.
        let ids = run.output.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.count > 3 && words[0] == "round" ? String(words[3]) : nil
        }
        #expect(ids.count == 3 && Set(ids).count < 3, "no id was reused: \(ids)")
        #expect(run.output.contains("under-damage commits: 3"), "\(run.output)")
        let rows = run.output.split(separator: "\n").filter { $0.hasPrefix("1 ") && $0.contains(#"toplevel "remapped-surface""#) }
        #expect(rows.count == 3, "\(run.output)")
        #expect(run.evidenceFiles.filter { $0.hasSuffix(".png") }.count == 3, "\(run.evidenceFiles)")
        // Each under-damaged commit's log line names its own image.
        let named = run.records.filter { ($0["under_damage_px"] as? Int ?? 0) > 0 }.compactMap { $0["evidence"] as? String }
        #expect(named.count == 3 && Set(named) == Set(run.evidenceFiles.filter { $0.hasSuffix(".png") }), "\(named) \(run.evidenceFiles)")
        #expect(run.records.filter { ($0["under_damage_px"] as? Int ?? 0) == 0 }.allSatisfy { $0["evidence"] is NSNull }, "\(run.records)")
        #expect(run.output.contains("evidence: 3 PNG files"), "\(run.output)")
        #expect(run.status == 1, "\(run.output)")
    }
}

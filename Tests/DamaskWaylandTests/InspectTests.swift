import DamaskTestSupport
import Foundation
import Testing

/// damask-inspect between real clients and real compositors (headless Weston and mutter).
@Suite("damask-inspect under real compositors", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct InspectTests {
    /// The commit numbers a broken-damage run printed for `kind` ("under" or "held").
    static func announced(_ kind: String, in output: String) -> Set<Int> {
        Set(output.split(separator: "\n").compactMap { line -> Int? in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "commit", words[2] == kind else { return nil }
            return Int(words[1])
        })
    }

    func checkBrokenClient(on compositor: PrivateCompositor, expectHeldWrites: Bool) throws {
        let client = try InspectRun.buildBrokenClient()
        defer { unlink(client) }
        let run = try InspectRun.run([client, "8"], environment: compositor.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.reason == .exit)
        #expect(run.output.contains("done"), "\(run.output)")
        let records = run.records(role: "toplevel")
        let under = Set(records.filter { ($0["under_damage_px"] as? Int ?? 0) > 0 }.compactMap { $0["commit"] as? Int })
        let held = Set(records.filter { $0["held_write"] as? Bool == true }.compactMap { $0["commit"] as? Int })
        let announcedUnder = Self.announced("under", in: run.output)
        let announcedHeld = Self.announced("held", in: run.output)
        #expect(announcedUnder.count == 8)
        #expect(under == announcedUnder, "inspector \(under.sorted()), client \(announcedUnder.sorted())")
        // Each broken commit changed a 10×20 rectangle and declared only its top 10×10.
        for record in records where (record["under_damage_px"] as? Int ?? 0) > 0 {
            #expect(record["under_damage_px"] as? Int == 100, "\(record)")
            #expect(record["damage_px"] as? Int == 100, "\(record)")
        }
        #expect(held == announcedHeld, "inspector \(held.sorted()), client \(announcedHeld.sorted())")
        if expectHeldWrites { #expect(announcedHeld.count == 8, "\(run.output)") }
        #expect(run.evidenceFiles.count == announcedUnder.count)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("under-damage commits: 8"), "\(run.output)")
        // Every commit the client sent was forwarded and timed.
        let commits = run.records.filter { $0["kind"] as? String != "held-write" }.count
        let latency = run.output.split(separator: "\n").first { $0.hasPrefix("commit latency") }
        #expect(latency?.contains("), \(commits) commits: wall median ") == true, "\(commits) commits; \(run.output)")
    }

    @Test("Under Weston the broken client's under-damage and held-buffer writes are caught on every commit")
    func brokenClientIsCaughtUnderWeston() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        // Weston keeps a wl_shm buffer until the next one replaces it: every write is held.
        try checkBrokenClient(on: weston, expectHeldWrites: true)
    }

    @Test("Under mutter the broken client's under-damage is caught on every commit, and no held write is invented")
    func brokenClientIsCaughtUnderGnome() throws {
        let mutter = try PrivateCompositor(.gnome())
        defer { mutter.stop() }
        // mutter copies wl_shm buffers and releases them at once, so the client finds its
        // buffer released after the roundtrip and writes only where it may.
        try checkBrokenClient(on: mutter, expectHeldWrites: false)
    }

    @Test("A client that keeps shrinking its pool file while committing does not crash the inspector")
    func shrinkingPoolDoesNotCrashTheInspector() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("shrinking-pool")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "60"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        // A SIGBUS would end the inspector by a signal, without its summary.
        #expect(run.reason == .exit, "\(run.output)")
        #expect(run.status == 0 || run.status == 1, "\(run.output)")
        #expect(run.output.contains("inspector cost"), "\(run.output)")
        let commits = run.records(role: "toplevel").filter { $0["kind"] as? String == "buffer" }
        #expect(!commits.isEmpty, "\(run.output)")
        #expect(commits.allSatisfy { ["compared", "new", "unreadable"].contains($0["content"] as? String ?? "") }, "\(run.output)")
    }

    @Test("A client that shrinks its pool file after attaching a buffer gets that commit reported as a shrunk pool, and the inspector carries on")
    func poolShrunkAfterAttachingIsReported() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let client = try InspectRun.buildClient("shrinking-pool")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "once"], environment: weston.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.reason == .exit, "\(run.output)")
        #expect(run.output.contains("inspector cost"), "\(run.output)")
        let commits = run.records(role: "toplevel").filter { $0["kind"] as? String == "buffer" }
        #expect(commits.count == 2, "\(commits)")
        #expect(commits.first?["content"] as? String == "new", "\(commits)")
        #expect(commits.first?["pool_shrunk"] as? Bool == false, "\(commits)")
        #expect(commits.last?["content"] as? String == "unreadable", "\(commits)")
        #expect(commits.last?["pool_shrunk"] as? Bool == true, "\(commits)")
        #expect(run.output.contains("1 commits whose wl_shm pool file the client had shrunk"), "\(run.output)")
    }

    @Test("A synchronized sub-surface is checked when its parent's commit applies it: a correct client that declares damage ahead has no under-damage", arguments: ["weston", "gnome"])
    func synchronizedSubsurfaceIsCheckedAtTheParentCommit(compositorName: String) throws {
        let compositor = try PrivateCompositor(compositorName == "weston" ? .weston() : .gnome())
        defer { compositor.stop() }
        let client = try InspectRun.buildClient("sync-subsurface")
        defer { unlink(client) }
        let run = try InspectRun.run([client, "8"], environment: compositor.clientEnvironment, timeout: 60)
        defer { run.removeDirectory() }
        #expect(run.output.contains("done"), "\(run.output)")
        let records = run.records(role: "subsurface").filter { $0["kind"] as? String == "buffer" }
        // 17 own buffer commits, applied by the parent's 9 commits.
        #expect(records.count == 9, "\(records)")
        let compared = records.filter { $0["content"] as? String == "compared" }
        #expect(compared.count == 8, "\(run.output)")
        #expect(compared.allSatisfy { ($0["changed_px"] as? Int ?? 0) > 0 && $0["under_damage_px"] as? Int == 0 }, "\(compared)")
        #expect(run.status == 0, "\(run.output)")
    }

    /// The demo tour's actions (every scene, clicks, typing, waits) without its `expect`
    /// lines: those check frame timing, which one more hop between client and compositor
    /// shifts; what this suite checks is the damage, which the inspector measures itself.
    static func tourActions() throws -> String {
        let tour = try String(contentsOfFile: DemoRun.tourPath, encoding: .utf8)
        let actions = tour.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("expect") }
            .joined(separator: "\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-\(UUID().uuidString)-tour.damask").path
        try actions.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Under Weston the demo tour has no under-damage and each commit's damage is what Weston's protocol log shows")
    func demoTourUnderWestonMatchesTheProtocolLog() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let tour = try Self.tourActions()
        defer { unlink(tour) }
        let run = try InspectRun.run([DemoRun.executable, "--play", tour, "--speed", "fast"], environment: weston.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("client: exit 0"), "\(run.output)")
        let records = run.records(role: "toplevel")
        let bufferCommits = records.filter { $0["kind"] as? String == "buffer" }
        #expect(bufferCommits.count > 20)
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 && ($0["held_write"] as? Bool) == false })
        #expect(bufferCommits.contains { $0["content"] as? String == "compared" && ($0["changed_px"] as? Int ?? 0) > 0 })
        let surface = try #require(records.first?["surface"] as? Int)
        let inspected = records.filter { ["buffer", "unmap"].contains($0["kind"] as? String ?? "") }.map { record in
            Set(((record["damage"] as? [[Int]]) ?? []).map { $0.map(String.init).joined(separator: ",") })
        }
        // Weston logs a request when it handles it, which may be after the inspector exited.
        var logged: [Set<String>] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            logged = DamagePipelineTests.damagePerCommit(
                inLog: weston.logLines(containing: "wl_surface@\(surface)."), surfaceID: "\(surface)")
            if logged.count >= inspected.count { break }
            usleep(50_000)
        } while Date() < deadline
        #expect(inspected.count == logged.count)
        #expect(inspected == logged, "first difference at commit \(zip(inspected, logged).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    @Test("Under Weston the progress animation's damage is at most 3× the changed pixels' boxes (median per commit), with no under-damage")
    func progressAnimationDamageFollowsTheChangedPixels() throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-\(UUID().uuidString)-progress.damask").path
        try "scene progress\nkey space\nwait 2s\nkey space\nwait frames 2\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { unlink(script) }
        let run = try InspectRun.run([DemoRun.executable, "--play", script], environment: weston.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        let records = run.records(role: "toplevel")
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 && ($0["held_write"] as? Bool) == false })
        let ratios = records.compactMap { $0["over_damage_boxes"] as? Double }.sorted()
        // The animation runs at the compositor's pace; under load a few frames are enough.
        #expect(ratios.count >= 5, "\(run.output)")
        let median = ratios.isEmpty ? .infinity : ratios[ratios.count / 2]
        #expect(median <= 3, "median damage ÷ changed boxes \(median) over \(ratios.count) commits: \(ratios)")
        let bounds = records.compactMap { $0["over_damage_bbox"] as? Double }.sorted()
        #expect(!bounds.isEmpty && bounds[bounds.count / 2] <= 3)
    }

    @Test("Under mutter the demo tour has no under-damage and no held-buffer write")
    func demoTourUnderGnomeIsClean() throws {
        let mutter = try PrivateCompositor(.gnome())
        defer { mutter.stop() }
        let tour = try Self.tourActions()
        defer { unlink(tour) }
        let run = try InspectRun.run([DemoRun.executable, "--play", tour, "--speed", "fast"], environment: mutter.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("client: exit 0"), "\(run.output)")
        let records = run.records(role: "toplevel")
        #expect(records.filter { $0["kind"] as? String == "buffer" }.count > 20)
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 && ($0["held_write"] as? Bool) == false })
        #expect(run.output.contains("under-damage commits: 0, held-buffer writes: 0"), "\(run.output)")
    }

    @Test("Under mutter, through the inspector, the damage-pipeline sequence sends each commit's reported damage and changes nothing outside it")
    func damagePipelineSequenceUnderGnomeThroughTheInspector() throws {
        let mutter = try PrivateCompositor(.gnome())
        defer { mutter.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = (directory as NSString).appendingPathComponent("commits.jsonl")
        // The test client's stdin and stdout pass through the inspector to the client.
        let client = try ClientProcess(
            URL(fileURLWithPath: InspectRun.executable), ["--log", log, "--", FoundationTests.testClient.path],
            environment: mutter.clientEnvironment)
        let ready = try #require(client.waitForLine { $0.hasPrefix("ready") }, "\(client.standardError)")
        let surface = try #require(Int(ready.split(separator: " ")[3]))
        for step in DamagePipelineTests.sequence(seed: 0xDA5C, count: 40) {
            for command in step.commands { client.send(command) }
            // Presented: the client answers "settled" after the display pass that shows the step.
            let seen = client.outputLines.count
            client.send("settle")
            _ = try #require(client.waitForLine(skipping: seen) { $0.hasPrefix("settled ") }, "\(step.commands) never settled")
        }
        client.send("quit")
        #expect(client.waitForExit(timeout: 20) == 0, "\(client.standardError)")
        let reported = client.outputLines.filter { $0.hasPrefix("commit ") }.map(DamagePipelineTests.damage(ofCommitLine:))
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let records = text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["surface"] as? Int == surface && $0["kind"] as? String == "buffer" }
        let inspected = records.map { record in
            Set(((record["damage"] as? [[Int]]) ?? []).map { $0.map(String.init).joined(separator: ",") })
        }
        #expect(reported.count > 25)
        #expect(inspected.count == reported.count)
        for (index, pair) in zip(inspected, reported).enumerated() where pair.0 != pair.1 {
            Issue.record("commit \(index + 1): inspected \(pair.0.sorted()) ≠ reported \(pair.1.sorted())")
        }
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 && ($0["held_write"] as? Bool) == false })
        #expect(records.contains { ($0["changed_px"] as? Int ?? 0) > 0 && $0["content"] as? String == "compared" })
    }

    @Test("weston-simple-damage with buffer scale, transform, viewport or damage_buffer has no under-damage: surface damage maps to the right buffer pixels", arguments: [
        ["--scale=2"], ["--transform=90", "--use-damage-buffer"], ["--transform=flipped-270"], ["--use-viewport"],
        ["--use-viewport", "--scale=2", "--transform=180"],
    ])
    func westonSimpleDamageIsCleanUnderEveryGeometry(options: [String]) throws {
        let weston = try PrivateCompositor(.weston(size: "1024x768"))
        defer { weston.stop() }
        let run = try InspectRun.run(["timeout", "-s", "INT", "2", "weston-simple-damage"] + options, environment: weston.clientEnvironment, timeout: 30)
        defer { run.removeDirectory() }
        let records = run.records(role: "toplevel").filter { $0["kind"] as? String == "buffer" }
        let changed = records.filter { $0["content"] as? String == "compared" && ($0["changed_px"] as? Int ?? 0) > 0 }
        #expect(changed.count > 5, "\(run.output)")
        #expect(records.allSatisfy { ($0["under_damage_px"] as? Int) == 0 }, "\(run.output)")
        #expect(run.status == 0, "\(run.output)")
    }

    /// A raw client in Python: sends one request's bytes and prints the error event it gets.
    static let rawClient = """
        import os, socket, struct, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(os.environ["WAYLAND_DISPLAY"])
        s.sendall(bytes.fromhex(sys.argv[1]))
        s.settimeout(3)
        data = b""
        while True:
            try:
                chunk = s.recv(4096)
            except socket.timeout:
                break
            if not chunk: break
            data += chunk
        off = 0
        while off + 8 <= len(data):
            obj, word = struct.unpack("<II", data[off:off + 8])
            if obj == 1 and word & 0xffff == 0 and off + 20 <= len(data):
                oid, code, length = struct.unpack("<III", data[off + 8:off + 20])
                print("error event object=%d opcode=%d about=%d code=%d message=%s" % (obj, word & 0xffff, oid, code, data[off + 20:off + 20 + length - 1].decode()))
                sys.exit(0)
            off += max(8, word >> 16)
        print("no error event")
        """

    @Test("A malformed request gets the wl_display.error a compositor would send (the same object, code and text as Weston sends for the same bytes), and the inspector reports the detail", arguments: [
        ("0100000007000800", "invalid method 7, object wl_display@1", false),
        ("0100000000000400", "message of invalid size 4 to object 1", false),
        ("2a00000000000800", "invalid object 42", false),
        // new ids in use (wl_display's own 1; a registry's 2 twice) or 0
        ("0100000001000c0001000000", "invalid arguments for wl_display@1.get_registry", false),
        ("0100000001000c00020000000100000001000c0002000000", "invalid arguments for wl_display@1.get_registry", false),
        ("0100000001000c0000000000", "wl_display@1.get_registry: new id 0 for argument 'registry'", false),
        // 4 bytes after the last argument: libwayland-server ignores them, the inspector
        // (which frames by the declared size) disconnects the client, saying why.
        ("01000000010010000200000000000000", "wl_display@1.get_registry: 4 bytes left over after the last argument (sent as: invalid arguments for wl_display@1.get_registry)", true),
    ])
    func malformedRequestGetsAProtocolError(bytes: String, detail: String, stricterThanCompositor: Bool) throws {
        let weston = try PrivateCompositor(.weston())
        defer { weston.stop() }
        let run = try InspectRun.run(["/usr/bin/python3", "-c", Self.rawClient, bytes], environment: weston.clientEnvironment, timeout: 30)
        defer { run.removeDirectory() }
        let direct = try PrivateCompositor.run("/usr/bin/python3", ["-c", Self.rawClient, bytes], environment: weston.clientEnvironment, timeout: 30)
        let errorLine = { (output: String) in output.split(separator: "\n").first { $0.hasPrefix("error event") }.map(String.init) }
        let inspected = errorLine(run.output)
        #expect(run.reason == .exit)
        #expect(inspected?.hasPrefix("error event object=1 opcode=0") == true, "\(run.output)")
        if stricterThanCompositor {
            #expect(errorLine(direct.output) == nil, "\(direct.output)")
            #expect(inspected?.contains("code=1 message=invalid arguments for wl_display@1.get_registry") == true, "\(run.output)")
        } else {
            #expect(inspected != nil && inspected == errorLine(direct.output), "inspected: \(run.output)\ndirect: \(direct.output)")
        }
        #expect(run.output.contains("protocol error: client 1: \(detail)"), "\(run.output)")
        #expect(run.status == 1)
    }

    @Test("Without a compositor, or without a client, the inspector exits 2 saying why")
    func missingCompositorOrClientIsExit2() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "/nonexistent/wayland-socket"
        environment["WAYLAND_SOCKET"] = nil
        let noCompositor = try PrivateCompositor.run(InspectRun.executable, ["--", "true"], environment: environment)
        #expect(noCompositor.status == 2)
        #expect(noCompositor.output.contains("no Wayland compositor at /nonexistent/wayland-socket"), "\(noCompositor.output)")
        let noClient = try PrivateCompositor.run(InspectRun.executable, ["--log"], environment: environment)
        #expect(noClient.status == 2)
        #expect(noClient.output.contains("--log needs a value"), "\(noClient.output)")
        // An empty runtime directory: no wayland-0 there.
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var unset = environment
        unset["WAYLAND_DISPLAY"] = nil
        unset["XDG_RUNTIME_DIR"] = runtime
        let noDisplay = try PrivateCompositor.run(InspectRun.executable, ["--", "true"], environment: unset)
        #expect(noDisplay.status == 2)
        #expect(noDisplay.output.contains("no Wayland compositor at \(runtime)/wayland-0 (WAYLAND_DISPLAY is not set, so the default wayland-0)"), "\(noDisplay.output)")
        unset["XDG_RUNTIME_DIR"] = nil
        let noRuntime = try PrivateCompositor.run(InspectRun.executable, ["--", "true"], environment: unset)
        #expect(noRuntime.status == 2)
        #expect(noRuntime.output.contains("XDG_RUNTIME_DIR is not set, so WAYLAND_DISPLAY=wayland-0 cannot be found"), "\(noRuntime.output)")
        let badRatio = try PrivateCompositor.run(InspectRun.executable, ["--fail-over", "x", "--", "true"], environment: environment)
        #expect(badRatio.status == 2)
        #expect(badRatio.output.contains("--fail-over expects a ratio"), "\(badRatio.output)")
    }
}

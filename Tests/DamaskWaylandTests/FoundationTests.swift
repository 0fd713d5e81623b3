import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The foundation under real compositors: a window maps and shows its pixels, the requests
/// on the wire are the ones Damask means to send, the main loop runs main-actor work and
/// sleeps when idle, and every way the program can end is clean.
@Suite("Foundation", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct FoundationTests {
    static let testClient = PrivateCompositor.productsDirectory.appendingPathComponent("damask-test-client")
    static let demo = PrivateCompositor.productsDirectory.appendingPathComponent("damask-demo")
    static let windowColor: UInt32 = 0x1E90C8

    /// Starts the test client against `compositor` and waits for its first commit.
    func startClient(on compositor: PrivateCompositor, _ arguments: [String] = []) throws -> (ClientProcess, surfaceID: String) {
        let client = try ClientProcess(Self.testClient, arguments, environment: compositor.clientEnvironment)
        let ready = try #require(
            client.waitForLine { $0.hasPrefix("ready") }, "no first commit; stderr: \(client.standardError)")
        let fields = ready.split(separator: " ")
        return (client, String(fields[3]))
    }

    /// The bounding box of the pixels of `color` (0xRRGGBB) in `bitmap`.
    func boundingBox(of color: UInt32, in bitmap: Bitmap) -> CGRect {
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == color {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        guard maxX >= 0 else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-\(name)").path
    }

    @Test("The committed protocol glue matches the vendored XML")
    func committedProtocolGlueMatchesTheXML() throws {
        let script = PrivateCompositor.packageRoot.appendingPathComponent("scripts/generate-protocols").path
        let result = try TestProcess.run(script, ["--check"])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("Under Weston the window maps and a screenshot shows its pixels at its position")
    func windowMapsUnderWestonAndAScreenshotShowsItsPixels() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, _) = try startClient(on: weston)
        let path = temporaryPath("map.png")
        try weston.screenshot(to: path)
        let shot = try Bitmap(contentsOfPNGFile: path)
        let window = boundingBox(of: Self.windowColor, in: shot)
        #expect(window.size == CGSize(width: 200, height: 150), "window found at \(window)")
        #expect(window.minX > 0 && window.minY > 0, "the window lies inside the output")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test("The proto log shows attach, damage_buffer and commit, and a small change sends only its rect")
    func smallChangeSendsOnlyItsRect() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, surfaceID) = try startClient(on: weston)
        let surface = "wl_surface@\(surfaceID)."
        // Weston logs a request once it has handled it, a moment after the client sent it:
        // wait for the commit that follows the damage.
        let first = weston.waitForLogLines(containing: surface) { Self.damageIsCommitted($0, count: 1) }
        #expect(first.contains { $0.contains(surface + "attach(") })
        #expect(first.contains { $0.hasSuffix(surface + "damage_buffer(0, 0, 200, 150)") }, "\(first)")
        #expect(first.contains { $0.contains(surface + "commit()") })

        let before = weston.logLines(containing: surface + "damage_buffer(").count
        client.send("mark 10 20 30 40")
        _ = try #require(client.waitForLine { $0.hasPrefix("commit 2 ") })
        weston.waitForLogLines(containing: surface) { Self.damageIsCommitted($0, count: before + 1) }
        let damage = weston.logLines(containing: surface + "damage_buffer(").dropFirst(before)
        #expect(damage.count == 1)
        #expect(damage.first?.hasSuffix("damage_buffer(10, 20, 30, 40)") == true, "\(damage)")

        let path = temporaryPath("mark.png")
        try weston.screenshot(to: path)
        let shot = try Bitmap(contentsOfPNGFile: path)
        let window = boundingBox(of: Self.windowColor, in: shot)
        let marked = boundingBox(of: 0xFF0000, in: shot)
        #expect(marked == CGRect(x: window.minX + 10, y: window.minY + 20, width: 30, height: 40))
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test("Under GNOME (mutter) the window maps and frame callbacks arrive")
    func windowMapsUnderMutterAndFrameCallbacksArrive() throws {
        let mutter = try PrivateCompositor(.gnome())
        let (client, _) = try startClient(on: mutter)
        client.send("frames 5")
        #expect(client.waitForLines(count: 5, prefix: "frame "), "frames: \(client.outputLines.filter { $0.hasPrefix("frame ") })")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test("While a window is up, Task, MainActor.run and DispatchQueue.main.async run promptly: with at most one sleep of the main loop in between")
    func mainActorWorkRunsPromptlyWhileAWindowIsUp() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, _) = try startClient(on: weston)
        client.send("async")
        for kind in ["task", "main-actor-run", "dispatch-async"] {
            // The window is idle: work the loop did not wake for would wait for ever, so the
            // deadline only bounds a failure; promptness is counted, not timed. Work queued
            // on the main thread runs before the loop sleeps again; the hop from a detached
            // task may find it asleep once (counted from the hop: the detached task itself
            // may start late on a loaded machine, after the loop slept for other reasons).
            let line = try #require(client.waitForLine(timeout: 10) { $0.hasPrefix("ran \(kind) ") }, "\(kind) never ran")
            let fields = line.split(separator: " ")
            let sleeps = fields.count == 4 ? Int(fields[3]) : nil
            #expect(sleeps.map { $0 <= (kind == "main-actor-run" ? 1 : 0) } == true, "\(kind): \(line)")
        }
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test(
        "An idle window wakes up zero times per second",
        .disabled(
            if: ProcessInfo.processInfo.environment["DAMASK_SANITIZER"] == "thread",
            "ThreadSanitizer's runtime thread wakes every instrumented process 10 times a second: the wake-ups counted would be the sanitizer's (the plain and ASan passes run it)"))
    func idleWindowWakesUpZeroTimes() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, _) = try startClient(on: weston)
        // Start-up work and the first frame callback end: wait until the count stands still.
        #expect(Self.waitUntilIdle(client), "the client never became idle")
        let before = client.contextSwitches()
        sleep(3)  // the observation window itself: no wake-up in these 3 s
        let after = client.contextSwitches()
        #expect(after - before == 0, "\(after - before) wake-ups in 3 s")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    /// Whether `lines` (a surface's requests) hold `count` damage requests and a commit
    /// after the last of them.
    static func damageIsCommitted(_ lines: [String], count: Int) -> Bool {
        let damage = lines.indices.filter { lines[$0].contains(".damage_buffer(") }
        guard damage.count >= count, let last = damage.last else { return false }
        return lines[last...].contains { $0.contains(".commit()") }
    }

    /// Waits (up to 20 s) until `client`'s context-switch count stays the same over 200 ms.
    static func waitUntilIdle(_ client: ClientProcess) -> Bool {
        var last = client.contextSwitches()
        for _ in 0..<100 {
            usleep(200_000)
            let now = client.contextSwitches()
            if now == last { return true }
            last = now
        }
        return false
    }

    // MARK: - Errors a user can meet

    @Test("No reachable compositor: one line naming the socket tried, exit status 2")
    func noCompositorIsReportedWithExitStatus2() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = FileManager.default.temporaryDirectory.path
        environment["WAYLAND_DISPLAY"] = "damask-no-such-socket"
        let result = try TestProcess.run(Self.demo.path, [], environment: environment)
        #expect(result.status == 2)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        #expect(result.output.contains("cannot connect to a Wayland compositor at \(environment["XDG_RUNTIME_DIR"]!)/damask-no-such-socket"))
    }

    @Test("A missing required global is named, exit status 2")
    func missingGlobalIsNamedWithExitStatus2() throws {
        let script = PrivateCompositor.packageRoot.appendingPathComponent("scripts/with-weston").path
        let result = try TestProcess.run(script, ["--shell", "fullscreen-shell.so", "--", Self.demo.path])
        #expect(result.status == 2)
        #expect(result.output.contains("the compositor does not offer xdg_wm_base"), "\(result.output)")
    }

    @Test("A protocol error names interface, object, code and message, exit status 1")
    func protocolErrorIsReportedWithExitStatus1() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, surfaceID) = try startClient(on: weston)
        client.send("bad-scale")
        let status = client.waitForExit(timeout: 5)
        #expect(status == 1)
        let message = client.standardError
        #expect(message.contains("protocol error on wl_surface@\(surfaceID), code 0: "), "\(message)")
        #expect(message.contains("scale"), "the compositor's message is passed on: \(message)")
        #expect(!message.contains("Fatal error"))
    }

    @Test("The compositor going away ends the program within a second, exit status 1")
    func lostCompositorEndsTheProgramWithinASecond() throws {
        let weston = try PrivateCompositor(.weston())
        let (client, _) = try startClient(on: weston)
        let killed = Date()
        weston.kill()
        let status = client.waitForExit(timeout: 5)
        #expect(status == 1)
        #expect(Date().timeIntervalSince(killed) < WallClockBound.seconds(1))
        #expect(client.standardError.contains("lost connection to the compositor"), "\(client.standardError)")
    }

    @Test("SIGINT and SIGTERM close the demo window cleanly with exit status 0", arguments: [SIGINT, SIGTERM])
    func signalsCloseTheWindowCleanly(signal: Int32) throws {
        let weston = try PrivateCompositor(.weston())
        let log = temporaryPath("signal-\(signal).jsonl")
        let demo = try ClientProcess(Self.demo, ["--damage-log", log], environment: weston.clientEnvironment)
        let deadline = Date().addingTimeInterval(10)
        while ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").isEmpty && Date() < deadline {
            usleep(10_000)
        }
        #expect(!weston.logLines(containing: #"set_title("Damask")"#).isEmpty, "the window is titled Damask")
        #expect(!weston.logLines(containing: #"set_app_id("org.damask.Demo")"#).isEmpty, "the app id is org.damask.Demo")
        #expect(kill(demo.pid, signal) == 0)
        #expect(demo.waitForExit(timeout: 5) == 0)
        #expect(demo.standardError.isEmpty, "\(demo.standardError)")
    }
}

import DamaskTestSupport
import DamaskWayland
import Foundation
import Testing

/// Faults a long-running client meets on someone's desktop, provoked under a private Weston:
/// the compositor dying mid-animation, a hidden window that gets no frame callbacks, a storm
/// of configures with absurd sizes, and a soak of continuous animation.
///
/// The test client reports its own figures (`stats`: frames, live shm buffers and bytes,
/// resident memory, open descriptors); the tests read CPU time from `/proc/PID/stat`.
@Suite("Reliability", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct ReliabilityTests {
    static let testClient = PrivateCompositor.productsDirectory.appendingPathComponent("damask-test-client")
    static let withWeston = PrivateCompositor.packageRoot.appendingPathComponent("scripts/with-weston")

    /// Starts the test client against `compositor` and waits for its first commit.
    func startClient(on compositor: PrivateCompositor) throws -> ClientProcess {
        let client = try ClientProcess(Self.testClient, [], environment: compositor.clientEnvironment)
        _ = try #require(
            client.waitForLine { $0.hasPrefix("ready") }, "no first commit; stderr: \(client.standardError)")
        return client
    }

    /// How many commits the client has reported.
    func commitCount(_ client: ClientProcess) -> Int {
        client.outputLines.count { $0.hasPrefix("commit ") }
    }

    /// Waits until the client has reported `count` commits; false on timeout.
    func waitForCommits(_ client: ClientProcess, _ count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while commitCount(client) < count && Date() < deadline { usleep(5_000) }
        return commitCount(client) >= count
    }

    /// CPU time (user + system) the process `pid` has used, in seconds.
    static func cpuSeconds(of pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name (in parentheses): state is field 3, utime 14, stime 15.
        guard let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Samples `client` every half second until its frame count has stood still over three
    /// samples (1.5 s, longer than the scheduler's one-second visibility probe), for at most
    /// 10 s; returns the last sample and whether the count stood still.
    func waitUntilFramesStandStill(_ client: ClientProcess) throws -> (sample: ReliabilitySample, stoodStill: Bool) {
        var before = try ReliabilitySample(of: client)
        var unchanged = 0
        let deadline = Date().addingTimeInterval(10)
        while unchanged < 3 && Date() < deadline {
            usleep(500_000)
            let sample = try ReliabilitySample(of: client)
            unchanged = sample.frames == before.frames ? unchanged + 1 : 0
            before = sample
        }
        return (before, unchanged == 3)
    }

    /// Watches `client` for five seconds in which it should sleep: the context switches it
    /// made, the commits it reported, and its figures afterwards.
    func watchAsleep(_ client: ClientProcess) throws -> (wakeUps: Int, commits: Int, after: ReliabilitySample) {
        let commitsBefore = commitCount(client)
        usleep(100_000)  // let the stats query's own wake-up end before counting
        let switchesBefore = client.contextSwitches()
        sleep(5)  // the observation window itself
        let wakeUps = client.contextSwitches() - switchesBefore
        let after = try ReliabilitySample(of: client)
        return (wakeUps, commitCount(client) - commitsBefore, after)
    }

    // MARK: - The compositor dies mid-frame

    @Test(
        "The compositor killed while the window animates ends the program within a second, exit status 1, no crash",
        arguments: [3, 11, 23])
    func compositorKilledWhileAnimating(afterCommits extra: Int) throws {
        let weston = try PrivateCompositor(.weston())
        let client = try startClient(on: weston)
        client.send("animate")
        let target = commitCount(client) + extra
        #expect(waitForCommits(client, target), "the animation does not commit")
        let killed = Date()
        weston.kill()
        let status = client.waitForExit(timeout: 5)
        #expect(status == 1)
        #expect(client.process.terminationSignal == nil, "ended by a signal (a crash or a core dump)")
        #expect(Date().timeIntervalSince(killed) < WallClockBound.seconds(1))
        #expect(client.standardError.contains("lost connection to the compositor"), "\(client.standardError)")
        #expect(!client.standardError.contains("Fatal error"))
    }

    // MARK: - No frame callbacks

    @Test("A minimized window with a running DisplayLink gets no frames, stays under 1% CPU over 10 s and allocates nothing")
    func minimizedAnimatingWindowNeitherSpinsNorAllocates() throws {
        let weston = try PrivateCompositor(.weston())
        let client = try startClient(on: weston)
        client.send("animate")
        #expect(waitForCommits(client, commitCount(client) + 5))
        client.send("minimize")
        _ = try #require(client.waitForLine { $0 == "minimized" })
        // A frame the compositor had already scheduled may still arrive (within one output
        // refresh, 16 ms): start measuring once the count has stood still for three samples
        // in a row.
        var before = try ReliabilitySample(of: client)
        var unchanged = 0
        let settleDeadline = Date().addingTimeInterval(10)
        while unchanged < 3 && Date() < settleDeadline {
            usleep(100_000)
            let sample = try ReliabilitySample(of: client)
            unchanged = sample.frames == before.frames ? unchanged + 1 : 0
            before = sample
        }
        try #require(unchanged == 3, "frames kept arriving after minimizing: \(before)")
        let cpuBefore = Self.cpuSeconds(of: client.pid)
        sleep(10)  // the observation window itself: no frame and no CPU in these 10 s
        let cpuAfter = Self.cpuSeconds(of: client.pid)
        let after = try ReliabilitySample(of: client)
        #expect(after.frames == before.frames, "Weston hides minimized windows, so no frame callback should arrive")
        #expect(cpuAfter - cpuBefore < 0.1, "\(cpuAfter - cpuBefore) s of CPU in 10 s")
        #expect(after.buffers == before.buffers && after.buffers <= 3)
        #expect(after.shm == before.shm)
        #expect(after.descriptors == before.descriptors)
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test(
        "A minimized window whose DisplayLink changes nothing stops ticking, then never wakes up over 5 s",
        arguments: ["weston", "mutter"])
    func minimizedWindowWithIdleLinkStopsTicking(compositor: String) throws {
        // Both stop answering frame requests of a minimized window (mutter once its
        // minimize animation has played, when it also sends wl_surface.leave).
        let server = try PrivateCompositor(compositor == "weston" ? .weston() : .gnome())
        let client = try startClient(on: server)
        client.send("idle-link")
        _ = try #require(client.waitForLine { $0 == "idling" })
        let first = try ReliabilitySample(of: client)
        usleep(500_000)
        let ticking = try ReliabilitySample(of: client)
        #expect(ticking.frames - first.frames >= 10, "the link ticks while the window is shown: \(ticking.frames - first.frames) frames in 0.5 s")
        client.send("minimize")
        _ = try #require(client.waitForLine { $0 == "minimized" })
        // Neither compositor sends a sign of the minimize the link could use; the link
        // learns it when its once-a-second frame request goes unanswered (mutter first
        // plays its minimize animation and answers for a second or two). Wait until the
        // frames stand still over 1.5 s: three samples, longer than the probe interval.
        let (before, stoodStill) = try waitUntilFramesStandStill(client)
        #expect(stoodStill, "\(compositor): the link kept ticking after the minimize: \(before.frames) frames")
        // The minimize may change the window's states (mutter drops `activated`), which
        // redraws it once; count presents only from here: no tick and no wake-up in 5 s.
        let asleep = try watchAsleep(client)
        #expect(asleep.wakeUps == 0, "\(compositor): \(asleep.wakeUps) wake-ups in 5 s while minimized")
        #expect(asleep.after.frames == before.frames)
        #expect(asleep.commits == 0, "the link's frames presented nothing")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    @Test(
        "A blinking window commits each blink without a frame request while shown; minimized, its blinks stop within two seconds, then it never wakes up over 5 s",
        arguments: ["weston", "mutter"])
    func minimizedBlinkingWindowStopsPresenting(compositor: String) throws {
        let server = try PrivateCompositor(compositor == "weston" ? .weston() : .gnome())
        let client = try startClient(on: server)
        client.send("blink")
        _ = try #require(client.waitForLine { $0 == "blinking" })
        let first = try ReliabilitySample(of: client)
        let commitsAtFirst = commitCount(client)
        sleep(2)
        let shown = try ReliabilitySample(of: client)
        let blinks = shown.frames - first.frames
        #expect(blinks >= 10, "\(compositor): a 100 ms timer fired \(blinks) times in 2 s")
        #expect(commitCount(client) - commitsAtFirst >= blinks - 1, "\(compositor): each blink commits")
        // One commit a second at most asks whether the window is still shown.
        #expect(
            shown.unpaced - first.unpaced >= blinks - 4,
            "\(compositor): \(shown.unpaced - first.unpaced) of \(blinks) blinks committed without a frame request")
        client.send("minimize")
        _ = try #require(client.waitForLine { $0 == "minimized" })
        // Within a second of the compositor's last answer a commit asks for a frame; hidden,
        // the answer never comes (mutter answers during its minimize animation first). Wait
        // until the blinks stand still over 1.5 s; then no blink, commit or wake-up in 5 s.
        let (before, stoodStill) = try waitUntilFramesStandStill(client)
        #expect(stoodStill, "\(compositor): the blinks went on after the minimize: \(before.frames)")
        let asleep = try watchAsleep(client)
        #expect(asleep.wakeUps == 0, "\(compositor): \(asleep.wakeUps) wake-ups in 5 s while minimized")
        #expect(asleep.after.frames == before.frames)
        #expect(asleep.commits == 0, "\(compositor): \(asleep.commits) commits while minimized")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    // MARK: - Resize storm

    /// Builds Tests/WestonModules/resize-storm.c with gcc against libweston-10; returns
    /// the shared object's path.
    static func buildStormModule() throws -> String {
        let source = PrivateCompositor.packageRoot.appendingPathComponent("Tests/WestonModules/resize-storm.c").path
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-\(getpid())-resize-storm.so").path
        let command = "gcc -shared -fPIC -Wall -Werror $(pkg-config --cflags libweston-10 libweston-desktop-10) "
            + "-o '\(output)' '\(source)' $(pkg-config --libs libweston-10 libweston-desktop-10)"
        let result = try TestProcess.run("/bin/sh", ["-c", command])
        guard result.status == 0 else {
            throw TestProcessError.didNotStart(program: command, waitingFor: "the module to build", output: result.output)
        }
        return output
    }

    @Test("A storm of 1,000 configures (0×0, 1×1, 100000×100000 among them) is survived with bounded shm, and memory returns to its baseline")
    func resizeStormIsSurvived() async throws {
        let module = try Self.buildStormModule()
        defer { try? FileManager.default.removeItem(atPath: module) }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-storm.log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let client = try ClientProcess(
            Self.withWeston, ["--log", log, "--module", module, "--", Self.testClient.path],
            environment: ProcessInfo.processInfo.environment)
        _ = try #require(client.waitForLine { $0.hasPrefix("ready") }, "no first commit; \(client.standardError)")
        client.send("trim")
        let baseline = try ReliabilitySample(of: client)

        client.send("storm")
        var (maximumBuffers, maximumShm) = (0, 0)
        var latest = baseline
        let deadline = Date().addingTimeInterval(60)
        var stormOver = false
        repeat {
            latest = try ReliabilitySample(of: client)
            maximumBuffers = max(maximumBuffers, latest.buffers)
            maximumShm = max(maximumShm, latest.shm)
            stormOver = stormOver || ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("resize-storm: done")
            usleep(20_000)
        } while !(stormOver && latest.width == 320 && latest.height == 240) && Date() < deadline
        #expect(stormOver, "the storm did not finish; \(client.standardError)")
        #expect(latest.width == 320 && latest.height == 240, "the last configure was not applied: \(latest)")

        // The compositor releases the buffers of the storm's last sizes: wait until the
        // client holds only buffers of its current size, no more than its current pair (the
        // checks below). Two buffers alone are not enough: one of them may still be of a storm
        // size whose release is on its way.
        func holdsOnlyCurrentBuffers(_ sample: ReliabilitySample) -> Bool {
            sample.buffers <= 2 && sample.shm == sample.buffers * sample.width * sample.height * 4
        }
        let releaseDeadline = Date().addingTimeInterval(10)
        while try !holdsOnlyCurrentBuffers(ReliabilitySample(of: client)) && Date() < releaseDeadline { usleep(20_000) }
        client.send("trim")
        let after = try ReliabilitySample(of: client)
        let bufferBytesLimit = await MainActor.run { 3 * WaylandSurface.maximumPixelCount * 4 }
        #expect(maximumBuffers <= 3)
        #expect(maximumShm <= bufferBytesLimit, "\(maximumShm) bytes of shm at the peak")
        #expect(client.standardError.contains("size 100000×100000 clamped to"), "\(client.standardError)")
        #expect(!client.standardError.contains("lost connection"), "\(client.standardError)")
        // Every configure that reached the client was acknowledged (Weston's protocol log).
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        let configures = lines.count { $0.contains(" ev xdg_surface@") && $0.contains(".configure(") }
        let acknowledgements = lines.count { $0.contains(".ack_configure(") }
        #expect(configures >= 900, "only \(configures) configures reached the client")
        #expect(acknowledgements == configures)
        #expect(after.descriptors == baseline.descriptors)
        #expect(holdsOnlyCurrentBuffers(after), "the storm's buffers were not all released: \(after)")
        let growth = after.rss - baseline.rss
        #expect(growth < 2 << 20, "resident memory grew by \(growth) bytes: \(baseline) → \(after)")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }

    // MARK: - Soak

    /// The soak's length: `DAMASK_SOAK_SECONDS` (`scripts/soak` sets it), 20 s by default.
    static let soakSeconds = ProcessInfo.processInfo.environment["DAMASK_SOAK_SECONDS"].flatMap(Int.init) ?? 20

    @Test("A soak of continuous animation keeps descriptors, shm buffers and (in long runs) memory constant")
    func soakKeepsResourcesConstant() throws {
        let weston = try PrivateCompositor(.weston())
        let client = try startClient(on: weston)
        client.send("animate")
        // The soak's own durations, not waits for an event: a warm-up before the baseline,
        // then samples spread over the soak.
        let warmUp: UInt32 = Self.soakSeconds >= 120 ? 30 : 3
        sleep(warmUp)
        client.send("trim")
        let start = try ReliabilitySample(of: client)
        let end = Date().addingTimeInterval(TimeInterval(Self.soakSeconds))
        var samples: [ReliabilitySample] = []
        while Date() < end {
            sleep(min(10, max(1, UInt32(Self.soakSeconds / 10))))
            samples.append(try ReliabilitySample(of: client))
        }
        client.send("trim")
        let last = try ReliabilitySample(of: client)
        print("soak: \(Self.soakSeconds) s, \(last.frames - start.frames) frames, rss \(start.rss) → \(last.rss), fds \(start.descriptors) → \(last.descriptors), buffers \(start.buffers) → \(last.buffers)")
        #expect(last.frames - start.frames >= Self.soakSeconds * 5, "the animation stalled: \(start) → \(last)")
        for sample in samples + [last] {
            #expect(sample.descriptors == start.descriptors, "\(start) → \(sample)")
            #expect(sample.buffers == start.buffers, "\(start) → \(sample)")
            #expect(sample.shm == start.shm, "\(start) → \(sample)")
        }
        if Self.soakSeconds >= 120 {
            #expect(last.rss - start.rss < 1 << 20, "resident memory grew by \(last.rss - start.rss) bytes")
        }
        #expect(!client.standardError.contains("damask:"), "\(client.standardError)")
        client.send("quit")
        #expect(client.waitForExit(timeout: 5) == 0)
    }
}

import DamaskGraphics
import DamaskTestSupport
import DamaskWayland
import Foundation
import Testing

/// The test client against `Tests/Hostile/hostile-compositor.c`, a compositor that sends
/// what no real one would: key codes at the end of the range, absurd scales, a keymap of
/// 256 MiB, a repeat rate of INT32_MAX, an event naming an unknown object, a hang-up right
/// after a burst of events. The client must survive each (no signal, bounded memory, still
/// answering configures), or, where the connection is gone, exit 1 with a message within 1 s.
@Suite("Hostile compositor", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct HostileCompositorTests {
    static let testClient = PrivateCompositor.productsDirectory.appendingPathComponent("damask-test-client")

    /// Runs the test client against `scenario` and waits for the compositor's "alive" report
    /// (the client acknowledged a configure sent after the hostile events and committed).
    /// Returns the report's numbers [width, height, largest buffer area] and the client.
    func survive(_ scenario: String, _ arguments: [String] = []) throws -> (numbers: [Int], client: ClientProcess, compositor: HostileCompositor) {
        let compositor = try HostileCompositor(scenario, arguments)
        let client = try ClientProcess(Self.testClient, [], environment: compositor.clientEnvironment)
        let alive = compositor.waitForReport("alive")
        #expect(alive != nil, "no commit after the scenario; client stderr: \(client.standardError); compositor: \(compositor.process.outputLines)")
        #expect(client.process.isRunning, "the client ended: \(client.process.terminationReason) \(client.process.terminationStatus); \(client.standardError)")
        return (alive.map(HostileCompositor.numbers) ?? [], client, compositor)
    }

    /// Waits until the client attached a buffer of `size` pixels (it may commit the
    /// acknowledgement first and redraw at the new scale in the next frame).
    func waitForBuffer(_ size: [Int], on compositor: HostileCompositor) -> Bool {
        compositor.process.waitForLine(timeout: 10) { line in
            (line.hasPrefix("buffer ") || line.hasPrefix("mapped ")) && HostileCompositor.numbers(in: line) == size
        } != nil
    }

    /// Every buffer size the compositor saw (mapped, then each change).
    func bufferSizes(_ compositor: HostileCompositor) -> [[Int]] {
        compositor.process.outputLines
            .filter { $0.hasPrefix("buffer ") || $0.hasPrefix("mapped ") }
            .map(HostileCompositor.numbers)
    }

    /// Quits the client and checks that it ends normally.
    func quit(_ client: ClientProcess, _ compositor: HostileCompositor) {
        // Writing to a client that already ended would raise SIGPIPE in the test runner.
        guard client.process.isRunning else {
            Issue.record("the client ended early: status \(client.process.terminationStatus); \(client.standardError)")
            return
        }
        client.send("quit")
        let status = withExtendedLifetime(compositor) { client.waitForExit(timeout: 10) }
        #expect(status == 0, "\(client.standardError)")
        #expect(client.process.terminationReason == .exit, "ended by a signal")
        #expect(!client.standardError.contains("Fatal error"), "\(client.standardError)")
    }

    static let mebibyte = 1 << 20

    /// `client`'s stderr once it contains `text` (its pipe is read asynchronously, so the
    /// last line can arrive just after the exit), or what it holds after `timeout`.
    func standardError(of client: ClientProcess, containing text: String, timeout: TimeInterval = 2) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while !client.standardError.contains(text) && Date() < deadline { usleep(5_000) }
        return client.standardError
    }

    // MARK: - Text input (issue 29)

    @Test("A compositor that never answers frame callbacks: a script's wait fails after --timeout, naming the callback it waits for")
    func unansweredFrameCallbackIsNamed() throws {
        let compositor = try HostileCompositor("no-frames")
        let run = try DemoRun.run(
            ["--speed", "fast", "--timeout", "1"], script: "wait frames 1\n", environment: compositor.clientEnvironment)
        defer { run.removeDirectory() }
        #expect(run.status == 1, "\(run.output)")
        // The first present (commit 2, after the bare commit that asked for a configure)
        // carries the callback.
        let expected = #/script\.damask:1:1: error: timed out after 1\.0 seconds waiting for a frame \(frames presented: 1, display passes: 1; a frame callback asked for (\d+) ms ago, sent with commit 2, unanswered; commits: 2, a buffer presented\)/#
        let match = try #require(run.output.firstMatch(of: expected), "\(run.output)")
        #expect(Int(match.1).map { $0 >= 1000 && $0 < 10_000 } == true, "\(run.output)")
    }

    @Test("An input method over zwp_text_input_v3: updates applied at done (a stale serial too), a commit that is not UTF-8 rejected whole, events after disable dropped")
    func textInputV3() throws {
        let compositor = try HostileCompositor("text-input-v3")
        let client = try ClientProcess(Self.testClient, [], environment: compositor.clientEnvironment)
        try #require(compositor.waitForReport("focused") != nil, "\(compositor.process.outputLines) \(client.standardError)")
        client.send("text-input on")
        try #require(
            compositor.waitForReport("composed") != nil,
            "client: \(client.outputLines) compositor: \(compositor.process.outputLines)")
        let texts = client.outputLines.filter { $0.hasPrefix("text ") }
        // 하 (preedit) → 한 (commit) → 한ㄱ (preedit at a stale done) → 한글: the update
        // that was not UTF-8 changed nothing (the preedit ㄱ stayed until 글 replaced it).
        #expect(texts == ["text 하", "text 한", "text 한ㄱ", "text 한글"], "\(texts)")
        let commits = compositor.process.outputLines.filter { $0.hasPrefix("commit ") && $0.contains("enabled 1") }
        #expect(commits.contains { $0.hasSuffix("surrounding \"한글\" 6 6") }, "\(commits)")
        #expect(commits.contains { $0.hasSuffix("surrounding \"한\" 3 3") }, "the preedit is not surrounding text: \(commits)")

        client.send("text-input off")
        try #require(compositor.waitForReport("sent after disable") != nil, "\(compositor.process.outputLines)")
        // The client acknowledged a configure sent after the late events: it has read them.
        #expect(compositor.waitForReport("alive") != nil, "\(compositor.process.outputLines)")
        let after = client.outputLines.filter { $0.hasPrefix("text ") }
        #expect(after == texts, "events after disable were applied: \(after)")
        quit(client, compositor)
    }

    // MARK: - High-resolution wheel (issue 31)

    @Test("wl_seat version 8: eight axis_value120 eighths scroll a ScrollView one detent in eighths, damage only it, move its pixels right, and make one discrete step")
    func highResolutionWheel() throws {
        let compositor = try HostileCompositor("wheel-v120", ["50", "150"])
        let client = try ClientProcess(Self.testClient, ["--scroll-view"], environment: compositor.clientEnvironment)
        try #require(compositor.waitForReport("eighths") != nil, "\(compositor.process.outputLines) \(client.standardError)")
        // Over the scroll view (x 50): 40 points a detent, so 5 points an eighth.
        let last = client.waitForLine(timeout: 10) { $0 == "offset 0.0 40.0" }
        try #require(last != nil, "\(client.outputLines)")
        let lines = client.outputLines
        let offsets = lines.filter { $0.hasPrefix("offset ") }
        #expect(offsets == (1...8).map { "offset 0.0 \(Double($0 * 5))" }, "\(offsets)")
        // The commit that shows the scroll damages the scroll view's 100×150 points, no more.
        let lastOffset = try #require(lines.lastIndex { $0.hasPrefix("offset ") })
        let commit = try #require(client.waitForLine(skipping: lastOffset) { $0.hasPrefix("commit ") })
        #expect(commit.split(separator: " ").dropFirst(2) == ["0,0,100,150"], "\(commit)")

        // Over the plain view (x 150): one discrete step per whole detent, each fraction as
        // steps; the reversal after 7/8 starts from zero and steps back at a whole detent.
        try #require(compositor.waitForReport("alive") != nil, "\(compositor.process.outputLines) \(client.standardError)")
        let wheelCount = 8 + 7 + 3
        #expect(client.waitForLines(count: wheelCount, prefix: "wheel "), "\(client.outputLines)")
        let scrolls = client.outputLines.filter { $0.hasPrefix("scroll ") }.map { $0.split(separator: " ") }
        let wheels = client.outputLines.filter { $0.hasPrefix("wheel ") }
        #expect(scrolls.map { $0.count == 5 ? String($0[4]) : "?" } == Array(repeating: "0", count: 7) + ["1"] + Array(repeating: "0", count: 9) + ["-1"], "\(scrolls)")
        #expect(wheels == Array(repeating: "wheel 0 15", count: 15) + Array(repeating: "wheel 0 -40", count: 3), "\(wheels)")
        let firstDistance = scrolls.first.flatMap { $0.count == 5 ? Double($0[2]) : nil }
        #expect(firstDistance == 1.25, "the smooth distance arrives too: \(scrolls.first ?? [])")

        // The moved pixels equal a fresh draw, and the top row shows content y 40 (band 8).
        let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-wheel-snapshot.png").path
        let render = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-wheel-render.png").path
        defer {
            try? FileManager.default.removeItem(atPath: snapshot)
            try? FileManager.default.removeItem(atPath: render)
        }
        client.send("snapshot \(snapshot)")
        client.send("render \(render)")
        _ = try #require(client.waitForLine { $0 == "wrote \(render)" }, "\(client.outputLines)")
        let presented = try Bitmap(contentsOfPNGFile: snapshot)
        let fresh = try Bitmap(contentsOfPNGFile: render)
        #expect(Bitmap.difference(presented, fresh, tolerance: 0).differingPixelCount == 0)
        let band8 = 0xFF3C_B44B as UInt32  // BandedScrollView.colors[8 % 7]
        #expect(presented.pixel(x: 10, y: 0) == band8, "\(String(presented.pixel(x: 10, y: 0), radix: 16))")
        #expect(presented.pixel(x: 10, y: 4) == band8)
        #expect(presented.pixel(x: 10, y: 5) != band8, "band 9 starts 5 points lower")
        quit(client, compositor)
    }

    // MARK: - Key codes (rows 1 and 2)

    @Test("wl_keyboard.key with codes 0xFFFFFFF7…0xFFFFFFFF after a valid keymap is dropped, not a trap")
    func keyCodeAtTheEndOfTheRangeIsDropped() throws {
        let (numbers, client, compositor) = try survive("key-code")
        #expect(numbers.count == 3)
        #expect(!client.outputLines.contains { $0.hasPrefix("key down") }, "a key with no xkb keycode reached the view")
        quit(client, compositor)
    }

    @Test("wl_keyboard.enter whose keys array holds 0xFFFFFFFF is survived without a keymap")
    func enterWithKeyCodeAtTheEndOfTheRangeIsSurvived() throws {
        let (_, client, compositor) = try survive("enter-keys")
        #expect(client.waitForLine(timeout: 5) { $0 == "focus 1" } != nil, "focus arrives")
        quit(client, compositor)
    }

    // MARK: - Scales (rows 3 and 11)

    @Test(
        "An output scale raised after mapping keeps every buffer within the 33.2 Mpx cap, at most scale 8",
        arguments: [
            (["8", "3840x2160"], nil), (["3", "3840x2160"], nil),
            (["32"], [1600, 1200]), (["1000"], [1600, 1200]),
        ] as [([String], [Int]?)])
    func raisedOutputScaleStaysWithinTheCap(arguments: [String], expectedSize: [Int]?) throws {
        let (_, client, compositor) = try survive("scale-raise", arguments)
        if let expectedSize {
            // The 200×150 window at the clamped scale 8, not a 5×5-point window.
            #expect(waitForBuffer(expectedSize, on: compositor), "\(bufferSizes(compositor))")
        } else {
            // Some redraw at the raised scale (the size then depends on the cap).
            _ = compositor.process.waitForLine(timeout: 10) { $0.hasPrefix("buffer ") }
        }
        let peak = HostileCompositor.peakResidentBytes(of: client.process.processIdentifier)
        #expect(peak < 1024 * Self.mebibyte, "peak RSS \(peak / Self.mebibyte) MiB")
        quit(client, compositor)
        let sizes = bufferSizes(compositor)
        #expect(sizes.count >= 2, "the client redrew after the scale change: \(sizes)")
        for size in sizes where size.count == 2 {
            #expect(size[0] * size[1] <= WaylandSurface.maximumPixelCount, "a \(size[0])×\(size[1]) buffer")
            #expect(size[0] <= WaylandSurface.maximumPixelDimension && size[1] <= WaylandSurface.maximumPixelDimension)
        }
    }

    @Test(
        "preferred_scale 0xFFFFFFFF, 7680 and 0 give a buffer at scale 8, 8 and 1 (0 is ignored)",
        arguments: [("4294967295", [1600, 1200]), ("7680", [1600, 1200]), ("0", [200, 150])])
    func hostilePreferredScaleIsClamped(value: String, expectedSize: [Int]) throws {
        let (_, client, compositor) = try survive("preferred-scale", [value])
        if expectedSize == [200, 150] {
            // Nothing changes: the last buffer stays the one mapped, never a 1×1 one.
            quit(client, compositor)
            #expect(bufferSizes(compositor) == [expectedSize])
        } else {
            #expect(waitForBuffer(expectedSize, on: compositor), "\(bufferSizes(compositor))")
            quit(client, compositor)
        }
    }

    @Test("Output scale 1000 at bind: the window keeps its size at scale 8, first frame within 5 s, bounded memory")
    func outputScale1000AtBindIsClamped() throws {
        let started = Date()
        let (numbers, client, compositor) = try survive("scale-at-bind", ["1000"])
        let mapped = try #require(compositor.waitForReport("mapped"))
        #expect(HostileCompositor.numbers(in: mapped) == [1600, 1200], "\(mapped)")
        #expect(Date().timeIntervalSince(started) < WallClockBound.seconds(5))
        #expect(Array(numbers.prefix(2)) == [1600, 1200], "nothing changes after the first frame")
        let peak = HostileCompositor.peakResidentBytes(of: client.process.processIdentifier)
        #expect(peak < 300 * Self.mebibyte, "peak RSS \(peak / Self.mebibyte) MiB")
        quit(client, compositor)
    }

    @Test("An output unplugged under the window (global_remove of the wl_output it entered) is released: the window falls back to scale 1 and goes on")
    func unpluggedOutputIsForgotten() throws {
        let (_, client, compositor) = try survive("output-unplug", ["2"])
        #expect(bufferSizes(compositor).first == [400, 300], "mapped at the output's scale 2: \(bufferSizes(compositor))")
        #expect(compositor.process.outputLines.contains("unplugged"))
        #expect(waitForBuffer([200, 150], on: compositor), "redrawn at scale 1 without the output: \(bufferSizes(compositor))")
        quit(client, compositor)
    }

    @Test("2,000 output scale changes ending at 1000 are survived with bounded memory")
    func scaleStormIsSurvived() throws {
        let (_, client, compositor) = try survive("scale-storm", ["2000", "1000"])
        #expect(waitForBuffer([1600, 1200], on: compositor), "the final scale, clamped to 8: \(bufferSizes(compositor))")
        let peak = HostileCompositor.peakResidentBytes(of: client.process.processIdentifier)
        #expect(peak < 400 * Self.mebibyte, "peak RSS \(peak / Self.mebibyte) MiB")
        quit(client, compositor)
    }

    // MARK: - Keymap size (row 12) and repeat rate (row 13)

    @Test("A 256 MiB keymap is refused at once with a message naming the limit; the client runs on")
    func hugeKeymapIsRefused() throws {
        let started = Date()
        let (_, client, compositor) = try survive("huge-keymap", ["256"])
        #expect(Date().timeIntervalSince(started) < WallClockBound.seconds(10))
        let message = standardError(of: client, containing: "keymap is")
        #expect(message.contains("keymap is 268435456 bytes, more than the limit"), "\(message)")
        #expect(client.standardError.contains("the keyboard is ignored"))
        quit(client, compositor)
    }

    @Test("repeat_info rate INT32_MAX with a key held repeats at most at the maximum rate, without spinning")
    func hostileRepeatRateIsClamped() throws {
        let (_, client, compositor) = try survive("repeat-rate")
        let pid = client.process.processIdentifier
        _ = client.waitForLine(timeout: 5) { $0.contains("repeat=1") }
        let repeatsBefore = client.outputLines.count { $0.contains("repeat=1") }
        let cpuBefore = ReliabilityTests.cpuSeconds(of: pid)
        let wallBefore = Date()
        sleep(2)  // the observation window itself: repeats and CPU over 2 s
        let cpu = ReliabilityTests.cpuSeconds(of: pid) - cpuBefore
        let wall = Date().timeIntervalSince(wallBefore)
        let repeats = client.outputLines.count { $0.contains("repeat=1") } - repeatsBefore
        #expect(repeats > 0, "the held key repeats")
        #expect(Double(repeats) <= wall * Double(200) * 1.2 + 5, "\(repeats) repeats in \(wall) s")
        #expect(cpu < 0.5 * wall, "\(cpu) s of CPU in \(wall) s")
        quit(client, compositor)
    }

    // MARK: - The connection goes away (rows 4 and 15)

    /// Waits for the compositor's `report` (it has done its harm), then for `client` to end
    /// with exit status 1 (an exit, not a signal) within 1 s of it; returns the client's
    /// stderr once it mentions `text`.
    func expectExitAfter(
        _ report: String, from compositor: HostileCompositor, of client: ClientProcess, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        _ = try #require(compositor.waitForReport(report), "\(client.standardError)", sourceLocation: sourceLocation)
        let reported = Date()
        let status = client.waitForExit(timeout: WallClockBound.seconds(5))
        #expect(Date().timeIntervalSince(reported) < WallClockBound.seconds(1), sourceLocation: sourceLocation)
        #expect(status == 1, sourceLocation: sourceLocation)
        #expect(client.process.terminationReason == .exit, sourceLocation: sourceLocation)
        return standardError(of: client, containing: text)
    }

    @Test("The compositor sends events and closes the connection: exit 1 with a message within 1 s", arguments: [1, 2000])
    func hangUpAfterEventsEndsTheClient(events: Int) throws {
        let compositor = try HostileCompositor("hangup", ["\(events)"])
        let client = try ClientProcess(Self.testClient, [], environment: compositor.clientEnvironment)
        let message = try expectExitAfter("hangup", from: compositor, of: client, mentioning: "lost connection")
        #expect(message.contains("lost connection to the compositor (the compositor closed the connection)"), "\(message)")
    }

    @Test("An event naming an unknown object: libwayland's explanation is passed on, exit 1 within 1 s")
    func unknownObjectIsExplained() throws {
        let compositor = try HostileCompositor("unknown-object")
        let client = try ClientProcess(Self.testClient, [], environment: compositor.clientEnvironment)
        let message = try expectExitAfter("sent", from: compositor, of: client, mentioning: "unknown object")
        #expect(message.contains("lost connection to the compositor (unknown object"), "\(message)")
        #expect(message.contains("enter"), "the message names the event: \(message)")
    }

    // MARK: - WAYLAND_SOCKET (row 15)

    @Test("WAYLAND_SOCKET=abc is named as what was tried, with a reason, exit 2")
    func badWaylandSocketIsNamed() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_SOCKET"] = "abc"
        let result = try PrivateCompositor.run(Self.testClient.path, [], environment: environment, timeout: 20)
        #expect(result.status == 2)
        #expect(result.output.contains("cannot connect to a Wayland compositor at WAYLAND_SOCKET=abc: not a file descriptor number"), "\(result.output)")
        #expect(!result.output.contains("Success"))
    }

    // MARK: - Protocol versions

    @Test(
        "A removed seat's wl_data_device is released only when the manager's version has release (2+), else dropped locally",
        arguments: [1, 2, 3])
    func dataDeviceReleaseFollowsTheManagerVersion(version: Int) throws {
        let (_, client, compositor) = try survive("data-device", ["\(version)"])
        // The release (if any) was sent before the commit that made the compositor report
        // "alive", and the compositor reads requests in order.
        let released = compositor.process.outputLines.contains("data device released")
        #expect(released == (version >= 2), "version \(version): \(compositor.process.outputLines)")
        quit(client, compositor)
    }
}

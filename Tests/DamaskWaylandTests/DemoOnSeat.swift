import DamaskGraphics
import Foundation
import Testing

/// `damask-demo` under Weston nested in a private Xvfb, driven by real X input (`xdotool`).
///
/// Every input is waited for where it lands, never for a fixed time: the pointer and key
/// events in Weston's protocol log, and the demo's answer in its damage log (one line per
/// commit, `--damage-log`).
///
/// Owns the compositor and the demo's ``TestProcess`` (the demo is stopped first, in
/// ``quit()`` or `deinit`). The X server and the directory are the caller's when passed in;
/// otherwise this object creates them and stops or removes them in `deinit`. Use from one
/// test.
final class DemoOnSeat {
    let display: XvfbDisplay
    let weston: PrivateCompositor
    /// A private directory for screenshots and logs.
    let directory: String
    let process: TestProcess
    /// The content area's top-left in X screen (= Weston output) coordinates.
    private(set) var origin = (x: 0, y: 0)
    private let damageLog: String
    private let ownsDisplay: Bool
    private let ownsDirectory: Bool

    /// The sidebar's colour (#2B3342): its top-left corner is the content area's.
    static let sidebarColor: UInt32 = 0x2B3342

    /// Starts Weston (1024×768, nested in `display` or in a new Xvfb with a US layout) and
    /// the demo with `arguments` (and `environment` added to the compositor's client
    /// environment), waits for its first commit and finds its content area.
    init(
        arguments: [String], display: XvfbDisplay? = nil, directory: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        self.display = try display ?? XvfbDisplay(layout: "us")
        ownsDisplay = display == nil
        self.directory = try directory ?? DemoRun.makeDirectory()
        ownsDirectory = directory == nil
        weston = try PrivateCompositor(.westonX11(display: self.display.name, size: "1024x768"))
        damageLog = (self.directory as NSString).appendingPathComponent("seat-damage-\(UUID().uuidString).jsonl")
        process = try TestProcess(
            DemoRun.executable, arguments + ["--damage-log", damageLog],
            environment: DemoRun.environment(weston.clientEnvironment.merging(environment) { $1 }))
        // Mapped: the first frame is committed.
        try #require(waitForCommits(beyond: 0), "the demo never committed: \(process.transcript)")
        origin = try #require(try locateContent(), "the demo's content area is not on the screen")
    }

    deinit {
        if process.isRunning { process.kill(grace: 5) }
        weston.stop()
        if ownsDisplay { display.stop() }
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The commits in the damage log so far.
    var commitCount: Int {
        ((try? String(contentsOfFile: damageLog, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// The damage rects (`[x, y, w, h]`, buffer pixels) of each commit after the first
    /// `count`, in order.
    func damage(ofCommitsAfter count: Int) -> [[[Int]]] {
        let lines = ((try? String(contentsOfFile: damageLog, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.dropFirst(count).map { line in
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let rects = object["damage"] as? [[Int]]
            else { return [] }
            return rects
        }
    }

    /// Waits until the damage log has more than `count` commits.
    func waitForCommits(beyond count: Int, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while commitCount <= count && Date() < deadline && process.isRunning { usleep(10_000) }
        return commitCount > count
    }

    /// Moves the pointer to X screen point (x, y), which must differ from where it is;
    /// returns once Weston has sent the motion (or enter/leave) to a client.
    func move(toScreen x: Int, _ y: Int) throws {
        try display.movePointer(to: x, y, seenBy: weston)
    }

    /// Moves the pointer to content point (x, y).
    func move(to x: Int, _ y: Int) throws {
        try move(toScreen: origin.x + x, origin.y + y)
    }

    /// Clicks button 1 where the pointer is; returns once Weston has sent the press and
    /// the release and the demo has committed its answer.
    func click() throws {
        let (buttons, commits) = (weston.logLines(containing: ".button(").count, commitCount)
        try display.xdotool("click", "1")
        let sent = weston.waitForLogLines(containing: ".button(") { $0.count >= buttons + 2 }
        try #require(sent.count >= buttons + 2, "Weston did not send the click")
        try #require(waitForCommits(beyond: commits), "the demo did not answer the click")
    }

    /// The key events Weston has sent so far.
    private var keyEventCount: Int {
        weston.logLines(containing: "wl_keyboard@").count { $0.contains(".key(") }
    }

    /// Types `keys` (xdotool key names, each pressed and released in turn); returns once
    /// Weston has sent every press and release and the demo has committed its answer.
    func press(_ keys: String...) throws {
        let (before, commits) = (keyEventCount, commitCount)
        try display.run("xdotool", ["key", "--delay", "60"] + keys)
        let deadline = Date().addingTimeInterval(10)
        while keyEventCount < before + 2 * keys.count && Date() < deadline { usleep(10_000) }
        try #require(keyEventCount >= before + 2 * keys.count, "Weston did not send the keys \(keys)")
        try #require(waitForCommits(beyond: commits), "the demo did not answer \(keys)")
    }

    /// Ends the demo as a user's SIGTERM would (it writes a recording); its status.
    func quit() -> Int32? {
        process.signalGroup(SIGTERM)
        return process.waitForExit(timeout: 20)
    }

    /// Takes a screenshot of the whole output.
    func screenshot() throws -> Bitmap {
        let path = (directory as NSString).appendingPathComponent("screen-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try weston.screenshot(to: path)
        return try Bitmap(contentsOfPNGFile: path)
    }

    /// Waits (up to 20 s) until the screen at content point `point` is `color` (±8 a
    /// channel); returns the last colour seen.
    func waitForColor(_ color: UInt32, at point: (x: Int, y: Int)) -> UInt32? {
        let deadline = Date().addingTimeInterval(20)
        var last: UInt32?
        repeat {
            if let bitmap = try? screenshot() {
                let pixel = bitmap.pixel(x: origin.x + point.x, y: origin.y + point.y) & 0xFF_FFFF
                last = pixel
                if Self.isClose(pixel, color) { return pixel }
            }
            usleep(50_000)
        } while Date() < deadline
        return last
    }

    /// Whether two 0xRRGGBB colours are within 8 a channel.
    static func isClose(_ a: UInt32, _ b: UInt32) -> Bool {
        [0, 8, 16].allSatisfy { (shift: UInt32) in abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) <= 8 }
    }

    /// The 800×600 content area's pixels on `screen`.
    func content(of screen: Bitmap) throws -> Bitmap {
        let part = try Bitmap(width: 800, height: 600)
        for row in 0..<600 {
            for column in 0..<800 {
                part.setPixel(x: column, y: row, to: screen.pixel(x: origin.x + column, y: origin.y + row) | 0xFF00_0000)
            }
        }
        return part
    }

    /// The content area's top-left, found on screenshots (the sidebar's first pixel) once
    /// the window is on the screen (mapped and composited) and `accept` takes it, within
    /// 20 s.
    private func locateContent(where accept: ((x: Int, y: Int)) -> Bool = { _ in true }) throws -> (x: Int, y: Int)? {
        let deadline = Date().addingTimeInterval(20)
        repeat {
            if let bitmap = try? screenshot(), let found = Self.sidebarOrigin(in: bitmap), accept(found) {
                return found
            }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// The first pixel of the sidebar's colour on `bitmap`, row by row.
    private static func sidebarOrigin(in bitmap: Bitmap) -> (x: Int, y: Int)? {
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == sidebarColor {
                return (x, y)
            }
        }
        return nil
    }

    /// Finds the content area again after the window moved (a drag, a maximize): waits
    /// (up to 20 s) until the sidebar's top-left is on screen where `accept` takes it.
    func relocate(where accept: ((x: Int, y: Int)) -> Bool) throws {
        origin = try #require(try locateContent(where: accept), "the content area is not where expected (was at \(origin))")
    }
}

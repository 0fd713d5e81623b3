import DamaskTestSupport
import Foundation
import Testing

/// Real input from X (xdotool) through Weston's x11 backend into the test client's views.
@Suite("Input from a real seat (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(5)))
struct InputTests {
    @Test("A click on a view reaches its pointerDown and pointerUp with view coordinates")
    func clickReachesView() throws {
        let session = try NestedWestonSession()
        let before = session.client.lines.count
        try session.click(at: 50, 40)
        let down = session.client.waitForLine(from: before, where: { $0.hasPrefix("pointer down") })
        #expect(down?.line == "pointer down 50 40 left 1")
        let up = session.client.waitForLine(from: before, where: { $0.hasPrefix("pointer up") })
        #expect(up?.line == "pointer up 50 40 left 0")
    }

    @Test("A second click in quick succession counts as a double click")
    func doubleClickCounts() throws {
        let session = try NestedWestonSession()
        try session.move(to: 60, 60)
        let before = session.client.lines.count
        try session.display.xdotool("click", "--repeat", "2", "--delay", "80", "1")
        // Each press is waited for after the one before it: two distinct lines.
        let first = try #require(session.client.waitForLine(from: before, where: { $0.hasPrefix("pointer down") }))
        let second = try #require(
            session.client.waitForLine(from: first.index + 1, where: { $0.hasPrefix("pointer down") }),
            "only one press arrived: \(session.client.lines[before...])")
        #expect([first.line, second.line] == ["pointer down 60 60 left 1", "pointer down 60 60 left 2"])
        _ = session.client.waitForLine(from: second.index + 1, where: { $0.hasPrefix("pointer up") })
        let lines = session.client.lines[before...].filter { $0.hasPrefix("pointer down") }
        #expect(lines.count == 2, "\(lines)")
    }

    @Test("Typed text reaches the focused view through the compositor's xkb keymap")
    func typedTextReachesFirstResponder() throws {
        let session = try NestedWestonSession()
        try session.click(at: 30, 30)
        #expect(session.client.waitForLine(where: { $0 == "focus 1" }) != nil)
        let before = session.client.lines.count
        try session.display.xdotool("type", "--delay", "40", "Damask ü")
        _ = session.client.waitForLine(from: before, where: { $0.hasPrefix("key up fc") })
        let text = session.client.lines[before...]
            .filter { $0.hasPrefix("key down") }
            .compactMap { line in line.range(of: " text=").map { String(line[$0.upperBound...]) } }
            .joined()
        // Wait for the last key's line before comparing (it may lag the release).
        #expect(text == "Damask ü")
    }

    @Test("Holding a key repeats at the advertised rate and stops on release")
    func heldKeyRepeatsAndStops() throws {
        let session = try NestedWestonSession()
        try session.click(at: 30, 30)
        #expect(session.client.waitForLine(where: { $0 == "focus 1" }) != nil)
        let before = session.client.lines.count
        // The hold itself is the behaviour under test (1.2 s of repeats), not a wait.
        try session.display.xdotool("keydown", "a", "sleep", "1.2", "keyup", "a")
        let release = try #require(session.client.waitForLine(from: before, where: { $0.hasPrefix("key up 61") }))
        // A marker key after the release: a repeat the release failed to stop would be
        // printed before the marker's own lines.
        try session.display.xdotool("key", "b")
        _ = try #require(session.client.waitForLine(from: release.index, where: { $0.hasPrefix("key up 62") }))
        let lines = session.client.lines
        let press = try #require(lines[before..<release.index].firstIndex { $0.hasPrefix("key down 61 repeat=0") })
        let repeats = lines[press..<release.index].filter { $0.hasPrefix("key down 61 repeat=1") }
        let times = repeats.compactMap(Self.milliseconds)
        let pressTime = try #require(Self.milliseconds(lines[press]))
        // Weston advertises 40 per second after 400 ms: about 32 repeats in 1.2 s.
        #expect(repeats.count >= 16 && repeats.count <= 40, "got \(repeats.count) repeats")
        // Every repeat line carries its time; none may lack one.
        #expect(times.count == repeats.count, "repeat lines without ms=: \(repeats)")
        let first = try #require(times.first, "no repeat arrived")
        #expect(first - pressTime >= 350, "first repeat after \(first - pressTime) ms")
        try #require(times.count >= 3, "\(times.count) timed repeats")
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = intervals[intervals.count / 2]
        #expect(median >= 15 && median <= 40, "median interval \(median) ms")
        let afterRelease = lines[release.index...].filter { $0.hasPrefix("key down 61") }
        #expect(afterRelease.isEmpty, "repeats after release: \(afterRelease)")
    }

    @Test("A wheel click reaches the view as one discrete scroll step")
    func wheelScrollsOneStep() throws {
        let session = try NestedWestonSession()
        try session.move(to: 40, 40)
        let before = session.client.lines.count
        try session.display.xdotool("click", "5")
        let line = session.client.waitForLine(from: before, where: { $0.hasPrefix("scroll ") })
        let fields = line?.line.split(separator: " ") ?? []
        #expect(fields.count == 5)
        #expect(fields.last == "1")
        #expect((Double(fields.count > 2 ? fields[2] : "") ?? 0) > 0)
    }

    private static func milliseconds(_ line: String) -> Int? {
        guard let range = line.range(of: " ms=") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}

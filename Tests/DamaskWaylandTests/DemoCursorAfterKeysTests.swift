import DamaskTestSupport
import Foundation
import Testing

/// The pointer's cursor follows what is under it when a key, not the pointer, changes the
/// view there: a scene switch by key under a still pointer (Weston on Xvfb, xdotool).
@Suite("Cursor after a keyboard scene switch (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoCursorAfterKeysTests {
    /// The hotspot of a `set_cursor(serial, surface, x, y)` request line.
    static func hotspot(_ line: String) -> [Int] {
        guard let open = line.range(of: "set_cursor(") else { return [] }
        return line[open.upperBound...].prefix { $0 != ")" }.split(separator: ",").suffix(2)
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("With the pointer over the text field (I-beam), key 3 shows the paths scene and the arrow")
    func iBeamGoesWithTheField() throws {
        let seat = try DemoOnSeat(arguments: ["--scene", "text"])
        let cursors = { seat.weston.logLines(containing: "set_cursor(") }
        try seat.move(toScreen: 0, 0)
        // The sidebar (an arrow), then the field (an I-beam).
        var before = cursors().count
        try seat.move(to: 100, 500)
        let arrow = try #require(seat.weston.waitForLogLines(containing: "set_cursor(") { $0.count > before }.last.map(Self.hotspot))
        before = cursors().count
        try seat.move(to: 300, 180)
        let iBeam = try #require(seat.weston.waitForLogLines(containing: "set_cursor(") { $0.count > before }.last.map(Self.hotspot))
        try #require(arrow != iBeam, "the theme's arrow and I-beam share a hotspot (\(arrow)): the test cannot tell them apart")
        before = cursors().count
        try seat.press("3")
        let after = seat.weston.waitForLogLines(containing: "set_cursor(") { $0.count > before }
        #expect(after.count > before, "no cursor change after the scene switch")
        #expect(after.last.map(Self.hotspot) == arrow, "\(after.suffix(2))")
        #expect(seat.quit() == 0)
    }
}

import DamaskTestSupport
import Foundation
import Testing

/// Maximize and restore under Weston on Xvfb, with real X input on the title bar.
@Suite("Maximize and restore (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct MaximizeRestoreTests {
    /// The window geometry a request line in Weston's protocol log names.
    static func geometry(_ line: String) -> [Int] {
        guard let open = line.range(of: "set_window_geometry(") else { return [] }
        return line[open.upperBound...].prefix { $0 != ")" }.split(separator: ",")
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Waits until the last `set_window_geometry` satisfies `predicate`.
    static func waitForGeometry(_ session: NestedWestonSession, where predicate: ([Int]) -> Bool) -> [Int]? {
        let lines = session.compositor.waitForLogLines(containing: "set_window_geometry(") {
            $0.last.map(geometry).map(predicate) == true
        }
        return lines.last.map(geometry).flatMap { predicate($0) ? $0 : nil }
    }

    @Test("Restoring after maximize (Weston's 0×0 configure) brings back the size before maximizing")
    func restoreAfterMaximize() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        let shadow = DecorationTests.Layout.shadow
        let floating = [shadow, shadow, 200, 150 + 32]
        #expect(Self.waitForGeometry(session) { $0 == floating } != nil)

        // Maximize by double-clicking the title bar.
        try session.move(to: 60, DecorationTests.Layout.titleBarMiddle)
        var before = session.client.lines.count
        try session.display.xdotool("click", "--repeat", "2", "--delay", "120", "1")
        #expect(session.client.waitForLine(from: before, where: { $0.hasPrefix("states ") && $0.contains("maximized") }) != nil,
            "\(session.client.lines.suffix(8))")
        let output = NestedWestonSession.outputSize
        #expect(Self.waitForGeometry(session) { $0 == [0, 0, output.width, output.height] } != nil,
            "\(session.compositor.logLines(containing: "set_window_geometry(").suffix(3))")

        // Restore by double-clicking the maximized title bar (at the top of the output).
        try session.display.movePointer(to: 300, 16, seenBy: session.compositor)
        before = session.client.lines.count
        try session.display.xdotool("click", "--repeat", "2", "--delay", "120", "1")
        #expect(session.client.waitForLine(from: before, where: { $0.hasPrefix("states ") && !$0.contains("maximized") }) != nil,
            "\(session.client.lines.suffix(8))")
        let restored = Self.waitForGeometry(session) { $0 == floating }
        #expect(restored != nil, "\(session.compositor.logLines(containing: "set_window_geometry(").suffix(3))")
        // Weston let the client choose: the configure that restored the window was 0×0.
        let configures = session.compositor.logLines(containing: ".configure(").filter { $0.contains("ev xdg_toplevel@") }
        #expect(configures.last?.contains(".configure(0, 0,") == true, "\(configures.suffix(3))")
    }
}

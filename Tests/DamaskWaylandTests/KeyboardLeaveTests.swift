import DamaskTestSupport
import Foundation
import Testing

/// Keys held when the window loses keyboard focus are released for its views: Weston on
/// Xvfb sends `wl_keyboard.leave` when its X window loses the X focus, and the release
/// itself then never reaches the client.
@Suite("Held keys on keyboard leave (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct KeyboardLeaveTests {
    @Test("A key held while focus leaves gets its release, before the focus loss")
    func heldKeyIsReleasedOnLeave() throws {
        let session = try NestedWestonSession()
        try session.click(at: 30, 30)
        #expect(session.client.waitForLine(where: { $0 == "focus 1" }) != nil)
        let before = session.client.lines.count
        try session.display.xdotool("keydown", "a")
        #expect(session.client.waitForLine(from: before, where: { $0.hasPrefix("key down 61") }) != nil)
        // The X focus goes to the root window: Weston's window loses it.
        try session.display.run("xdotool", ["search", "--maxdepth", "0", "--name", "", "windowfocus", "--sync"])
        let lost = try #require(session.client.waitForLine(from: before, where: { $0 == "focus 0" }), "\(session.client.lines.suffix(6))")
        let release = session.client.lines[before..<lost.index].lastIndex { $0.hasPrefix("key up 61") }
        #expect(release != nil, "no release of a before the focus loss: \(session.client.lines[before...].suffix(8))")
        try session.display.xdotool("keyup", "a")
    }
}

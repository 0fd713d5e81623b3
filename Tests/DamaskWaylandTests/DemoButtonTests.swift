import DamaskTestSupport
import Foundation
import Testing

/// The demo's buttons under a real seat (Weston nested in Xvfb, xdotool): hover and pressed
/// states are drawn, and each state change damages exactly the button.
@Suite("Demo buttons: hover and pressed states (real seat)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoButtonTests {
    /// The content area's offset in the decorated window's buffer at scale 1: the shadow
    /// (12) on the left, shadow and title bar (12 + 32) on top.
    static let contentOffset = (x: 12, y: 44)
    /// The progress scene's "+ 5%" button, in content points.
    static let plusButton = [314, 112, 100, 30]
    /// The button face colours (DemoStyle): normal, hovered, pressed.
    static let (face, hovered, pressed): (UInt32, UInt32, UInt32) = (0x4278D9, 0x5C91ED, 0x2B54A6)

    /// Waits for the demo to commit after `count` commits and returns every commit's damage
    /// since then, once a commit has been seen.
    func damageAfter(_ demo: DemoOnSeat, _ count: Int) throws -> [[[Int]]] {
        try #require(demo.waitForCommits(beyond: count), "no commit after the input")
        return demo.damage(ofCommitsAfter: count)
    }

    /// `rect` (content points) in buffer pixels.
    static func buffer(_ rect: [Int]) -> [Int] {
        [rect[0] + contentOffset.x, rect[1] + contentOffset.y, rect[2], rect[3]]
    }

    @Test("A content button lights up under the pointer, darkens while pressed, and each change damages only the button")
    func contentButtonStates() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "progress"])
        try demo.move(toScreen: 0, 0)
        let button = Self.buffer(Self.plusButton)
        let facePoint = (x: Self.plusButton[0] + 8, y: Self.plusButton[1] + 6)
        // The bar's fill ends at content x 344 (25 %); a step moves it to 372.
        let barPoint = (x: 358, y: 170)
        #expect(demo.waitForColor(0xAAAAAA, at: barPoint).map { DemoOnSeat.isClose($0, 0xAAAAAA) } == true)

        // Hover.
        var count = demo.commitCount
        try demo.move(to: 364, 127)
        #expect(try damageAfter(demo, count) == [[button]], "hover damages the button only")
        var seen = demo.waitForColor(Self.hovered, at: facePoint)
        #expect(seen.map { DemoOnSeat.isClose($0, Self.hovered) } == true, "hovered face: \(seen.map { String($0, radix: 16) } ?? "none")")

        // Press and hold.
        count = demo.commitCount
        try demo.display.xdotool("mousedown", "1")
        #expect(try damageAfter(demo, count) == [[button]], "pressing damages the button only")
        seen = demo.waitForColor(Self.pressed, at: facePoint)
        #expect(seen.map { DemoOnSeat.isClose($0, Self.pressed) } == true, "pressed face: \(seen.map { String($0, radix: 16) } ?? "none")")

        // Drag out of the button, still pressed: it shows normal again…
        count = demo.commitCount
        try demo.move(to: 364, 260)
        #expect(try damageAfter(demo, count) == [[button]], "dragging out damages the button only")
        seen = demo.waitForColor(Self.face, at: facePoint)
        #expect(seen.map { DemoOnSeat.isClose($0, Self.face) } == true, "dragged-out face: \(seen.map { String($0, radix: 16) } ?? "none")")
        // …and releasing there does not click it (the release is handled before the next
        // hover, which the demo answers with a commit).
        try demo.display.xdotool("mouseup", "1")
        _ = demo.weston.waitForLogLines(containing: ".button(") { $0.count >= 2 }
        count = demo.commitCount
        try demo.move(to: 364, 127)
        #expect(try damageAfter(demo, count) == [[button]], "hovering again damages the button only")
        #expect(demo.waitForColor(0xAAAAAA, at: barPoint).map { DemoOnSeat.isClose($0, 0xAAAAAA) } == true,
            "a release outside the button did not step the bar")

        // A click over it steps the bar and leaves it hovered.
        try demo.click()
        seen = demo.waitForColor(0x34C759, at: barPoint)
        #expect(seen.map { DemoOnSeat.isClose($0, 0x34C759) } == true, "the click stepped the bar")
        seen = demo.waitForColor(Self.hovered, at: facePoint)
        #expect(seen.map { DemoOnSeat.isClose($0, Self.hovered) } == true, "hovered after the click")

        // Leaving it: normal again, damaging only the button.
        count = demo.commitCount
        try demo.move(to: 364, 300)
        #expect(try damageAfter(demo, count) == [[button]], "leaving damages the button only")
        seen = demo.waitForColor(Self.face, at: facePoint)
        #expect(seen.map { DemoOnSeat.isClose($0, Self.face) } == true, "normal face: \(seen.map { String($0, radix: 16) } ?? "none")")
        #expect(demo.quit() == 0)
    }

    @Test("A title-bar button shows a disc under the pointer and a darker one while pressed; a press dragged off it does not close")
    func titleBarButtonStates() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "progress"])
        try demo.move(toScreen: 0, 0)
        // The close button: 24 × 24 at window (770, 4) of the 800-point-wide window, i.e.
        // content (770, −28); its disc is blank (no glyph) 3 points below its top centre.
        let close = [770, -28, 24, 24]
        let button = Self.buffer(close)
        let discPoint = (x: 782, y: -25)
        let bar = demo.waitForColor(0xDBDBDB, at: discPoint) ?? 0
        try #require(DemoOnSeat.isClose(bar, 0xDBDBDB), "active title bar: \(String(bar, radix: 16))")

        var count = demo.commitCount
        try demo.move(to: 782, -16)
        #expect(try damageAfter(demo, count) == [[button]], "hover damages the button only")
        // Black at 12 % over the bar's 0.86 white: 0.757 → #C1C1C1.
        var seen = demo.waitForColor(0xC1C1C1, at: discPoint)
        #expect(seen.map { DemoOnSeat.isClose($0, 0xC1C1C1) } == true, "hovered disc: \(seen.map { String($0, radix: 16) } ?? "none")")

        count = demo.commitCount
        try demo.display.xdotool("mousedown", "1")
        #expect(try damageAfter(demo, count) == [[button]], "pressing damages the button only")
        // Black at 22 %: 0.671 → #ABABAB.
        seen = demo.waitForColor(0xABABAB, at: discPoint)
        #expect(seen.map { DemoOnSeat.isClose($0, 0xABABAB) } == true, "pressed disc: \(seen.map { String($0, radix: 16) } ?? "none")")

        count = demo.commitCount
        try demo.move(to: 700, 200)
        #expect(try damageAfter(demo, count) == [[button]], "dragging off damages the button only")
        seen = demo.waitForColor(0xDBDBDB, at: discPoint)
        #expect(seen.map { DemoOnSeat.isClose($0, 0xDBDBDB) } == true, "plain bar again: \(seen.map { String($0, radix: 16) } ?? "none")")
        try demo.display.xdotool("mouseup", "1")
        // Handled in order: once the hover that follows is drawn, the release was too.
        count = demo.commitCount
        try demo.move(to: 782, -16)
        #expect(try damageAfter(demo, count) == [[button]])
        #expect(demo.process.isRunning, "a release off the close button closed the window")
        #expect(demo.quit() == 0)
    }
}

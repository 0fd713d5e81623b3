import DamaskTestSupport
import Foundation
import Testing

/// Client-side decorations under Weston on Xvfb, driven with real X input.
@Suite("Client-side decorations (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DecorationTests {
    /// Surface points of the decorated test client (200×150 content, 12-point shadow,
    /// 32-point title bar, 24-point buttons 6 points apart from the right).
    enum Layout {
        static let shadow = 12
        static let titleBarMiddle = 12 + 16
        static let closeButton = (x: 12 + 200 - 6 - 12, y: 12 + 16)
        static let maximizeButton = (x: 12 + 200 - 6 - 24 - 6 - 12, y: 12 + 16)
    }

    @Test("Dragging the title bar asks the compositor to move the window with the press serial")
    func titleBarDragMoves() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        let origin = try session.locateWindow()
        try session.move(to: 60, Layout.titleBarMiddle)
        // Each step waits for Weston to pass it on: the press, a motion past the drag
        // threshold (the client then asks to move), and the move request before the release.
        let log = session.compositor
        let (buttons, motions) = (log.logLines(containing: ".button(").count, log.logLines(containing: ".motion(").count)
        try session.display.xdotool("mousedown", "1")
        try #require(log.waitForLogLines(containing: ".button(") { $0.count > buttons }.count > buttons, "Weston sent no press")
        try session.display.xdotool("mousemove", "\(origin.x + 120)", "\(origin.y + Layout.titleBarMiddle + 40)")
        try #require(log.waitForLogLines(containing: ".motion(") { $0.count > motions }.count > motions, "Weston sent no motion")
        try session.display.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + Layout.titleBarMiddle + 80)")
        let isMove = { (line: String) in line.contains("rq xdg_toplevel@") && line.contains(".move(") }
        log.waitForLogLines(containing: ".move(") { $0.contains(where: isMove) }
        try session.display.xdotool("mouseup", "1")
        let moves = session.compositor.logLines(containing: ".move(").filter(isMove)
        #expect(moves.count == 1, "move requests: \(moves)")
        // The serial quoted is the press's: the button event Weston sent just before.
        let presses = session.compositor.logLines(containing: "wl_pointer@").filter { $0.contains(".button(") && $0.hasSuffix(", 1)") }
        let move = try #require(moves.first)
        let press = try #require(presses.last, "no button press in Weston's log")
        let moveSerial = move.split(separator: ",").last.map { $0.filter(\.isNumber) } ?? ""
        let pressSerial = press.split(separator: "(").last?.split(separator: ",").first.map(String.init)
        #expect(!moveSerial.isEmpty && moveSerial == pressSerial, "\(move) vs \(press)")
    }

    @Test("The window geometry excludes the shadow and the minimum size includes the title bar and room for the title")
    func geometryExcludesShadow() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        let ready = try #require(session.client.waitForLine(where: { $0.hasPrefix("ready ") }))
        #expect(ready.line.hasPrefix("ready \(200 + 2 * Layout.shadow) \(150 + 32 + 2 * Layout.shadow) "))
        let geometry = session.compositor.waitForLogLines(containing: "set_window_geometry(")
        #expect(geometry.last?.hasSuffix("set_window_geometry(12, 12, 200, 182)") == true, "\(geometry)")
        let minimum = session.compositor.logLines(containing: "set_min_size(")
        // Width: the three buttons with their spacing (96), the title's margins (2 × 10) and
        // 72 points of the title "Damask Test", which is wider: 188, more than the content's
        // 120-point minimum. Height: 40 of content and the 32-point title bar.
        #expect(minimum.last?.hasSuffix("set_min_size(188, 72)") == true, "\(minimum)")
    }

    @Test("The close button closes the window")
    func closeButtonCloses() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        try session.click(at: Layout.closeButton.x, Layout.closeButton.y)
        #expect(session.client.waitForLine(where: { $0 == "closed" }) != nil, "\(session.client.lines.suffix(5))")
        #expect(session.client.waitForExit() == 0)
    }

    @Test("Ctrl+Q closes the focused window")
    func controlQCloses() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        try session.click(at: 100, 100)
        #expect(session.client.waitForLine(where: { $0 == "focus 1" }) != nil)
        try session.display.xdotool("key", "ctrl+q")
        #expect(session.client.waitForLine(where: { $0 == "closed" }) != nil, "\(session.client.lines.suffix(5))")
        // The shortcut is consumed: the view never sees the Q.
        #expect(!session.client.lines.contains { $0.hasPrefix("key down 71") })
    }

    @Test("Double-clicking the title bar maximizes and the frame drops its shadow")
    func doubleClickMaximizes() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        try session.move(to: 60, Layout.titleBarMiddle)
        let before = session.client.lines.count
        try session.display.xdotool("click", "--repeat", "2", "--delay", "120", "1")
        let states = session.client.waitForLine(from: before, where: { $0.hasPrefix("states ") && $0.contains("maximized") })
        #expect(states != nil, "\(session.client.lines.suffix(8))")
        // Maximized: the window geometry is the whole surface (no shadow).
        let whole = "set_window_geometry(0, 0, \(NestedWestonSession.outputSize.width), \(NestedWestonSession.outputSize.height))"
        let geometry = session.compositor.waitForLogLines(containing: "set_window_geometry(") {
            $0.last?.contains(whole) == true
        }.last ?? ""
        #expect(geometry.contains("set_window_geometry(0, 0, \(NestedWestonSession.outputSize.width), \(NestedWestonSession.outputSize.height))"), "\(geometry)")
    }

    @Test("Pressing in the shadow margin starts a resize from that edge")
    func shadowMarginResizes() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        try session.move(to: Layout.shadow / 2, 100)
        // Released once the client has asked to resize (on the press).
        try session.display.xdotool("mousedown", "1")
        let isResize = { (line: String) in line.contains("rq xdg_toplevel@") && line.contains(".resize(") }
        session.compositor.waitForLogLines(containing: ".resize(") { $0.contains(where: isResize) }
        try session.display.xdotool("mouseup", "1")
        let resizes = session.compositor.logLines(containing: ".resize(").filter(isResize)
        #expect(resizes.count == 1)
        #expect(resizes.first?.hasSuffix(", 4)") == true, "\(resizes)")  // xdg_toplevel.resize_edge.left
    }

    @Test("The cursor changes to a resize arrow over the shadow margin and back over the content")
    func cursorFollowsHandles() throws {
        let session = try NestedWestonSession(clientArguments: ["--decorated"])
        // Every cursor change is a set_cursor naming the cursor surface, whose attaches show
        // which image: the arrow, then the left-edge arrow, then the arrow again. Each move
        // waits for the set_cursor it causes.
        let isSetCursor = { (line: String) in line.contains("rq wl_pointer@") && line.contains(".set_cursor(") }
        func setCursorCount() -> Int { session.compositor.logLines(containing: ".set_cursor(").filter(isSetCursor).count }
        try session.move(to: 100, 100)
        session.compositor.waitForLogLines(containing: ".set_cursor(") { $0.contains(where: isSetCursor) }
        for point in [(Layout.shadow / 2, 100), (110, 110)] {
            let before = setCursorCount()
            try session.move(to: point.0, point.1)
            session.compositor.waitForLogLines(containing: ".set_cursor(") { $0.filter(isSetCursor).count > before }
        }
        let setCursor = session.compositor.logLines(containing: ".set_cursor(").filter(isSetCursor)
        #expect(setCursor.count >= 3, "\(setCursor)")
        let cursorSurface = setCursor.last.flatMap { line in
            line.range(of: "wl_surface@").map { String(line[$0.lowerBound...].prefix { $0 != "," }) }
        }
        let surface = try #require(cursorSurface)
        session.compositor.waitForLogLines(containing: "\(surface).attach(") { $0.count >= 3 }
        let buffers = session.compositor.logLines(containing: "\(surface).attach(").compactMap { line in
            line.range(of: "wl_buffer@").map { String(line[$0.lowerBound...].prefix { $0 != "," }) }
        }
        try #require(buffers.count >= 3, "\(buffers)")
        let last = Array(buffers.suffix(3))
        #expect(last[0] != last[1] && last[0] == last[2], "\(last)")
    }
}

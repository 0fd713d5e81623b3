import DamaskTestSupport
import Foundation
import Testing

/// Clicks keep working after title-bar drags under mutter (headless, RemoteDesktop input:
/// mutter's virtual pointer, serials mutter issued), as under Weston
/// (``PointerGrabRecoveryTests``). mutter offers no screenshots here: a click on a sidebar
/// row is seen working in the demo's damage log (the new scene repaints the scene area).
@Suite("Pointer after a compositor grab (mutter)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct PointerGrabRecoveryGnomeTests {
    /// Whether a commit after the first `count` repaints a scene-sized area, 100,000 pixels
    /// or more (a scene switch; a hover or a press repaints a row or a button).
    static func sceneChanged(_ demo: WaylandDebugDemo, after count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        repeat {
            let areas = demo.commits.dropFirst(count).map { $0.reduce(0) { $0 + ($1.count == 4 ? $1[2] * $1[3] : 0) } }
            if areas.contains(where: { $0 >= 100_000 }) {
                return true
            }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    /// The demo's last pointer events and move requests, for failure messages.
    static func pointerLines(_ demo: WaylandDebugDemo) -> String {
        demo.process.lines.filter { $0.contains("wl_pointer@") || $0.contains(".move(") }.suffix(12).joined(separator: " | ")
    }

    /// Waits until a motion has reached mutter's move or resize grab, which mutter shows by
    /// taking the pointer from the window (`wl_pointer.leave` after line `start`); returns
    /// whether one did.
    ///
    /// The grab anchors at the press, so the window lands where the pointer is at the first
    /// motion inside it. When the client's request reached mutter only after the test's
    /// motions (they travel on different sockets), no motion is inside it: a point there
    /// and back, repeated, gives it one without changing where the pointer ends.
    static func awaitGrab(_ demo: WaylandDebugDemo, on mutter: DemoOnMutter, since start: Int) -> Bool {
        let left = { (timeout: TimeInterval) in
            demo.process.waitForLine(from: start, timeout: timeout) { $0.contains("wl_pointer@") && $0.contains(".leave(") } != nil
        }
        if left(2) { return true }
        for _ in 0..<10 {
            mutter.move(by: 1, 0)
            mutter.move(by: -1, 0)
            if left(1) { return true }
        }
        return false
    }

    @Test("Six title-bar drags under mutter: after each, a click on a sidebar row changes the scene")
    func clicksAfterMoves() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(["--size", "800x600"])
        let moves = { demo.requests(containing: "xdg_toplevel@").count { $0.contains(".move(") } }
        for drag in 0..<6 {
            let old = demo.origin
            let offset = drag % 2 == 0 ? (x: 80, y: 50) : (x: -80, y: -50)
            let start = (x: old.x + 300, y: old.y - 16)
            let before = moves()
            mutter.move(to: start.x, start.y)
            try mutter.button(down: true, in: demo)
            // The title bar starts a move after 3 points of travel (relative moves: the
            // pointer must not detour through the corner while the button is held).
            let first = (x: offset.x.signum() * 10, y: offset.y.signum() * 10)
            let linesBefore = demo.process.lines.count
            mutter.move(by: first.x, first.y)
            #expect(demo.process.waitUntil(timeout: 10) { _ in moves() > before }, "drag \(drag): no move request: \(Self.pointerLines(demo))")
            // mutter's grab follows the pointer from here.
            for _ in 0..<4 { mutter.move(by: (offset.x - first.x) / 4, (offset.y - first.y) / 4) }
            let grabbed = Self.awaitGrab(demo, on: mutter, since: linesBefore)
            #expect(grabbed, "drag \(drag): mutter never took the pointer for the move: \(Self.pointerLines(demo))")
            mutter.sendButton(down: false)
            // Find the window again from a pointer event at a point of its new content.
            var located: (x: Int, y: Int)?
            for attempt in 0..<3 {
                let point = (x: old.x + offset.x + 400 + attempt * 7, y: old.y + offset.y + 300)
                let lines = demo.process.lines.count
                mutter.move(to: point.x, point.y)
                if let event = demo.process.waitForLine(from: lines, timeout: 5, where: {
                    $0.contains("wl_pointer@") && ($0.contains(".enter(") || $0.contains(".motion("))
                }) {
                    located = demo.contentOrigin(pointerAt: point.x, point.y, event: event.line, contentHeight: 600)
                    break
                }
            }
            let origin = try #require(located, "drag \(drag): the demo got no pointer event after the move")
            // The window went with the pointer (mutter anchors the grab where the drag
            // threshold was passed: a few points either way).
            #expect(abs(origin.x - old.x - offset.x) <= 12 && abs(origin.y - old.y - offset.y) <= 12, "drag \(drag): \(old) → \(origin)")
            demo.origin = origin
            let row = (drag + 1) % 8
            let commits = demo.commits.count
            mutter.move(to: 90, 64 + 36 * row + 18, in: demo)
            try mutter.click(in: demo)
            #expect(Self.sceneChanged(demo, after: commits),
                "drag \(drag): the click on row \(row) changed no scene: \(demo.commits.dropFirst(commits)) \(Self.pointerLines(demo))")
        }
    }

    /// The buffer width of the demo's last commit (damage log; pixels, shadow included).
    static func lastWidth(_ demo: WaylandDebugDemo) -> Int? {
        let text = (try? String(contentsOfFile: demo.damageLog, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last,
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        else { return nil }
        return object["width"] as? Int
    }

    /// Clicks sidebar `row` and expects the scene to change.
    static func select(row: Int, on demo: WaylandDebugDemo, with mutter: DemoOnMutter, _ what: String) throws {
        let commits = demo.commits.count
        mutter.move(to: 90, 64 + 36 * row + 18, in: demo)
        try mutter.click(in: demo)
        #expect(sceneChanged(demo, after: commits),
            "\(what): the click on row \(row) changed no scene: \(demo.commits.dropFirst(commits)) \(pointerLines(demo))")
    }

    @Test("Under mutter, after each of four right-edge resizes, a click on a sidebar row changes the scene")
    func clicksAfterResizes() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(["--size", "800x600"])
        let resizes = { demo.requests(containing: "xdg_toplevel@").count { $0.contains(".resize(") } }
        var width = 800
        let firstWidth = try #require(Self.lastWidth(demo))
        for (resize, change) in [-40, 40, -40, 40].enumerated() {
            let before = resizes()
            let startWidth = firstWidth + width - 800
            // 4 points into the shadow right of the content: the demo's resize handle.
            mutter.move(to: demo.origin.x + width + 4, demo.origin.y + 300)
            let linesBefore = demo.process.lines.count
            try mutter.button(down: true, in: demo)
            #expect(demo.process.waitUntil(timeout: 10) { _ in resizes() > before }, "resize \(resize): no resize request: \(Self.pointerLines(demo))")
            for _ in 0..<4 { mutter.move(by: change / 4, 0) }
            let grabbed = Self.awaitGrab(demo, on: mutter, since: linesBefore)
            #expect(grabbed, "resize \(resize): mutter never took the pointer for the resize: \(Self.pointerLines(demo))")
            mutter.sendButton(down: false)
            // The buffer follows the new width (pixels, scale 1 here).
            let deadline = Date().addingTimeInterval(15)
            while Self.lastWidth(demo) != startWidth + change, Date() < deadline { usleep(20_000) }
            #expect(Self.lastWidth(demo) == startWidth + change, "resize \(resize): width \(String(describing: Self.lastWidth(demo))), wanted \(startWidth + change)")
            width += change
            try Self.select(row: resize + 1, on: demo, with: mutter, "after resize \(resize)")
        }
    }

    /// Finds the content area's top-left again from a pointer event at monitor point (x, y)
    /// inside it (the window's geometry, less a 32-point title bar, is the content),
    /// moving there until `accept` takes the result: mutter applies a maximize a few
    /// frames after the demo took the size, and an event before that shows the old place.
    static func relocate(_ demo: WaylandDebugDemo, on mutter: DemoOnMutter, at point: (x: Int, y: Int),
        until accept: ((x: Int, y: Int)) -> Bool) -> (x: Int, y: Int)? {
        let deadline = Date().addingTimeInterval(20)
        var found: (x: Int, y: Int)?
        var attempt = 0
        repeat {
            attempt += 1
            let x = point.x + (attempt % 5) * 7
            let lines = demo.process.lines.count
            mutter.move(to: x, point.y)
            // The pointer goes there by way of the monitor's corner, which a maximized
            // window covers: the event at the corner's surface-local (0, 0) is not the one.
            guard let event = demo.process.waitForLine(from: lines, timeout: 5, where: {
                $0.contains("wl_pointer@") && ($0.contains(".enter(") || $0.contains(".motion("))
                    && !$0.hasSuffix(" 0.00000000, 0.00000000)")
            }) else { continue }
            let geometry = demo.requests(containing: ".set_window_geometry(").last.map { WaylandDebugDemo.numbers(in: $0) } ?? []
            guard let height = geometry.last else { return nil }
            found = demo.contentOrigin(pointerAt: x, point.y, event: event.line, contentHeight: Int(height) - 32)
            if let found, accept(found) { return found }
        } while Date() < deadline
        return found
    }

    @Test("Under mutter, after maximize and after restore by a double click on the title bar, a click on a sidebar row changes the scene")
    func clicksAfterMaximizeAndRestore() throws {
        let mutter = try DemoOnMutter()
        defer { mutter.stop() }
        let demo = try mutter.launch(["--size", "800x600"])
        let floating = demo.origin
        let maximizes = { demo.requests(containing: "xdg_toplevel@").count { $0.contains(".set_maximized(") } }
        let restores = { demo.requests(containing: "xdg_toplevel@").count { $0.contains(".unset_maximized(") } }
        mutter.move(to: demo.origin.x + 300, demo.origin.y - 16)
        try mutter.click(in: demo)
        try mutter.click(in: demo)
        #expect(demo.process.waitUntil(timeout: 10) { _ in maximizes() == 1 }, "no set_maximized after a double click: \(Self.pointerLines(demo))")
        // Maximized on the 1600×1000 monitor: the content starts at (0, 32).
        let maximized = try #require(Self.relocate(demo, on: mutter, at: (800, 500)) { $0 == (0, 32) })
        #expect(maximized == (0, 32), "maximized content at \(maximized)")
        demo.origin = maximized
        try Self.select(row: 5, on: demo, with: mutter, "maximized")
        mutter.move(to: demo.origin.x + 300, demo.origin.y - 16)
        try mutter.click(in: demo)
        try mutter.click(in: demo)
        #expect(demo.process.waitUntil(timeout: 10) { _ in restores() == 1 }, "no unset_maximized after a double click: \(Self.pointerLines(demo))")
        let restored = try #require(Self.relocate(demo, on: mutter, at: (800, 500)) {
            abs($0.x - floating.x) <= 12 && abs($0.y - floating.y) <= 12
        })
        #expect(abs(restored.x - floating.x) <= 12 && abs(restored.y - floating.y) <= 12, "restored to \(restored), was \(floating)")
        demo.origin = restored
        try Self.select(row: 6, on: demo, with: mutter, "restored")
    }
}

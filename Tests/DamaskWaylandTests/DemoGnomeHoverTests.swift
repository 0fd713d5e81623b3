import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Hover and pressed states under GNOME's compositor (headless mutter) with a real pointer
/// (mutter's virtual pointer from a RemoteDesktop session): the demo's content button and
/// its sidebar rows, checked on the pixels the demo presented (`--snapshot`, written on
/// SIGUSR1; mutter offers no screenshots here) and on each commit's damage.
@Suite("Demo hover and pressed states under GNOME (mutter RemoteDesktop)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoGnomeHoverTests {
    /// The progress scene's "+ 5%" button and the sidebar's rows, in content points.
    static let plusButton = [314, 112, 100, 30]

    /// One demo under mutter with `--snapshot`, and where its content sits in its buffer.
    final class Session {
        let mutter: DemoOnMutter
        let demo: DemoOnMutter.Demo
        let snapshotPath: String
        /// The content area's top-left in the demo's buffer (past the shadow and title bar).
        private(set) var offset = (x: 0, y: 0)

        init(scene: String) throws {
            mutter = try DemoOnMutter()
            snapshotPath = FileManager.default.temporaryDirectory
                .appendingPathComponent("damask-gnome-snapshot-\(UUID().uuidString).png").path
            demo = try mutter.launch(["--scene", scene, "--snapshot", snapshotPath])
            offset = try #require(Self.contentOffset(in: try snapshot()), "no sidebar in the snapshot")
        }

        deinit {
            mutter.stop()
            try? FileManager.default.removeItem(atPath: snapshotPath)
        }

        /// Asks the demo for a snapshot (SIGUSR1) and reads it once it says it wrote it.
        func snapshot() throws -> Bitmap {
            let written = { (lines: [String]) in lines.count { $0.contains("damask-demo: wrote snapshot ") } }
            let before = written(demo.process.lines)
            kill(demo.process.processIdentifier, SIGUSR1)
            try #require(demo.process.waitUntil(timeout: 10) { written($0) > before }, "no snapshot: \(demo.process.lines.suffix(3))")
            return try Bitmap(contentsOfPNGFile: snapshotPath)
        }

        /// Snapshots until `accept` holds and two snapshots 200 ms apart are the same (the
        /// hovers of finding the window have been drawn away), up to 15 s; the last one.
        func settledSnapshot(until accept: (Bitmap) -> Bool) throws -> Bitmap {
            let deadline = Date().addingTimeInterval(15)
            var last = try snapshot()
            while Date() < deadline {
                usleep(200_000)
                let next = try snapshot()
                if accept(next), changes(last, next).isEmpty { return next }
                last = next
            }
            return last
        }

        /// The colour (0xRRGGBB) of content point `point` on `bitmap`.
        func color(_ bitmap: Bitmap, at point: (x: Int, y: Int)) -> UInt32 {
            bitmap.pixel(x: offset.x + point.x, y: offset.y + point.y) & 0xFF_FFFF
        }

        /// `rect` (content points) in buffer pixels.
        func buffer(_ rect: [Int]) -> [Int] { [rect[0] + offset.x, rect[1] + offset.y, rect[2], rect[3]] }

        /// Runs `input`, waits until the demo received the pointer event that ends it (the
        /// first line from then on that `isLast` accepts) and committed its window after
        /// handling it, and returns the damage of every commit of its window from the input
        /// through that commit (each a list of [x, y, w, h] buffer rects), read from the
        /// requests the demo sent (WAYLAND_DEBUG). Every commit the input causes is in it
        /// (a move through the corner may first leave the window, then enter it again).
        func damage(of input: () throws -> Void, endingWith isLast: (String) -> Bool) throws -> [[[Int]]] {
            let surface = try #require(demo.windowSurface, "the demo created no xdg_surface: \(demo.process.lines.suffix(3))")
            let commit = " -> \(surface).commit()"
            let start = demo.process.lines.count
            try input()
            var end = start
            let handled = demo.process.waitUntil(timeout: 15) { lines in
                guard lines.count > start, let last = lines[start...].firstIndex(where: { !$0.contains(" -> ") && isLast($0) }),
                    let committed = lines[(last + 1)...].firstIndex(where: { $0.contains(commit) })
                else { return false }
                end = committed
                return true
            }
            try #require(handled, "no commit after the input's last event: \(demo.process.lines.suffix(5))")
            var commits: [[[Int]]] = []
            var rects: [[Int]] = []
            var attached = false
            for line in demo.process.lines[start...end] where line.contains(" -> \(surface).") {
                if line.contains(".attach(") {
                    attached = true
                } else if line.contains(".damage_buffer(") {
                    rects.append(WaylandDebugDemo.numbers(in: line).map { Int($0) })
                } else if line.contains(commit) {
                    if attached { commits.append(rects) }
                    (rects, attached) = ([], false)
                }
            }
            return commits
        }

        /// Whether `line` is a pointer event the demo received at content point `point`
        /// (an `enter` or `motion`, mapped through the latest window geometry).
        func isPointerEvent(_ line: String, at point: (x: Int, y: Int)) -> Bool {
            guard line.contains("wl_pointer@"), line.contains(".enter(") || line.contains(".motion(") else { return false }
            return demo.contentPoint(ofPointerEvent: line, contentHeight: 600).map { $0 == point } ?? false
        }

        /// Whether `line` is a pointer `leave` the demo received: moving away from what the
        /// pointer hovers goes through the monitor's corner, so the window sees the pointer
        /// leave (which ends the hover) before it enters again where nothing reacts to it.
        static func isPointerLeave(_ line: String) -> Bool {
            line.contains("wl_pointer@") && line.contains(".leave(")
        }

        /// Whether `line` is a pointer button event the demo received.
        static func isButtonEvent(_ line: String) -> Bool {
            line.contains("wl_pointer@") && line.contains(".button(")
        }

        /// The content points where `a` and `b` differ.
        func changes(_ a: Bitmap, _ b: Bitmap) -> [(x: Int, y: Int)] {
            var points: [(x: Int, y: Int)] = []
            for y in 0..<min(a.height, b.height) {
                for x in 0..<min(a.width, b.width) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                    points.append((x - offset.x, y - offset.y))
                }
            }
            return points
        }

        /// The first pixel of the sidebar's colour: the content area's top-left.
        static func contentOffset(in bitmap: Bitmap) -> (x: Int, y: Int)? {
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == DemoOnSeat.sidebarColor {
                    return (x, y)
                }
            }
            return nil
        }
    }

    /// Whether every point lies inside `rect` (content points).
    static func inside(_ points: [(x: Int, y: Int)], _ rect: [Int]) -> Bool {
        points.allSatisfy { (rect[0]..<rect[0] + rect[2]).contains($0.x) && (rect[1]..<rect[1] + rect[3]).contains($0.y) }
    }

    @Test("A content button lights up under mutter's pointer and darkens while pressed; each change touches only the button's pixels and damage")
    func contentButtonStates() throws {
        let session = try Session(scene: "progress")
        let (mutter, demo) = (session.mutter, session.demo)
        let facePoint = (x: Self.plusButton[0] + 8, y: Self.plusButton[1] + 6)
        let button = session.buffer(Self.plusButton)
        mutter.move(to: 5, 5)
        let normal = try session.settledSnapshot { DemoOnSeat.isClose(session.color($0, at: facePoint), DemoButtonTests.face) }
        #expect(DemoOnSeat.isClose(session.color(normal, at: facePoint), DemoButtonTests.face))

        // Hover.
        var damage = try session.damage(of: { mutter.move(to: 364, 127, in: demo) }, endingWith: { session.isPointerEvent($0, at: (364, 127)) })
        #expect(!damage.isEmpty && damage.allSatisfy { $0 == [button] }, "hover damage: \(damage)")
        let hovered = try session.snapshot()
        #expect(DemoOnSeat.isClose(session.color(hovered, at: facePoint), DemoButtonTests.hovered),
            "hovered face: \(String(session.color(hovered, at: facePoint), radix: 16))")
        var changed = session.changes(normal, hovered)
        #expect(!changed.isEmpty && Self.inside(changed, Self.plusButton), "hover changed pixels outside the button: \(changed.prefix(4))")

        // Pressed.
        damage = try session.damage(of: { try mutter.button(down: true, in: demo) }, endingWith: Session.isButtonEvent)
        #expect(damage.allSatisfy { $0 == [button] }, "press damage: \(damage)")
        let pressed = try session.snapshot()
        #expect(DemoOnSeat.isClose(session.color(pressed, at: facePoint), DemoButtonTests.pressed),
            "pressed face: \(String(session.color(pressed, at: facePoint), radix: 16))")
        changed = session.changes(hovered, pressed)
        #expect(!changed.isEmpty && Self.inside(changed, Self.plusButton), "the press changed pixels outside the button: \(changed.prefix(4))")

        // Released over it: hovered again (and the click stepped the bar).
        _ = try session.damage(of: { try mutter.button(down: false, in: demo) }, endingWith: Session.isButtonEvent)
        let released = try session.snapshot()
        #expect(DemoOnSeat.isClose(session.color(released, at: facePoint), DemoButtonTests.hovered))
        #expect(DemoOnSeat.isClose(session.color(released, at: (358, 170)), 0x34C759), "the click stepped the bar")

        // Away: the normal face again, only the button damaged.
        damage = try session.damage(of: { mutter.move(to: 364, 300, in: demo) }, endingWith: Session.isPointerLeave)
        #expect(damage.allSatisfy { $0 == [button] }, "leaving damage: \(damage)")
        let left = try session.snapshot()
        #expect(DemoOnSeat.isClose(session.color(left, at: facePoint), DemoButtonTests.face))
        #expect(session.changes(released, left).allSatisfy { Self.inside([$0], Self.plusButton) })
    }

    @Test("A sidebar row lights up under mutter's pointer, unlike the selected row; moving on redraws only the rows")
    func sidebarRowHover() throws {
        let session = try Session(scene: "progress")
        let (mutter, demo) = (session.mutter, session.demo)
        mutter.move(to: 5, 5)
        let plain = try session.settledSnapshot { bitmap in
            (1..<8).allSatisfy { session.color(bitmap, at: DemoSidebarHoverTests.fillPoint($0)) == DemoSidebarHoverTests.background }
        }
        #expect(session.color(plain, at: DemoSidebarHoverTests.fillPoint(2)) == DemoSidebarHoverTests.background)

        var damage = try session.damage(of: { mutter.move(to: 90, 154, in: demo) }, endingWith: { session.isPointerEvent($0, at: (90, 154)) })
        let row2 = [0, 136, 180, 36]
        #expect(!damage.isEmpty && damage.allSatisfy { $0 == [session.buffer(row2)] }, "hover damage: \(damage)")
        let hovered = try session.snapshot()
        let fill = session.color(hovered, at: DemoSidebarHoverTests.fillPoint(2))
        #expect(DemoOnSeat.isClose(fill, DemoSidebarHoverTests.hovered), "hovered row: \(String(fill, radix: 16))")
        #expect(!DemoOnSeat.isClose(fill, DemoSidebarHoverTests.selected))
        #expect(DemoOnSeat.isClose(session.color(hovered, at: DemoSidebarHoverTests.fillPoint(0)), DemoSidebarHoverTests.selected))
        let changed = session.changes(plain, hovered)
        #expect(!changed.isEmpty && Self.inside(changed, row2), "pixels changed outside the row: \(changed.prefix(4))")

        damage = try session.damage(of: { mutter.move(to: 400, 300, in: demo) }, endingWith: Session.isPointerLeave)
        #expect(damage.allSatisfy { $0 == [session.buffer(row2)] }, "leaving damage: \(damage)")
        let left = try session.snapshot()
        #expect(session.changes(plain, left).isEmpty, "the sidebar looks as before the hover")
    }
}

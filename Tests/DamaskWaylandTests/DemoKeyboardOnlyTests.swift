import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo used without a pointer: Tab and Shift+Tab move focus through the sidebar and
/// every control of the scene, arrows in the sidebar change the scene, Space and Return
/// press the focused button, and a ring shows where focus is.
@Suite("Demo keyboard-only use", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct DemoKeyboardOnlyTests {
    /// The focus ring's colour (FocusRing.color: 0.18, 0.44, 0.95).
    static let ring: UInt32 = 0x2E70F2

    /// The focusable controls of each scene, in sidebar order, and how each is used.
    enum Use { case press, pressTwice, animate, type }
    static let scenes: [(name: String, controls: [Use])] = [
        ("progress", [.press, .press, .animate]),
        ("chromosome", [.press, .press, .press]),
        ("paths", [.press, .press, .press, .pressTwice, .press]),
        ("layers", [.press, .press, .press]),
        ("canvas", [.press]),
        ("content-mode", [.press, .press, .animate]),
        ("text", [.type]),
        ("motion", [.press]),
    ]

    static func pixels(_ path: String) throws -> Bitmap { try Bitmap(contentsOfPNGFile: path) }

    /// Pixels that differ between two screenshots within `rect`.
    static func difference(_ a: Bitmap, _ b: Bitmap, in rect: (x: Range<Int>, y: Range<Int>)) -> Int {
        var count = 0
        for y in rect.y { for x in rect.x where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }

    /// Pixels of the focus ring's colour, in the columns `columns` (default: all).
    static func ringPixels(_ bitmap: Bitmap, columns: Range<Int>? = nil) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            for x in columns ?? 0..<bitmap.width where DemoOnSeat.isClose(bitmap.pixel(x: x, y: y) & 0xFF_FFFF, ring) { count += 1 }
        }
        return count
    }

    @Test("The keys-only tour: every scene reached from the sidebar with Down, every control reached with Tab and used with Space or typing, each with a visible result and a focus ring")
    func keysOnlyTour() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        var script = "scene progress\nwait idle\nkey Tab\nwait idle\nscreenshot \(path("sidebar.png"))\n"
        for (index, scene) in Self.scenes.enumerated() {
            if index > 0 { script += "key Down\n" }
            script += "wait idle\nscreenshot \(path("\(index).png"))\n"
            for (control, use) in scene.controls.enumerated() {
                script += "key Tab\nwait idle\nscreenshot \(path("\(index)-\(control)-before.png"))\n"
                switch use {
                case .press: script += "key space\nwait idle\n"
                case .pressTwice: script += "key Return\nkey KP_Enter\nwait idle\n"
                case .animate: script += "key space\nwait frames 8\n"
                case .type: script += "type \"keys only\"\nexpect text \"keys only\"\nkey Escape\nwait idle\n"
                }
                script += "screenshot \(path("\(index)-\(control)-after.png"))\n"
                if use == .animate { script += "key space\nwait idle\n" }
            }
            // Past the scene's last control the loop comes back to the sidebar.
            script += "key Tab\nwait idle\nscreenshot \(path("\(index)-back.png"))\n"
        }
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script, directory: directory)
        #expect(run.status == 0, "\(run.output)")
        guard run.status == 0 else { return }

        let sidebar = try Self.pixels(path("sidebar.png"))
        #expect(Self.ringPixels(sidebar, columns: 0..<184) > 500, "no focus ring around the sidebar")
        var previous = try Self.pixels(path("0.png"))
        let scene = (x: 180..<800, y: 0..<600)
        for (index, entry) in Self.scenes.enumerated() {
            let shown = try Self.pixels(path("\(index).png"))
            if index > 0 {
                #expect(Self.difference(previous, shown, in: scene) > 5000, "Down did not show \(entry.name)")
            }
            for control in entry.controls.indices {
                let before = try Self.pixels(path("\(index)-\(control)-before.png"))
                let after = try Self.pixels(path("\(index)-\(control)-after.png"))
                // The text field shows focus its own way (its border and caret): the typed
                // text, checked by `expect text`, shows it had focus.
                if entry.controls[control] != .type {
                    #expect(Self.ringPixels(before) > 100, "\(entry.name) control \(control): no focus ring")
                }
                #expect(Self.difference(before, after, in: scene) > 20, "\(entry.name) control \(control) did nothing")
            }
            let back = try Self.pixels(path("\(index)-back.png"))
            #expect(Self.ringPixels(back, columns: 0..<184) > 500 && Self.ringPixels(back, columns: 184..<800) == 0,
                "\(entry.name): Tab after the last control did not return to the sidebar")
            previous = shown
        }
    }

    @Test("Shift+Tab goes backwards; Escape in the field ends editing and Tab goes on after it; keypad Enter leaves the field too")
    func backwardsAndEscape() throws {
        let script = """
            scene text
            wait idle
            key Tab
            key Tab
            type "ab"
            expect text "ab"
            key KP_Enter
            key 3
            wait idle
            expect pixel 614 300 #FFCC00
            key 7
            key shift+Tab
            key shift+Tab
            type "c"
            expect text "abc"
            key Escape
            key s
            wait idle
            expect pixel 570 540 #34373F ±8

            """
        let run = try DemoRun.run(DemoHeadlessTests.fast, script: script)
        defer { run.removeDirectory() }
        #expect(run.status == 0, "\(run.output)")
    }
}

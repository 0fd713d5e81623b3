import DamaskTestSupport
import Foundation
import Testing

/// Clicks keep working after the compositor took the pointer for a move, a resize or a
/// maximize: Weston on Xvfb driven by xdotool, the demo's decorated window, every click
/// checked on the screen (the clicked sidebar row is drawn selected).
///
/// A compositor grab sends the client `wl_pointer.leave` and swallows the button release;
/// a window that still believed the button held would route every later press to the view
/// that got the first one.
@Suite("Pointer after a compositor grab (Weston on Xvfb)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct PointerGrabRecoveryTests {
    /// The sidebar's selected-row fill (DemoStyle.sidebarSelection, 0.26 0.47 0.85).
    static let selection: UInt32 = 0x4278D9

    /// Clicks sidebar row `index` and expects it drawn selected (its scene shown).
    static func select(row index: Int, on demo: DemoOnSeat, _ context: String) throws {
        try demo.move(to: 90, 64 + 36 * index + 18)
        try demo.click()
        let color = demo.waitForColor(selection, at: (12, 64 + 36 * index + 6))
        #expect(color.map { DemoOnSeat.isClose($0, selection) } == true,
            "\(context): row \(index) not selected, \(color.map { String($0, radix: 16) } ?? "no screenshot")")
    }

    /// Presses button 1 at screen point `start`, moves until the demo asks Weston for the
    /// grab `request` (".move(" or ".resize("), moves on by `offset` and releases.
    static func drag(on demo: DemoOnSeat, from start: (x: Int, y: Int), by offset: (x: Int, y: Int), request: String) throws {
        let grabs = { demo.weston.logLines(containing: "xdg_toplevel@").count { $0.contains(request) } }
        let (requests, buttons) = (grabs(), demo.weston.logLines(containing: ".button(").count)
        try demo.move(toScreen: start.x, start.y)
        try demo.display.xdotool("mousedown", "1")
        let pressed = demo.weston.waitForLogLines(containing: ".button(") { $0.count > buttons }
        try #require(pressed.count > buttons, "Weston did not send the press")
        if request == ".move(" {
            // The title bar starts a move after 3 points of travel.
            try demo.move(toScreen: start.x + offset.x.signum() * 8, start.y + offset.y.signum() * 8)
        }
        let deadline = Date().addingTimeInterval(10)
        while grabs() == requests && Date() < deadline { usleep(10_000) }
        try #require(grabs() > requests, "the demo did not ask for \(request)")
        // Weston's grab owns the pointer now: it sends the client nothing for these.
        try demo.display.xdotool("mousemove", "\(start.x + offset.x)", "\(start.y + offset.y)")
        try demo.display.xdotool("mouseup", "1")
    }

    @Test("Ten title-bar drags in a row: after each, a click on a sidebar row selects it")
    func clicksAfterMoves() throws {
        let demo = try DemoOnSeat(arguments: [])
        try demo.move(toScreen: 0, 0)
        for drag in 0..<10 {
            let old = demo.origin
            let offset = drag % 2 == 0 ? (x: 60, y: 40) : (x: -60, y: -40)
            try Self.drag(on: demo, from: (old.x + 300, old.y - 16), by: offset, request: ".move(")
            try demo.relocate { $0 != old }
            #expect(demo.origin.x == old.x + offset.x && demo.origin.y == old.y + offset.y, "drag \(drag): \(old) → \(demo.origin)")
            try Self.select(row: (drag + 1) % 8, on: demo, "after drag \(drag)")
        }
        #expect(demo.quit() == 0)
    }

    @Test("After an edge resize and after maximize and restore by double-click, clicks select sidebar rows")
    func clicksAfterResizeAndMaximize() throws {
        let demo = try DemoOnSeat(arguments: [])
        try demo.move(toScreen: 0, 0)
        // The right edge, 4 points into the shadow right of the content: narrower by 40,
        // then back (the output has no room to grow an 800-point window much).
        for (resize, (width, change)) in [(800, -40), (760, 40), (800, -40), (760, 40)].enumerated() {
            try Self.drag(on: demo, from: (demo.origin.x + width + 4, demo.origin.y + 300), by: (change, 0), request: ".resize(")
            try Self.select(row: resize + 1, on: demo, "after resize \(resize)")
        }
        let floating = demo.origin
        try demo.move(toScreen: floating.x + 300, floating.y - 16)
        try demo.display.xdotool("click", "--repeat", "2", "--delay", "120", "1")
        try demo.relocate { $0 != floating }
        try Self.select(row: 5, on: demo, "maximized")
        let maximized = demo.origin
        try demo.move(toScreen: maximized.x + 300, maximized.y - 16)
        try demo.display.xdotool("click", "--repeat", "2", "--delay", "120", "1")
        try demo.relocate { $0 != maximized }
        try Self.select(row: 6, on: demo, "restored")
        #expect(demo.quit() == 0)
    }
}

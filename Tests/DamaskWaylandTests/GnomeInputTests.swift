import DamaskTestSupport
import Foundation
import Testing

/// Real input under GNOME's compositor (mutter), injected through its RemoteDesktop API.
@Suite("Input under GNOME (mutter RemoteDesktop)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct GnomeInputTests {
    /// Whether a test-client line says its seat now has a pointer (mutter's virtual pointer
    /// appears with the session's first pointer event).
    static func hasPointer(_ line: String) -> Bool {
        line.hasPrefix("seat ") && line.contains("pointer")
    }

    /// Whether a test-client line says its seat now has a pointer and a keyboard.
    static func hasPointerAndKeyboard(_ line: String) -> Bool {
        hasPointer(line) && line.contains("keyboard")
    }

    @Test("Virtual devices appear on mutter's seat at run time and their clicks and keys reach the views")
    func remoteInputReachesViews() throws {
        let gnome = try MutterRemoteInput()
        let client = gnome.client
        try #require(client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil)
        // The first events create the virtual pointer and keyboard (seat capabilities change).
        gnome.send("nudge")
        gnome.type("\u{FFE1}")
        try #require(client.waitForLine(where: Self.hasPointerAndKeyboard) != nil, "\(client.lines.suffix(5))")

        let origin = try #require(gnome.locateWindow(), "the pointer never entered: \(client.lines.suffix(5))")
        let before = client.lines.count
        gnome.move(to: origin.x + 50, origin.y + 40)
        gnome.click()
        let down = client.waitForLine(from: before, where: { $0.hasPrefix("pointer down") })
        #expect(down?.line == "pointer down 50 40 left 1")
        #expect(client.waitForLine(from: before, where: { $0.hasPrefix("pointer up") }) != nil)

        #expect(client.waitForLine(where: { $0 == "focus 1" }) != nil)
        let typed = client.lines.count
        gnome.type("Damask!")
        _ = client.waitForLine(from: typed, where: { $0.hasPrefix("key up 21") })
        let text = client.lines[typed...]
            .filter { $0.hasPrefix("key down") }
            .compactMap { line in line.range(of: " text=").map { String(line[$0.upperBound...]) } }
            .joined()
        #expect(text == "Damask!")

        // Ending the session removes the devices: the keyboard goes, and focus with it.
        gnome.stopInput()
        #expect(client.waitForLine(from: typed, where: { $0 == "focus 0" }) != nil)
        gnome.stop()
    }

    @Test("mutter 43 binds wl_seat at version 8: a wheel detent arrives as axis_value120 120, scrolls a ScrollView 40 points and counts one step")
    func wheelThroughSeatVersion8() throws {
        // WAYLAND_DEBUG: the client's stderr (merged into its lines) shows the wire events.
        let gnome = try MutterRemoteInput(
            clientArguments: ["--scroll-view", "--seat-version"], clientEnvironment: ["WAYLAND_DEBUG": "1"])
        let client = gnome.client
        try #require(client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil)
        #expect(client.lines.contains("seat-version 8"), "mutter 43 offers wl_seat 8: \(client.lines.prefix(8))")
        gnome.send("nudge")
        try #require(client.waitForLine(where: Self.hasPointer) != nil, "\(client.lines.suffix(5))")
        let origin = try #require(gnome.locateWindow(), "the pointer never entered: \(client.lines.suffix(5))")
        // Over the scroll view (the window's left half): one detent down, then one up.
        gnome.move(to: origin.x + 50, origin.y + 75)
        let before = client.lines.count
        gnome.wheel(1)
        let down = client.waitForLine(from: before, where: { $0.hasPrefix("offset ") })
        #expect(down?.line == "offset 0.0 40.0", "\(client.lines.suffix(8))")
        // Over the plain view: the detent is one discrete step and 120 high-resolution steps.
        gnome.move(to: origin.x + 150, origin.y + 75)
        let plain = client.lines.count
        gnome.wheel(1)
        let wheel = client.waitForLine(from: plain, where: { $0.hasPrefix("wheel ") })
        #expect(wheel?.line == "wheel 0 120", "\(client.lines.suffix(8))")
        let scroll = client.lines[plain...].first { $0.hasPrefix("scroll ") }
        #expect(scroll?.split(separator: " ").last == "1", "\(String(describing: scroll))")
        // On the wire: axis_value120 of a whole detent, and no axis_discrete (version 8).
        let wire = client.lines.filter { $0.contains("wl_pointer@") }
        #expect(wire.contains { $0.contains(".axis_value120(0, 120)") }, "\(wire.suffix(12))")
        #expect(!wire.contains { $0.contains(".axis_discrete(") }, "\(wire.suffix(12))")
        gnome.stop()
    }

    @Test("GNOME draws no title bar: the client's own close button closes the window")
    func clientTitleBarUnderGnome() throws {
        let gnome = try MutterRemoteInput(clientArguments: ["--decorated"])
        let client = gnome.client
        try #require(client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil)
        gnome.send("nudge")
        try #require(client.waitForLine(where: Self.hasPointer) != nil, "\(client.lines.suffix(5))")
        let origin = try #require(gnome.locateWindow(), "the pointer never entered: \(client.lines.suffix(5))")
        let close = DecorationTests.Layout.closeButton
        gnome.move(to: origin.x + close.x, origin.y + close.y)
        gnome.click()
        #expect(client.waitForLine(where: { $0 == "closed" }) != nil, "\(client.lines.suffix(5))")
        #expect(client.waitForExit() == 0)
    }
}

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Window sizes under GNOME's compositor (mutter) with real input injected through its
/// RemoteDesktop API: maximize and restore with the client's own title bar, and the
/// smallest window a user can make by dragging a corner.
@Suite("Window size under GNOME (mutter RemoteDesktop)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct GnomeWindowSizeTests {
    /// The window geometry of a test-client "geometry X Y W H" line.
    static func geometry(_ line: String) -> [Int]? {
        guard line.hasPrefix("geometry ") else { return nil }
        return line.split(separator: " ").dropFirst().compactMap { Int($0) }
    }

    /// The decorated test client (200×150 content) under mutter with a virtual pointer,
    /// and the surface's top-left on the monitor.
    static func start() throws -> (MutterRemoteInput, (x: Int, y: Int)) {
        let gnome = try MutterRemoteInput(clientArguments: ["--decorated"])
        try #require(gnome.client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil)
        gnome.send("nudge")
        try #require(gnome.client.waitForLine(where: GnomeInputTests.hasPointer) != nil, "\(gnome.client.lines.suffix(5))")
        let origin = try #require(gnome.locateWindow(), "the pointer never entered: \(gnome.client.lines.suffix(5))")
        return (gnome, origin)
    }

    /// Double-clicks where the pointer is until the client prints a line after line `index`
    /// that `matches` (three tries). Each click is two RemoteDesktop calls, which a busy
    /// machine has delivered 400 ms apart: then the clicks miss the double-click interval,
    /// and a try after a pause longer than it is a new double click.
    static func doubleClick(_ gnome: MutterRemoteInput, from index: Int, until matches: (String) -> Bool) -> Bool {
        for _ in 0..<3 {
            gnome.click()
            gnome.click()
            if gnome.client.waitForLine(from: index, timeout: 5, where: matches) != nil { return true }
            Thread.sleep(forTimeInterval: 1)
        }
        return false
    }

    /// Waits for a "geometry" line after line `index` equal to `expected`.
    static func waitForGeometry(_ gnome: MutterRemoteInput, from index: Int = 0, _ expected: [Int]) -> Bool {
        gnome.client.waitForLine(from: index, where: { geometry($0) == expected }) != nil
    }

    /// Writes the client's presented buffer to a temporary PNG and reads it back.
    static func snapshot(_ gnome: MutterRemoteInput) throws -> Bitmap {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-gnome-\(getpid())-\(TemporaryName.next()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = gnome.client.lines.count
        gnome.client.send("snapshot \(path)")
        _ = try #require(gnome.client.waitForLine(from: before, where: { $0 == "wrote \(path)" }), "\(gnome.client.lines.suffix(4))")
        return try Bitmap(contentsOfPNGFile: path)
    }

    @Test("setFullscreen(true) makes the decorated window cover the monitor with the fullscreen state; setFullscreen(false) brings it back to its size")
    func fullscreenAndBack() throws {
        let gnome = try MutterRemoteInput(clientArguments: ["--decorated"])
        let client = gnome.client
        try #require(client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil)
        let floating = [12, 12, 200, 182]
        #expect(Self.waitForGeometry(gnome, floating), "\(client.lines.suffix(6))")

        var seen = client.lines.count
        client.send("fullscreen 1")
        #expect(client.waitForLine(from: seen, where: { $0.hasPrefix("states ") && $0.contains("fullscreen") }) != nil,
            "\(client.lines.suffix(6))")
        // The headless monitor is 800×600: fullscreen, the window geometry is all of it.
        #expect(Self.waitForGeometry(gnome, from: seen, [0, 0, 800, 600]), "\(client.lines.suffix(6))")

        seen = client.lines.count
        client.send("fullscreen 0")
        #expect(client.waitForLine(from: seen, where: { $0.hasPrefix("states ") && !$0.contains("fullscreen") }) != nil,
            "\(client.lines.suffix(6))")
        #expect(Self.waitForGeometry(gnome, from: seen, floating), "windowed again: \(client.lines.suffix(6))")
        gnome.stop()
    }

    @Test("Maximize by double-clicking the title bar, restore the same way: the window comes back at its earlier size and pixels")
    func maximizeAndRestore() throws {
        let (gnome, origin) = try Self.start()
        let client = gnome.client
        let floating = [12, 12, 200, 182]
        #expect(Self.waitForGeometry(gnome, floating), "\(client.lines.suffix(6))")
        // Settled before the snapshot: the window is activated once it has a pointer focus.
        var seen = client.lines.count
        client.send("settle")
        _ = try #require(client.waitForLine(from: seen, where: { $0.hasPrefix("settled ") }))
        let before = try Self.snapshot(gnome)

        seen = client.lines.count
        gnome.move(to: origin.x + 60, origin.y + DecorationTests.Layout.titleBarMiddle)
        #expect(Self.doubleClick(gnome, from: seen) { $0.hasPrefix("states ") && $0.contains("maximized") },
            "\(client.lines.suffix(6))")
        // The headless monitor is 800×600 with no panel: maximized, the window is all of it.
        #expect(Self.waitForGeometry(gnome, from: seen, [0, 0, 800, 600]), "\(client.lines.suffix(6))")

        seen = client.lines.count
        gnome.move(to: 300, 16)
        #expect(Self.doubleClick(gnome, from: seen) { $0.hasPrefix("states ") && !$0.contains("maximized") },
            "\(client.lines.suffix(6))")
        #expect(Self.waitForGeometry(gnome, from: seen, floating), "restored: \(client.lines.suffix(6))")
        // The restored window's pixels are the ones before maximizing (the pointer rests on
        // the content, away from the buttons, as before).
        gnome.move(to: origin.x + 100, origin.y + 120)
        seen = client.lines.count
        client.send("settle")
        _ = try #require(client.waitForLine(from: seen, where: { $0.hasPrefix("settled ") }))
        let after = try Self.snapshot(gnome)
        #expect(after.width == before.width && after.height == before.height, "\(after.width)×\(after.height)")
        if after.width == before.width && after.height == before.height {
            #expect(Bitmap.difference(before, after, tolerance: 0).differingPixelCount == 0)
        }
        gnome.stop()
    }

    @Test("Dragging a corner to the smallest size leaves the title readable beside the buttons (not just …)")
    func smallestWindowKeepsATitle() throws {
        let (gnome, origin) = try Self.start()
        let client = gnome.client
        #expect(Self.waitForGeometry(gnome, [12, 12, 200, 182]), "\(client.lines.suffix(6))")
        // Press in the bottom-right corner of the shadow and drag far up and left.
        let seen = client.lines.count
        gnome.move(to: origin.x + 12 + 200 + 6, origin.y + 12 + 182 + 6)
        gnome.send("button 272 down")
        // mutter has started the resize once it says so in a configure.
        #expect(client.waitForLine(from: seen, where: { $0.hasPrefix("states ") && $0.contains("resizing") }) != nil,
            "\(client.lines.suffix(6))")
        gnome.move(to: origin.x + 20, origin.y + 20)
        _ = client.waitForLine(from: seen, where: { Self.geometry($0) == [12, 12, 188, 72] })
        gnome.send("button 272 up")
        // The minimum: 188 × 72 (the buttons, the title's margins and 72 points of it; 40
        // of content under the 32-point bar).
        #expect(Self.waitForGeometry(gnome, from: seen, [12, 12, 188, 72]), "\(client.lines.suffix(6))")
        let settled = client.lines.count
        client.send("settle")
        _ = try #require(client.waitForLine(from: settled, where: { $0.hasPrefix("settled ") }))
        let bitmap = try Self.snapshot(gnome)
        // The title's glyphs: dark pixels in the bar left of the buttons (bar x 0..<92).
        var columns: [Int] = []
        for x in 0..<92 {
            let dark = (12 + 4..<12 + 28).contains { y in bitmap.color(x: 12 + x, y: y).red < 0.5 }
            if dark { columns.append(x) }
        }
        let extent = (columns.last ?? 0) - (columns.first ?? 0)
        // "…" alone is about 13 points wide; "Damask…" over 50.
        #expect(extent >= 45, "title ink spans \(extent) points: \(columns)")
        // And it stops before the minimize button's disc area.
        #expect((columns.last ?? 0) <= 188 - 96 - 10 + 1, "\(columns)")
        gnome.stop()
    }
}

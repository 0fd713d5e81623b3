import DamaskGraphics
import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// Buffer scale: rounding of fractional sizes, redrawing at a new scale, and a real Weston
/// output at scale 2.
@Suite("Scale", .serialized, .exclusive, .timeLimit(.minutes(5)))
struct ScaleTests {
    @Test("Pixel sizes round half away from zero and survive the round trip back to points")
    func fractionalRounding() {
        #expect(WaylandSurface.pixels(101, 1.25) == 126)   // 126.25
        #expect(WaylandSurface.pixels(3, 1.5) == 5)        // 4.5 rounds up
        #expect(WaylandSurface.pixels(7, 1.5) == 11)       // 10.5 rounds up
        #expect(WaylandSurface.pixels(200, 2) == 400)
        for scale in [1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 3.0] {
            for points in [1.0, 99, 100, 101, 333, 1024] {
                let pixels = WaylandSurface.pixels(points, scale)
                // wp_viewport maps the buffer back onto `points`: the buffer must cover it
                // to within one pixel, never more.
                #expect(abs(CGFloat(pixels) - points * scale) <= 0.5, "\(points) pt at \(scale)")
                #expect((CGFloat(pixels) / scale).rounded(.toNearestOrAwayFromZero) == points)
            }
        }
    }

    @Test("A scale change redraws every drawing layer at the new scale, with damage in buffer pixels")
    @MainActor func scaleChangeRedraws() async throws {
        let surface = MemorySurface(size: CGSize(width: 224, height: 206), scale: 1)
        let window = Window(surface: surface)
        window.flashesDamage = false
        window.backgroundColor = .clear
        let frame = WindowFrameView(contentView: View(), title: "Scale")
        frame.apply(states: [.activated])
        window.contentView = frame
        window.flush()
        let drawsAtOne = window.drawCount
        #expect(frame.titleBar.layer.contentsScale == 1)

        surface.resize(to: surface.size, scale: 2)
        window.flush()
        #expect(frame.titleBar.layer.contentsScale == 2)
        #expect(frame.titleBar.closeButton.layer.contentsScale == 2)
        #expect(window.drawCount > drawsAtOne)
        let commit = try #require(surface.commits.last)
        #expect(commit.width == 448 && commit.height == 412)
        #expect(commit.damage.boundingBox == CGRect(x: 0, y: 0, width: 448, height: 412))
    }

    @Test("Under Weston at scale 2 the buffer is twice the size, damage is in buffer pixels and one-pixel detail stays sharp", .integration)
    func westonScaleTwo() throws {
        let weston = try PrivateCompositor(.weston(scale: 2, size: "800x600"))
        let client = try InputTestClient(environment: weston.clientEnvironment)
        let ready = try #require(client.waitForLine(where: { $0.hasPrefix("ready ") }))
        #expect(ready.line.hasPrefix("ready 400 300 "))
        let surfaceID = ready.line.split(separator: " ").last.map(String.init) ?? ""
        try #require(client.waitForLine(where: { $0.hasPrefix("commit 1 ") }) != nil)
        #expect(!weston.waitForLogLines(containing: "wl_surface@\(surfaceID).set_buffer_scale(2)").isEmpty)

        // A 10×10-point mark is a 20×20-pixel damage rect.
        let before = client.lines.count
        client.send("mark 10 10 10 10")
        let commit = try #require(client.waitForLine(from: before, where: { $0.hasPrefix("commit ") }))
        #expect(commit.line.hasSuffix(" 20,20,20,20"))
        #expect(!weston.waitForLogLines(containing: "wl_surface@\(surfaceID).damage_buffer(20, 20, 20, 20)").isEmpty)

        // A half-point mark is exactly one buffer pixel, and one screen pixel.
        let next = client.lines.count
        client.send("mark 50 50 0.5 0.5")
        let single = try #require(client.waitForLine(from: next, where: { $0.hasPrefix("commit ") }))
        #expect(single.line.hasSuffix(" 100,100,1,1"))
        // Weston has handled the commit (logged what follows its damage) before the shot.
        weston.waitForLogLines(containing: "wl_surface@\(surfaceID).") { lines in
            guard let damage = lines.lastIndex(where: { $0.hasSuffix("damage_buffer(100, 100, 1, 1)") }) else { return false }
            return lines[damage...].contains { $0.contains(".commit()") }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-scale-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try weston.screenshot(to: path)
        let shot = try Bitmap(contentsOfPNGFile: path)
        let origin = try #require(Self.topLeft(of: 0x1E90C8, in: shot))
        let red: UInt32 = 0xFF0000, green: UInt32 = 0x00FF00, blue: UInt32 = 0x1E90C8
        func rgb(_ x: Int, _ y: Int) -> UInt32 { shot.pixel(x: origin.x + x, y: origin.y + y) & 0xFF_FFFF }
        // The 10-point mark was red, so the pixel mark is the second colour (green).
        #expect(rgb(20, 20) == red && rgb(39, 39) == red && rgb(40, 40) == blue)
        #expect(rgb(100, 100) == green)
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            #expect(rgb(100 + dx, 100 + dy) == blue, "neighbour \(dx),\(dy)")
        }
        client.send("quit")
        #expect(client.waitForExit() == 0)
    }

    private static func topLeft(of color: UInt32, in bitmap: Bitmap) -> (x: Int, y: Int)? {
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == color {
                return (x, y)
            }
        }
        return nil
    }
}

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// A decorated window's content stays inside the content area: a view overhanging the
/// content's right edge leaves no pixel in the shadow, under Weston (scale 1 and 2) and
/// mutter.
@Suite("Content clipped to the content area", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct ContentClippingTests {
    static let shadow = 12
    static let titleBar = 32

    /// Plays the overhang in the decorated test client (200×150 content) on `compositor`
    /// and checks the presented buffer's right shadow strip.
    func checkOverhangIsClipped(on compositor: PrivateCompositor) throws {
        let client = try ClientProcess(FoundationTests.testClient, ["--decorated"], environment: compositor.clientEnvironment)
        let ready = try #require(client.waitForLine { $0.hasPrefix("ready") }, "\(client.standardError)")
        let parts = ready.split(separator: " ").compactMap { Int($0) }
        let scale = parts[0] / (200 + 2 * Self.shadow)
        try #require(scale >= 1 && parts[0] == scale * (200 + 2 * Self.shadow), "\(ready)")
        // A gold box from x 150 to 350 in a 200-point-wide content view: 150 points past
        // the content's right edge, through the shadow and beyond the surface.
        client.send("box 150 20 200 40")
        // Presented: the client answers "settled" after its next display pass.
        let seen = client.outputLines.count
        client.send("settle")
        _ = try #require(client.waitForLine(skipping: seen, where: { $0.hasPrefix("settled ") }), "\(client.outputLines.suffix(4))")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-\(getpid())-clip-\(scale).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        client.send("snapshot \(path)")
        _ = try #require(client.waitForLine { $0 == "wrote \(path)" }, "\(client.outputLines.suffix(4))")
        let bitmap = try Bitmap(contentsOfPNGFile: path)
        client.send("quit")
        _ = client.waitForExit(timeout: 5)

        // The box is there inside the content area…
        let inside = bitmap.color(x: (Self.shadow + 175) * scale, y: (Self.shadow + Self.titleBar + 40) * scale)
        #expect(inside.red > 0.9 && inside.green > 0.75 && inside.blue < 0.1, "box inside the content: \(inside)")
        // …and the right shadow strip, in the rows the box crosses, equals the same strip in
        // rows the box does not reach (the shadow depends only on the distance to the edge).
        let windowRight = (Self.shadow + 200) * scale
        let referenceRow = (Self.shadow + Self.titleBar + 120) * scale
        var leaked: [String] = []
        for y in ((Self.shadow + Self.titleBar + 20) * scale)..<((Self.shadow + Self.titleBar + 60) * scale) {
            for x in windowRight..<bitmap.width where bitmap.pixel(x: x, y: y) != bitmap.pixel(x: x, y: referenceRow) {
                leaked.append("\(x),\(y)")
            }
        }
        #expect(leaked.count == 0, "content pixels in the shadow, first \(leaked.prefix(5))")
    }

    @Test("Under Weston at scale 1 no content pixel reaches the shadow")
    func westonScale1() throws {
        try checkOverhangIsClipped(on: try PrivateCompositor(.weston()))
    }

    @Test("Under Weston at scale 2 no content pixel reaches the shadow")
    func westonScale2() throws {
        try checkOverhangIsClipped(on: try PrivateCompositor(.weston(scale: 2)))
    }

    @Test("Under mutter no content pixel reaches the shadow")
    func mutter() throws {
        try checkOverhangIsClipped(on: try PrivateCompositor(.gnome()))
    }
}

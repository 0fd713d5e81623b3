import DamaskGraphics
import Foundation
import Testing
import DamaskTestSupport

/// Xvfb + Weston's x11 backend + one `damask-test-client`: a window that receives real X
/// input through `xdotool`.
///
/// Owns the three processes (client first, then Weston, then Xvfb are stopped in `deinit`).
/// Weston's output window sits at the X screen's top-left, so X pointer coordinates are
/// output coordinates; ``locateWindow()`` finds where Weston placed the client's surface.
final class NestedWestonSession {
    let display: XvfbDisplay
    let compositor: PrivateCompositor
    let client: InputTestClient
    /// The surface's top-left in X screen coordinates, once located.
    private(set) var origin: (x: Int, y: Int)?

    /// Output size of the nested Weston.
    static let outputSize = (width: 800, height: 600)

    init(clientArguments: [String] = []) throws {
        display = try XvfbDisplay()
        // Weston's x11 backend occasionally fails to come up on a fresh X server; one retry.
        var attempt = 0
        while true {
            attempt += 1
            let compositor = try PrivateCompositor(
                .westonX11(display: display.name, size: "\(Self.outputSize.width)x\(Self.outputSize.height)"))
            let client = try InputTestClient(arguments: clientArguments, environment: compositor.clientEnvironment)
            if client.waitForLine(timeout: 20, where: { $0.hasPrefix("ready ") }) != nil {
                self.compositor = compositor
                self.client = client
                break
            }
            compositor.stop()
            if attempt == 2 { throw SessionError.clientNotReady(client.lines.joined(separator: "\n")) }
        }
    }

    deinit {
        _ = client.waitForExit(timeout: 0)
        compositor.stop()
        display.stop()
    }

    enum SessionError: Error {
        case clientNotReady(String)
        case windowNotFound([String])
    }

    /// Finds the surface on a Weston screenshot (the content view's colour, placed where the
    /// client's "content" line says), then checks the offset by entering at a known point.
    @discardableResult
    func locateWindow() throws -> (x: Int, y: Int) {
        if let origin { return origin }
        let content = try #require(client.waitForLine(where: { $0.hasPrefix("content ") }))
        let frame = content.line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(frame.count == 4)
        for _ in 0..<3 {
            try display.xdotool("mousemove", "0", "0")
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("damask-input-\(getpid())-\(TemporaryName.next()).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try compositor.screenshot(to: path)
            let bitmap = try Bitmap(contentsOfPNGFile: path)
            if let box = Self.boundingBox(of: Self.contentColor, in: bitmap) {
                let candidate = (x: box.x - frame[0], y: box.y - frame[1])
                if try verify(candidate) {
                    origin = candidate
                    return candidate
                }
            }
            usleep(200_000)
        }
        throw SessionError.windowNotFound(client.lines)
    }

    /// The test client's content colour (#1E90C8).
    static let contentColor: UInt32 = 0x1E90C8

    /// The top-left of the pixels of `color` (0xRRGGBB) in `bitmap`.
    private static func boundingBox(of color: UInt32, in bitmap: Bitmap) -> (x: Int, y: Int)? {
        var (minX, minY) = (Int.max, Int.max)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) & 0xFF_FFFF == color {
                (minX, minY) = (min(minX, x), min(minY, y))
            }
        }
        return minX == Int.max ? nil : (minX, minY)
    }

    private func verify(_ candidate: (x: Int, y: Int)) throws -> Bool {
        // The pointer is at the output's corner, away from the window: entering at surface
        // point (20, 20) must say so.
        let before = client.lines.count
        try display.xdotool("mousemove", "\(candidate.x + 20)", "\(candidate.y + 20)")
        return client.waitForLine(from: before, timeout: 2, where: { $0 == "enter 20 20" }) != nil
    }

    /// Moves the pointer to surface point (x, y).
    func move(to x: Int, _ y: Int) throws {
        let origin = try locateWindow()
        try display.xdotool("mousemove", "\(origin.x + x)", "\(origin.y + y)")
    }

    /// Clicks button 1 at surface point (x, y).
    func click(at x: Int, _ y: Int) throws {
        try move(to: x, y)
        try display.xdotool("click", "1")
    }
}

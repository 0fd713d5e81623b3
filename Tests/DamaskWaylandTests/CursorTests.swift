import DamaskTestSupport
import DamaskViews
import Foundation
import Testing

@testable import DamaskWayland

/// Cursor themes loaded for a buffer scale, and the built-in arrow.
@Suite("Cursors", .serialized, .exclusive, .integration, .timeLimit(.minutes(10))) @MainActor
struct CursorTests {
    /// Connects this process to a private headless Weston (for `wl_shm`).
    func withConnection(_ body: (WaylandConnection) throws -> Void) throws {
        let weston = try PrivateCompositor(.weston())
        let connection = try WaylandConnection(name: weston.socketPath)
        try body(connection)
        connection.close()
    }

    @Test("A theme loads at size × scale so cursors stay sharp on scaled outputs")
    func themeScales() throws {
        try withConnection { connection in
            let shm = try #require(connection.shm)
            let one = CursorTheme(shm: shm, scale: 1, name: "Adwaita", size: 24)
            let two = CursorTheme(shm: shm, scale: 2, name: "Adwaita", size: 24)
            #expect(one.hasTheme && two.hasTheme)
            let small = try #require(one.image(for: .arrow))
            let large = try #require(two.image(for: .arrow))
            #expect(!small.isBuiltIn)
            #expect(large.width == 2 * small.width && large.height == 2 * small.height)
            #expect(abs(large.hotspotX - 2 * small.hotspotX) <= 2)
            one.destroy()
            two.destroy()
        }
    }

    @Test("Every shape finds an image, resize edges included, and hidden has none")
    func everyShapeHasAnImage() throws {
        try withConnection { connection in
            let theme = try #require(connection.cursorTheme(scale: 1))
            var shapes: [CursorShape] = [.arrow, .pointingHand, .text]
            shapes += ResizeEdge.allCases.map { CursorShape.resize($0) }
            for shape in shapes {
                #expect(theme.image(for: shape) != nil, "\(shape)")
            }
            #expect(theme.image(for: .hidden) == nil)
            #expect(connection.cursorTheme(scale: 1) === theme)
        }
    }

    @Test("Without any theme the built-in arrow is used, drawn at the buffer scale")
    func builtInArrow() throws {
        try withConnection { connection in
            let shm = try #require(connection.shm)
            let theme = CursorTheme(shm: shm, scale: 3, name: "no-such-theme", size: 24)
            let arrow = try #require(theme.builtInImage())
            #expect(arrow.isBuiltIn)
            #expect(arrow.width == 11 * 3 && arrow.height == 17 * 3)
            #expect(arrow.hotspotX == 0 && arrow.hotspotY == 0)
            // Any shape has an image even when the theme lacks it.
            #expect(theme.image(for: .resize(.topLeft)) != nil)
            theme.destroy()
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

@Suite("Color", .timeLimit(.minutes(5)))
struct ColorTests {
    @Test("hex parsing accepts #rrggbb and #rrggbbaa and rejects anything else")
    func hexParsing() throws {
        let c = try #require(Color(hex: "#ff8000"))
        #expect(c.red == 1 && abs(c.green - 128.0 / 255) < 1e-9 && c.blue == 0 && c.alpha == 1)
        let translucent = try #require(Color(hex: "#00000080"))
        #expect(abs(translucent.alpha - 128.0 / 255) < 1e-9)
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "#gg0000") == nil)
        #expect(Color(hex: "") == nil)
    }

    @Test("premultipliedARGB32 multiplies colour by alpha and rounds")
    func premultiplication() {
        #expect(Color.red.premultipliedARGB32 == 0xFFFF_0000)
        #expect(Color(red: 1, green: 1, blue: 1, alpha: 0.5).premultipliedARGB32 == 0x8080_8080)
        #expect(Color.clear.premultipliedARGB32 == 0)
        #expect(Color(white: 0, alpha: 1).premultipliedARGB32 == 0xFF00_0000)
    }

    @Test("components are clamped to 0…1 and NaN becomes 0")
    func clamping() {
        let c = Color(red: 2, green: -1, blue: .nan, alpha: 7)
        #expect(c == Color(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(Color.blue.withAlphaComponent(0.25).alpha == 0.25)
    }

    @Test("a premultiplied pixel round-trips through Color")
    func pixelRoundTrip() {
        let pixel: UInt32 = 0x80_40_20_10
        #expect(Color(premultipliedARGB32: pixel).premultipliedARGB32 == pixel)
    }
}

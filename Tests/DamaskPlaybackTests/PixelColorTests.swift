import Testing

@testable import DamaskPlayback

@Suite("Pixel colours", .timeLimit(.minutes(5)))
struct PixelColorTests {
    @Test("hex parsing accepts #rrggbb in either case and nothing else")
    func hexParsing() {
        #expect(PixelColor(hex: "#FFa500") == PixelColor(red: 255, green: 165, blue: 0))
        #expect(PixelColor(hex: "#FFa500")?.description == "#ffa500")
        for bad in ["ffa500", "#ffa50", "#ffa5000", "#gga500", "#ffa50\u{301}", ""] {
            #expect(PixelColor(hex: bad) == nil, "\(bad)")
        }
    }

    @Test("premultiplied pixels are un-premultiplied")
    func unpremultiplies() {
        #expect(PixelColor(argb32: 0xFF10_2030) == PixelColor(red: 0x10, green: 0x20, blue: 0x30))
        #expect(PixelColor(argb32: 0x8080_4000) == PixelColor(red: 255, green: 128, blue: 0))
        #expect(PixelColor(argb32: 0x0000_0000) == PixelColor(red: 0, green: 0, blue: 0))
    }

    @Test("distance is the largest channel difference")
    func distance() {
        let a = PixelColor(red: 10, green: 200, blue: 30)
        #expect(a.distance(to: PixelColor(red: 13, green: 195, blue: 30)) == 5)
        #expect(a.distance(to: a) == 0)
    }
}

@testable import DamaskInspect
import Testing

@Suite("Damage geometry")
struct DamageGeometryTests {
    @Test("Overlapping damage rects count their shared pixels once")
    func overlapsCountOnce() {
        let bounds = PixelRect(x: 0, y: 0, width: 100, height: 100)
        let region = DamageRegion([PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 5, y: 5, width: 10, height: 10)], clippedTo: bounds)
        #expect(region.area == 175)
        #expect(region.contains(x: 12, y: 12))
        #expect(!region.contains(x: 12, y: 2))
        #expect(DamageRegion([PixelRect(x: -5, y: -5, width: 1 << 30, height: 10)], clippedTo: bounds).area == 500)
    }

    @Test("Surface damage maps to buffer pixels through scale, transform and viewport")
    func surfaceDamageMapsToBufferPixels() {
        var geometry = SurfaceGeometry()
        geometry.scale = 2
        #expect(geometry.bufferRect(fromSurface: PixelRect(x: 1, y: 1, width: 2, height: 3), bufferWidth: 100, bufferHeight: 100)
            == PixelRect(x: 2, y: 2, width: 4, height: 6))
        geometry.scale = 1
        geometry.transform = 1  // 90°: the surface is 50 wide, 100 tall for a 100×50 buffer
        #expect(geometry.bufferRect(fromSurface: PixelRect(x: 0, y: 0, width: 10, height: 20), bufferWidth: 100, bufferHeight: 50)
            == PixelRect(x: 0, y: 40, width: 20, height: 10))
        geometry.transform = 0
        geometry.source = (x: 10, y: 10, width: 20, height: 20)
        geometry.destination = (width: 40, height: 40)
        #expect(geometry.bufferRect(fromSurface: PixelRect(x: 0, y: 0, width: 4, height: 4), bufferWidth: 100, bufferHeight: 100)
            == PixelRect(x: 10, y: 10, width: 2, height: 2))
        #expect(geometry.bufferRect(fromSurface: PixelRect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max)), bufferWidth: 100, bufferHeight: 100)
            == PixelRect(x: 10, y: 10, width: 90, height: 90))
    }
}

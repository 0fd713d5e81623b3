@testable import DamaskInspect
import Testing

@Suite("Damage geometry", .timeLimit(.minutes(5)))
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

    @Test("Extreme but decodable geometry (scale 2³¹−1, an 8-million-wide viewport source shown at 1×1, INT32_MAX damage) maps to a clipped rect instead of trapping")
    func extremeGeometryDoesNotTrap() {
        var geometry = SurfaceGeometry()
        geometry.scale = Int(Int32.max)
        geometry.source = (x: -8_388_608, y: 8_388_607, width: 8_388_607, height: 8_388_607)
        geometry.destination = (width: 1, height: 1)
        for transform in 0..<8 {
            geometry.transform = transform
            let everything = PixelRect(x: Int(Int32.min), y: Int(Int32.min), width: Int(Int32.max), height: Int(Int32.max))
            let huge = PixelRect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))
            for rect in [everything, huge] {
                let mapped = geometry.bufferRect(fromSurface: rect, bufferWidth: 64, bufferHeight: 32)
                // Empty, or inside the buffer.
                #expect(mapped.width >= 0 && mapped.height >= 0, "transform \(transform): \(mapped)")
                #expect(mapped.isEmpty || (mapped.x >= 0 && mapped.y >= 0 && mapped.x + mapped.width <= 64 && mapped.y + mapped.height <= 32),
                        "transform \(transform): \(mapped)")
            }
        }
    }
}

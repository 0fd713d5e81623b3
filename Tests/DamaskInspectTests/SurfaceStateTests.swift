@testable import DamaskInspect
import Foundation
import Testing

/// The surface state the tracker models, as a compositor applies it: which damage counts,
/// which pixels are visible, what is compared when the geometry changes, and when cached
/// state of sub-surfaces takes effect. Known answers, fed as a client would send them.
@Suite("Surface state model")
struct SurfaceStateTests {
    typealias Fixture = DamageTrackerTests.Fixture

    @Test("Damage with a negative or zero width or height is ignored, as compositors ignore it: it does not hide the change it seems to cover", arguments: [true, false])
    func invalidDamageIsIgnored(bufferDamage: Bool) throws {
        let f = try Fixture()
        f.commitBaseline()
        f.write(buffer: 7, x: 10, y: 6, 0x00ff00)
        f.write(buffer: 7, x: 2, y: 1, 0x00ff00)
        // (12, 7) with −4 × −4 would be (8, 3, 4, 4) if flipped; (0, 0, 0, 8) has no area.
        f.commit(buffer: 7, damage: [
            PixelRect(x: 12, y: 7, width: -4, height: -4), PixelRect(x: 0, y: 0, width: 0, height: 8),
            PixelRect(x: 2, y: 1, width: 1, height: 1),
        ], bufferDamage: bufferDamage)
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 2)
        #expect(record.damage == [PixelRect(x: 2, y: 1, width: 1, height: 1)])
        #expect(record.damagePixels == 1)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 10, y: 6, width: 1, height: 1))
    }
}

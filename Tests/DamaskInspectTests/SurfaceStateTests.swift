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

    @Test("A desynchronized sub-surface under a synchronized one is applied at the grandparent's commit, even when its parent cached nothing: its undamaged change is under-damage there")
    func nestedDesyncUnderSyncIsAppliedWithTheAncestor() throws {
        let f = try Fixture()
        f.makeSubsurface()  // 10: synchronized sub-surface of 11
        f.tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(14, interface: "wl_surface", version: 0)])
        f.tracker.request(objectID: 4, interface: "wl_subcompositor", message: "get_subsurface",
                          values: [.newID(15, interface: "wl_subsurface", version: 0), .object(14), .object(10)])
        f.tracker.request(objectID: 15, interface: "wl_subsurface", message: "set_desync", values: [])
        func commitGrandchild(damage: [PixelRect]) {
            f.tracker.request(objectID: 14, interface: "wl_surface", message: "attach", values: [.object(8), .int(0), .int(0)])
            for rect in damage {
                f.tracker.request(objectID: 14, interface: "wl_surface", message: "damage_buffer",
                                  values: [.int(Int32(rect.x)), .int(Int32(rect.y)), .int(Int32(rect.width)), .int(Int32(rect.height))])
            }
            f.tracker.request(objectID: 14, interface: "wl_surface", message: "commit", values: [])
        }
        commitGrandchild(damage: [PixelRect(x: 0, y: 0, width: 16, height: 8)])
        #expect(!f.records.contains { $0.surface == 14 }, "cached: the parent is synchronized")
        f.commitParent()
        #expect(f.records.last { $0.surface == 14 }?.content == .new)
        f.release(8)
        f.write(buffer: 8, x: 5, y: 5, 0x00ff00)
        commitGrandchild(damage: [])
        f.commitParent()
        let applied = try #require(f.records.last { $0.surface == 14 })
        #expect(applied.commit == 2)
        #expect(applied.content == .compared)
        #expect(applied.changedPixels == 1)
        #expect(applied.underDamagePixels == 1)
        // A later damaged commit is a record of its own.
        f.release(8)
        f.write(buffer: 8, x: 6, y: 5, 0x00ff00)
        commitGrandchild(damage: [PixelRect(x: 6, y: 5, width: 1, height: 1)])
        f.commitParent()
        let next = try #require(f.records.last { $0.surface == 14 })
        #expect(next.commit == 3)
        #expect(next.changedPixels == 1)
        #expect(next.underDamagePixels == 0)
    }

    @Test("set_desync applies what a synchronized sub-surface cached, at once")
    func setDesyncAppliesTheCache() throws {
        let f = try Fixture()
        f.makeSubsurface()
        f.commitWhole(7)
        #expect(f.records.isEmpty)
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "set_desync", values: [])
        #expect(f.records.last?.surface == 10)
        #expect(f.records.last?.content == .new)
    }

    @Test("A write into a buffer committed to a synchronized sub-surface, before the parent's commit applies it, is a held write")
    func writeIntoCachedBufferIsHeldWrite() throws {
        let f = try Fixture()
        f.makeSubsurface()
        f.commitWhole(7)
        f.commitParent()
        f.release(7)
        f.write(buffer: 7, x: 2, y: 2, 0x00ff00)
        f.commitWhole(7)  // cached, with the change
        f.write(buffer: 7, x: 4, y: 4, 0x00ff00)  // after the commit: the compositor may be reading
        f.commitParent()
        let record = try #require(f.records.last { $0.surface == 10 })
        #expect(record.heldWrite)
        #expect(record.isOffending)
        // A cached buffer the client leaves alone is no held write.
        f.release(7)
        f.write(buffer: 7, x: 6, y: 6, 0x00ff00)
        f.commitWhole(7)
        f.commitParent()
        #expect(f.records.last { $0.surface == 10 }?.heldWrite == false)
        #expect(!f.records.contains { $0.kind == .heldWrite })
    }

    @Test("Sub-surfaces made each other's parent (a protocol error the compositor sends) do not send the tracker round the loop")
    func subsurfaceCycleTerminates() throws {
        let f = try Fixture()
        f.makeSubsurface()  // 10 under 11
        f.tracker.request(objectID: 4, interface: "wl_subcompositor", message: "get_subsurface",
                          values: [.newID(13, interface: "wl_subsurface", version: 0), .object(11), .object(10)])
        f.commitWhole(7)
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "set_desync", values: [])
        f.tracker.request(objectID: 11, interface: "wl_surface", message: "commit", values: [])
        #expect(f.records.count < 200)
    }
}

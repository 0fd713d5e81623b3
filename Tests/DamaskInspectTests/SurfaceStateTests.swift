@testable import DamaskInspect
import Foundation
import Testing

/// The surface state the tracker models, as a compositor applies it: which damage counts,
/// which pixels are visible, what is compared when the geometry changes, and when cached
/// state of sub-surfaces takes effect. Known answers, fed as a client would send them.
@Suite("Surface state model", .timeLimit(.minutes(5)))
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

    /// Gives surface 10 viewport 20 with `source` (surface units) and `destination`.
    static func viewport(_ f: Fixture, source: (Double, Double, Double, Double)? = nil, destination: (Int32, Int32)? = nil) {
        f.tracker.request(objectID: 2, interface: "wp_viewporter", message: "get_viewport",
                          values: [.newID(20, interface: "wp_viewport", version: 0), .object(10)])
        if let source {
            f.tracker.request(objectID: 20, interface: "wp_viewport", message: "set_source",
                              values: [source.0, source.1, source.2, source.3].map { .fixed(Int32($0 * 256)) })
        }
        if let destination {
            f.tracker.request(objectID: 20, interface: "wp_viewport", message: "set_destination", values: [.int(destination.0), .int(destination.1)])
        }
    }

    @Test("A change outside the viewport's source crop is never shown: not under-damage; one inside it is")
    func changeOutsideSourceCropIsNotUnderDamage() throws {
        let f = try Fixture()
        Self.viewport(f, source: (4, 0, 8, 8))
        f.commitBaseline()
        f.write(buffer: 7, x: 1, y: 1, 0x00ff00)   // left of the crop
        f.write(buffer: 7, x: 14, y: 6, 0x00ff00)  // right of it
        f.write(buffer: 7, x: 5, y: 2, 0x00ff00)   // inside
        f.commit(buffer: 7, damage: [])
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 3)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 5, y: 2, width: 1, height: 1))
    }

    @Test("Damage covering part of a buffer pixel shown 4× larger leaves the rest of it stale: under-damage; covering all of it is not")
    func damageSmallerThanABufferPixel() throws {
        let f = try Fixture()
        Self.viewport(f, destination: (64, 32))  // each buffer pixel shows as 4×4 surface pixels
        f.commitBaseline()
        f.write(buffer: 7, x: 2, y: 1, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 8, y: 4, width: 2, height: 2)], bufferDamage: false)
        let partial = try #require(f.records.last)
        #expect(partial.damage == [PixelRect(x: 2, y: 1, width: 1, height: 1)])  // as mutter rounds it
        #expect(partial.changedPixels == 1)
        #expect(partial.underDamagePixels == 1)
        f.release(7)
        f.write(buffer: 7, x: 2, y: 1, 0x0000ff)
        f.commit(buffer: 7, damage: [PixelRect(x: 8, y: 4, width: 3, height: 2), PixelRect(x: 8, y: 6, width: 4, height: 2), PixelRect(x: 11, y: 4, width: 1, height: 2)], bufferDamage: false)
        let whole = try #require(f.records.last)
        #expect(whole.changedPixels == 1)
        #expect(whole.underDamagePixels == 0)
    }

    @Test("Buffer damage of one pixel, shown at a quarter of its size, does not cover its neighbour in the same surface pixel (mutter uploads only damaged buffer pixels)")
    func bufferDamageUnderDownscalingCoversOnlyItsPixels() throws {
        let f = try Fixture()
        Self.viewport(f, destination: (8, 4))  // 2×2 buffer pixels per surface pixel
        f.commitBaseline()
        f.write(buffer: 7, x: 0, y: 0, 0x00ff00)
        f.write(buffer: 7, x: 1, y: 0, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        let record = try #require(f.records.last)
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 1, y: 0, width: 1, height: 1))
    }

    @Test("A new buffer transform at the same surface size is compared on the surface, not new content")
    func transformChangeIsCompared() throws {
        let f = try Fixture()
        f.write(buffer: 7, x: 0, y: 0, 0xff0000)
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(2)])
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)], bufferDamage: false)
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.comparedOnSurface)
        // Red moves from surface (0, 0) to (15, 7); only (0, 0) is damaged.
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 15, y: 7, width: 1, height: 1))
        #expect(record.jsonLine.contains(#""space":"surface""#))
    }

    @Test("Surface damage left of or above the surface damages nothing on it when the geometry changes (its edges are clamped, not moved onto the surface)")
    func damageOutsideTheSurfaceStaysOutside() throws {
        let f = try Fixture()
        f.write(buffer: 7, x: 0, y: 0, 0xff0000)
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(2)])
        // Both rects end before the surface starts (x < 0, y < 0): they cover none of it.
        f.commit(buffer: 7, damage: [PixelRect(x: -20, y: 0, width: 19, height: 8), PixelRect(x: 0, y: -30, width: 16, height: 29)], bufferDamage: false)
        let record = try #require(f.records.last)
        #expect(record.comparedOnSurface)
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 2, "\(record)")
    }

    @Test("A buffer whose size is not a multiple of the scale (Weston 10 shows it; mutter refuses it): the rows and columns beyond the multiple are never shown, and a reversed transform maps surface damage from the multiple, as Weston does", arguments: [0, 2])
    func bufferSizeNotAMultipleOfTheScale(transform: Int32) throws {
        let f = try Fixture()  // 16×8 at scale 3: a 5×2 surface showing buffer pixels 0..<15 × 0..<6
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_scale", values: [.int(3)])
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(transform)])
        f.commitBaseline()
        f.write(buffer: 7, x: 15, y: 0, 0x00ff00)  // never shown
        f.write(buffer: 7, x: 3, y: 7, 0x00ff00)   // never shown
        // Surface pixel (0, 0) shows buffer 0..<3 × 0..<3, or under 180° 12..<15 × 3..<6.
        let (x, y) = transform == 0 ? (2, 2) : (12, 3)
        f.write(buffer: 7, x: x, y: y, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)], bufferDamage: false)
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 3)
        #expect(record.underDamagePixels == 0, "\(record)")
        // A shown pixel left undamaged is still under-damage.
        f.release(7)
        f.write(buffer: 7, x: 14 - x, y: 5 - y, 0x0000ff)
        f.commit(buffer: 7, damage: [])
        #expect(f.records.last?.underDamagePixels == 1)
    }

    @Test("A geometry change of a surface too large to compare on (a viewport destination of 100,000 × 100,000) is logged as new content instead of exhausting memory")
    func hugeSurfaceGeometryChangeIsNotComparedOnTheSurface() throws {
        let f = try Fixture()
        Self.viewport(f, destination: (100_000, 100_000))
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(2)])
        f.commit(buffer: 7, damage: [])
        let record = try #require(f.records.last)
        #expect(record.commit == 2)
        #expect(record.content == .new)
        #expect(!record.comparedOnSurface)
    }

    @Test("Coverage of a buffer shown at a viewport destination of 2³⁰ × 2³⁰ surface pixels is judged at once (by damage band, not surface row), and exactly", .timeLimit(.minutes(1)))
    func coverageOfAHugeDestinationIsQuick() throws {
        let f = try Fixture()
        let side: Int32 = 1 << 30  // each buffer pixel is 2²⁶ × 2²⁷ surface pixels
        Self.viewport(f, destination: (side, side))
        f.commitBaseline()
        f.write(buffer: 7, x: 1, y: 1, 0x00ff00)
        f.write(buffer: 7, x: 3, y: 1, 0x00ff00)
        let (w, h) = (Int(side) / 16, Int(side) / 8)
        // Buffer pixel (1, 1) damaged whole in two bands; (3, 1) only in its top half.
        f.commit(buffer: 7, damage: [
            PixelRect(x: w, y: h, width: w, height: h / 2), PixelRect(x: w, y: h + h / 2, width: w, height: h - h / 2),
            PixelRect(x: 3 * w, y: h, width: w, height: h / 2),
        ], bufferDamage: false)
        let start = Date()
        let record = try #require(f.records.last)
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 1, "\(record)")
        #expect(record.underDamageBounds == PixelRect(x: 3, y: 1, width: 1, height: 1))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("ARGB8888 content committed again as XRGB8888 is compared: only pixels that were not opaque change")
    func formatChangeIsCompared() throws {
        let f = try Fixture()
        f.tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                          values: [.newID(9, interface: "wl_buffer", version: 0), .int(0), .int(16), .int(8), .int(64), .uint(0)])
        for y in 0..<8 { for x in 0..<16 { f.write(buffer: 7, x: x, y: y, 0xff00_0000) } }
        f.write(buffer: 7, x: 3, y: 3, 0x8040_2010)
        f.commitWhole(9)
        f.release(9)
        f.commit(buffer: 7, damage: [])
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 1)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 3, y: 3, width: 1, height: 1))
    }

    @Test("A new surface size is new content")
    func newSurfaceSizeIsNew() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(1)])
        f.commit(buffer: 7, damage: [])
        #expect(f.records.last?.content == .new)
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

    @Test("A synchronized sub-surface whose parent was destroyed is never applied, also not by a new surface given the parent's object id; it is unmapped")
    func orphanedSubsurfaceIsNotAppliedByANewSurfaceWithItsParentsID() throws {
        let f = try Fixture()
        f.makeSubsurface()  // 10 under 11
        f.commitWhole(7)
        f.tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(14, interface: "wl_surface", version: 0)])
        f.tracker.request(objectID: 14, interface: "wl_surface", message: "attach", values: [.object(8), .int(0), .int(0)])
        f.commitParent()
        #expect(f.records.last { $0.surface == 10 }?.content == .new)
        f.release(7)
        f.write(buffer: 7, x: 3, y: 3, 0x00ff00)
        f.commit(buffer: 7, damage: [])  // cached: under-damage, if it were ever shown
        f.tracker.request(objectID: 11, interface: "wl_surface", message: "destroy", values: [])
        // libwayland gives the freed id to the client's next new object: here a new surface.
        f.tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(11, interface: "wl_surface", version: 0)])
        f.tracker.request(objectID: 11, interface: "wl_surface", message: "attach", values: [.object(8), .int(0), .int(0)])
        f.commitParent()
        #expect(f.records.filter { $0.surface == 10 }.count == 1, "\(f.records.filter { $0.surface == 10 })")
        #expect(!f.records.contains { $0.underDamagePixels > 0 })
        // Made a sub-surface of the new surface (after its wl_subsurface is destroyed), it is a new mapping.
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "destroy", values: [])
        f.tracker.request(objectID: 4, interface: "wl_subcompositor", message: "get_subsurface",
                          values: [.newID(15, interface: "wl_subsurface", version: 0), .object(10), .object(11)])
        f.commit(buffer: 7, damage: [])
        f.commitParent()
        #expect(f.records.last { $0.surface == 10 }?.content == .new)
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

    @Test("Under a flipped transform with a viewport, two damaged spans in the same rows each cover their change (the spans come in reversed order)")
    func flippedViewportWithTwoSpans() throws {
        let f = try Fixture()
        Self.viewport(f, destination: (32, 16))  // 2× upscale
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(4)])
        f.commitBaseline()
        f.write(buffer: 7, x: 2, y: 3, 0x00ff00)
        f.write(buffer: 7, x: 12, y: 3, 0x00ff00)
        // Buffer x 2 shows at surface x 26..<28, buffer x 12 at 6..<8 (flipped, 2×).
        f.commit(buffer: 7, damage: [PixelRect(x: 26, y: 6, width: 2, height: 2), PixelRect(x: 6, y: 6, width: 2, height: 2)], bufferDamage: false)
        let record = try #require(f.records.last)
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 0, "\(record)")
    }
}

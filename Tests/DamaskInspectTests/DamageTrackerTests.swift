@testable import DamaskInspect
import Foundation
import Testing

/// The tracker fed decoded messages directly (no sockets), over a real shared-memory file,
/// as a client would send them.
@Suite("Damage tracking", .timeLimit(.minutes(5)))
struct DamageTrackerTests {
    /// A 16×8 XRGB8888 pool in a temporary file the test writes pixels into.
    final class Fixture {
        let path: String
        let fd: Int32
        var records: [CommitRecord] = []
        var evidence: [CommitEvidence] = []
        lazy var tracker = DamageTracker(client: 1, clock: { 0 }) { [unowned self] record, pixels in
            records.append(record)
            if let pixels { evidence.append(pixels) }
        }
        let width = 16, height = 8

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-\(getpid())-\(UUID().uuidString)").path
            fd = open(path, O_RDWR | O_CREAT, 0o600)
            guard fd >= 0, ftruncate(fd, off_t(2 * 16 * 8 * 4)) == 0 else { throw POSIXError(.EIO) }
            tracker.request(objectID: 5, interface: "wl_shm", message: "create_pool", values: [.newID(6, interface: "wl_shm_pool", version: 0), .fd(fd), .int(1024)])
            for (buffer, offset) in [(7, 0), (8, 512)] {
                tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                                values: [.newID(UInt32(buffer), interface: "wl_buffer", version: 0), .int(Int32(offset)), .int(16), .int(8), .int(64), .uint(1)])
            }
            tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(10, interface: "wl_surface", version: 0)])
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Writes `value` into pixel (x, y) of buffer 7 (offset 0) or 8 (offset 512).
        func write(buffer: UInt32, x: Int, y: Int, _ value: UInt32) {
            var pixel = value
            _ = pwrite(fd, &pixel, 4, off_t((buffer == 7 ? 0 : 512) + y * 64 + x * 4))
        }

        /// Makes surface 10 a sub-surface (wl_subsurface 12, synchronized by default) of a new
        /// surface 11.
        func makeSubsurface() {
            tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(11, interface: "wl_surface", version: 0)])
            tracker.request(objectID: 4, interface: "wl_subcompositor", message: "get_subsurface",
                            values: [.newID(12, interface: "wl_subsurface", version: 0), .object(10), .object(11)])
        }

        func commitParent() {
            tracker.request(objectID: 11, interface: "wl_surface", message: "commit", values: [])
        }

        func commit(buffer: UInt32?, damage: [PixelRect], bufferDamage: Bool = true) {
            if let buffer { tracker.request(objectID: 10, interface: "wl_surface", message: "attach", values: [.object(buffer), .int(0), .int(0)]) }
            for rect in damage {
                tracker.request(objectID: 10, interface: "wl_surface", message: bufferDamage ? "damage_buffer" : "damage",
                                values: [.int(Int32(rect.x)), .int(Int32(rect.y)), .int(Int32(rect.width)), .int(Int32(rect.height))])
            }
            tracker.request(objectID: 10, interface: "wl_surface", message: "commit", values: [])
        }

        /// Commits `buffer` with the whole of it damaged.
        func commitWhole(_ buffer: UInt32) {
            commit(buffer: buffer, damage: [PixelRect(x: 0, y: 0, width: width, height: height)])
        }

        /// Commits buffer 7 whole and releases it: the frame the next commit of buffer 7 is
        /// compared with, and free to be written.
        func commitBaseline() {
            commitWhole(7)
            release(7)
        }

        func release(_ buffer: UInt32) {
            tracker.event(objectID: buffer, interface: "wl_buffer", message: "release", values: [])
        }
    }

    @Test("Changes inside the damage are counted and not under-damage; over-damage is damage ÷ change")
    func changesInsideDamageAreClean() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.write(buffer: 7, x: 3, y: 2, 0xff0000)
        f.write(buffer: 7, x: 4, y: 2, 0xff0000)
        f.commit(buffer: 7, damage: [PixelRect(x: 2, y: 2, width: 4, height: 2)])
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 2)
        #expect(record.changedBounds == PixelRect(x: 3, y: 2, width: 2, height: 1))
        #expect(record.damagePixels == 8)
        #expect(record.underDamagePixels == 0)
        #expect(record.overDamageOfChanged == 4)
        #expect(record.overDamageOfBounds == 4)
        #expect(record.reused)
        #expect(!record.isOffending)
    }

    @Test("A change outside the damage is under-damage, with evidence pixels")
    func changeOutsideDamageIsUnderDamage() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.write(buffer: 7, x: 1, y: 1, 0x00ff00)
        f.write(buffer: 7, x: 10, y: 6, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        let record = try #require(f.records.last)
        #expect(record.changedPixels == 2)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 10, y: 6, width: 1, height: 1))
        #expect(f.evidence.count == 1)
    }

    @Test("Only the X byte of XRGB8888 changing is no change")
    func xChannelIsIgnored() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.write(buffer: 7, x: 5, y: 5, 0xff00_0000)
        f.commit(buffer: 7, damage: [])
        let record = try #require(f.records.last)
        #expect(record.changedPixels == 0)
        #expect(record.isDamageless)
    }

    @Test("Writing into a buffer before its release is reported at the release, with the commit it belongs to")
    func heldBufferWriteIsReportedAtRelease() throws {
        let f = try Fixture()
        f.commitWhole(7)
        f.write(buffer: 7, x: 0, y: 0, 0x123456)
        f.release(7)
        let record = try #require(f.records.last)
        #expect(record.kind == .heldWrite)
        #expect(record.heldWrite)
        #expect(record.commit == 1)
        #expect(record.changedPixels == 1)
        // No damage belongs to a release: no over-damage ratio (the log has null, not 0.000).
        #expect(record.overDamageOfChanged == nil && record.overDamageOfBounds == nil && record.overDamageOfBoxes == nil)
        #expect(record.jsonLine.contains(#""over_damage_changed":null,"over_damage_bbox":null,"over_damage_boxes":null"#), "\(record.jsonLine)")
        // After the release, writing is allowed.
        let count = f.records.count
        f.write(buffer: 7, x: 1, y: 0, 0x123456)
        f.release(7)
        #expect(f.records.count == count)
    }

    @Test("Re-committing a held buffer that was written is a held write at that commit")
    func heldBufferRecommitIsReported() throws {
        let f = try Fixture()
        f.commitWhole(7)
        f.write(buffer: 7, x: 2, y: 2, 0xabcdef)
        f.commit(buffer: 7, damage: [PixelRect(x: 2, y: 2, width: 1, height: 1)])
        let record = try #require(f.records.last)
        #expect(record.heldWrite)
        #expect(record.underDamagePixels == 0)
    }

    @Test("Surface damage is converted with the buffer scale before comparing")
    func surfaceDamageUsesScale() throws {
        let f = try Fixture()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_scale", values: [.int(2)])
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 8, height: 4)], bufferDamage: false)
        f.release(7)
        f.write(buffer: 8, x: 0, y: 0, 0)  // buffer 8 starts equal to buffer 7 (both zero)
        f.write(buffer: 8, x: 3, y: 3, 0xffffff)
        f.commit(buffer: 8, damage: [PixelRect(x: 1, y: 1, width: 1, height: 1)], bufferDamage: false)
        let record = try #require(f.records.last)
        #expect(record.damage == [PixelRect(x: 2, y: 2, width: 2, height: 2)])
        #expect(record.changedPixels == 1)
        #expect(record.underDamagePixels == 0)
        #expect(!record.reused)
    }

    @Test("A buffer the pool file no longer covers is reported unreadable, not read (no SIGBUS)")
    func truncatedPoolIsUnreadable() throws {
        let f = try Fixture()
        _ = ftruncate(f.fd, 100)
        f.commit(buffer: 8, damage: [])
        #expect(f.records.last?.content == .unreadable)
        #expect(f.records.last?.poolShrunk == true)
    }

    @Test("A client that shrinks its pool after attaching gets that commit reported as a shrunk pool; once the file is back, its commits are compared again")
    func poolShrunkAfterAttachingIsReportedThenRecovered() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "attach", values: [.object(8), .int(0), .int(0)])
        _ = ftruncate(f.fd, 600)  // buffer 8 (bytes 512..<1024) now ends past the file
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "damage_buffer", values: [.int(0), .int(0), .int(16), .int(8)])
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "commit", values: [])
        let shrunk = try #require(f.records.last)
        #expect(shrunk.content == .unreadable)
        #expect(shrunk.poolShrunk)
        #expect(shrunk.jsonLine.contains("\"pool_shrunk\":true"))
        _ = ftruncate(f.fd, 1024)
        f.commitWhole(7)
        #expect(f.records.last?.content == .new)
        #expect(f.records.last?.poolShrunk == false)
        f.release(7)
        f.write(buffer: 8, x: 2, y: 3, 0xff00)
        f.commit(buffer: 8, damage: [PixelRect(x: 2, y: 3, width: 1, height: 1)])
        let compared = try #require(f.records.last)
        #expect(compared.content == .compared)
        #expect(compared.changedPixels == 1)
        #expect(compared.underDamagePixels == 0)
    }
}

extension DamageTrackerTests {
    @Test("A new buffer transform at the same surface size is compared on the surface (compositors do not repaint it whole); the next commit is compared in the buffer again")
    func transformChangeIsComparedOnTheSurface() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.write(buffer: 8, x: 9, y: 1, 0xff)
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "set_buffer_transform", values: [.int(2)])
        f.commit(buffer: 8, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        let record = try #require(f.records.last)
        // Buffer pixel (9, 1) rotated by 180° shows at surface (6, 6), outside the damage
        // (buffer pixel 0, 0: surface 15, 7).
        #expect(record.content == .compared)
        #expect(record.comparedOnSurface)
        #expect(record.changedPixels == 1)
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 6, y: 6, width: 1, height: 1))
        f.release(8)
        f.write(buffer: 7, x: 9, y: 1, 0xff)
        f.write(buffer: 7, x: 0, y: 7, 0xff)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 7, width: 1, height: 1)])
        #expect(f.records.last?.content == .compared)
        #expect(f.records.last?.underDamagePixels == 0)
        #expect(f.records.last?.changedPixels == 1)
    }

    @Test("A synchronized sub-surface is measured when its parent's commit applies it, against what was applied before, with the damage of every cached commit")
    func synchronizedSubsurfaceIsMeasuredAtTheParentCommit() throws {
        let f = try Fixture()
        f.makeSubsurface()
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 16, height: 8)])
        #expect(f.records.isEmpty, "cached until the parent commits")
        f.commitParent()
        #expect(f.records.map(\.surface) == [11, 10])
        #expect(f.records.last?.content == .new)
        f.release(7)
        // Two cached commits: the first declares both changes ahead, the second shows them.
        f.write(buffer: 8, x: 1, y: 1, 0xff0000)
        f.commit(buffer: 8, damage: [PixelRect(x: 1, y: 1, width: 1, height: 1), PixelRect(x: 5, y: 5, width: 1, height: 1)])
        f.write(buffer: 7, x: 1, y: 1, 0xff0000)
        f.write(buffer: 7, x: 5, y: 5, 0x0000ff)
        f.commit(buffer: 7, damage: [])
        #expect(f.records.count == 2, "both commits cached")
        f.commitParent()
        let record = try #require(f.records.last)
        #expect(record.surface == 10)
        #expect(record.commit == 3)
        #expect(record.buffer == 7)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 2)
        #expect(record.damagePixels == 2)
        #expect(record.underDamagePixels == 0)
    }

    @Test("A desynchronized sub-surface is measured at its own commits; set_sync caches again")
    func desynchronizedSubsurfaceIsMeasuredAtItsOwnCommit() throws {
        let f = try Fixture()
        f.makeSubsurface()
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "set_desync", values: [])
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 16, height: 8)])
        #expect(f.records.map(\.surface) == [10])
        f.release(7)
        f.write(buffer: 7, x: 2, y: 2, 0xff0000)
        f.commit(buffer: 7, damage: [])
        #expect(f.records.last?.underDamagePixels == 1)
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "set_sync", values: [])
        f.commit(buffer: nil, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(f.records.count == 2)
        f.commitParent()
        #expect(f.records.map(\.surface) == [10, 10, 11, 10])
    }

    @Test("A wl_shm format the inspector cannot compare (R8) is reported unreadable, never compared as 4-byte pixels, and the summary says it was not checked")
    func unknownFormatIsNotCheckedAndSaysSo() throws {
        let f = try Fixture()
        let r8: UInt32 = 0x2020_3852  // "R8  ": one byte per pixel
        f.tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                          values: [.newID(9, interface: "wl_buffer", version: 0), .int(0), .int(16), .int(8), .int(16), .uint(r8)])
        f.commit(buffer: 9, damage: [PixelRect(x: 0, y: 0, width: 16, height: 8)])
        f.release(9)
        // Byte 40 is pixel (8, 2) of the R8 buffer, outside the damage below; read as 4-byte
        // pixels it would be pixel (10, 0).
        var byte: UInt8 = 0xff
        _ = pwrite(f.fd, &byte, 1, 40)
        f.commit(buffer: 9, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        let records = f.records.filter { $0.kind == .buffer }
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.content == .unreadable && $0.format == "R8  " && $0.underDamagePixels == 0 }, "\(records)")
        let report = InspectReport()
        for record in f.records { report.add(record) }
        let summary = report.summary(cpuSeconds: 0, wallSeconds: 1)
        #expect(summary.contains("not checked: 2 wl_shm commits whose pixels could not be read (format R8  :"), "\(summary)")
    }

    @Test("A surface unmapped by destroying its xdg role objects is new content when mapped again, as after a null attach: partial damage then is no under-damage")
    func surfaceRemappedAfterRoleDestructionIsNewContent() throws {
        let f = try Fixture()
        func map(xdgSurface: UInt32, toplevel: UInt32) {
            f.tracker.request(objectID: 2, interface: "xdg_wm_base", message: "get_xdg_surface",
                              values: [.newID(xdgSurface, interface: "xdg_surface", version: 0), .object(10)])
            f.tracker.request(objectID: xdgSurface, interface: "xdg_surface", message: "get_toplevel",
                              values: [.newID(toplevel, interface: "xdg_toplevel", version: 0)])
            f.commit(buffer: nil, damage: [])  // the initial commit, no buffer
        }
        map(xdgSurface: 20, toplevel: 21)
        f.commitBaseline()
        f.tracker.request(objectID: 21, interface: "xdg_toplevel", message: "destroy", values: [])
        f.tracker.request(objectID: 20, interface: "xdg_surface", message: "destroy", values: [])
        // Mapped again with other content, damaging only a corner: the compositor shows it whole.
        f.write(buffer: 7, x: 12, y: 6, 0x00ff00)
        map(xdgSurface: 22, toplevel: 23)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        let record = try #require(f.records.last)
        #expect(record.kind == .buffer)
        #expect(record.content == .new, "\(record)")
        #expect(record.underDamagePixels == 0)
        // Still mapped: the next commit is compared again.
        f.release(7)
        f.write(buffer: 7, x: 13, y: 6, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        #expect(f.records.last?.content == .compared)
        #expect(f.records.last?.underDamagePixels == 1)
    }

    @Test("A null attach (wl_surface.attach with buffer 0) unmaps the surface: the commit is an unmap, not a buffer the inspector cannot read, and the next buffer is new content")
    func nullAttachUnmaps() throws {
        let f = try Fixture()
        f.commitBaseline()
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "attach", values: [.object(0), .int(0), .int(0)])
        f.tracker.request(objectID: 10, interface: "wl_surface", message: "commit", values: [])
        let unmap = try #require(f.records.last)
        #expect(unmap.kind == .unmap, "\(unmap)")
        #expect(unmap.buffer == nil)
        #expect(unmap.content == .none)
        #expect(f.tracker.foreignBufferCommits == 0, "a null buffer is no buffer of another kind")
        // Mapped again with other pixels, damaging only a corner: the compositor shows the
        // whole buffer, so nothing is under-damage.
        f.write(buffer: 7, x: 12, y: 6, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        let mapped = try #require(f.records.last)
        #expect(mapped.kind == .buffer)
        #expect(mapped.content == .new, "\(mapped)")
        #expect(mapped.underDamagePixels == 0)
    }

    @Test("A sub-surface whose wl_subsurface is destroyed is unmapped: made a sub-surface again, its next buffer is new content, not held to its damage")
    func subsurfaceRemadeAfterDestroyIsNewContent() throws {
        let f = try Fixture()
        f.makeSubsurface()
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "set_desync", values: [])
        f.commitBaseline()
        #expect(f.records.last?.content == .new)
        f.tracker.request(objectID: 12, interface: "wl_subsurface", message: "destroy", values: [])
        f.tracker.request(objectID: 4, interface: "wl_subcompositor", message: "get_subsurface",
                          values: [.newID(13, interface: "wl_subsurface", version: 0), .object(10), .object(11)])
        f.tracker.request(objectID: 13, interface: "wl_subsurface", message: "set_desync", values: [])
        f.write(buffer: 7, x: 12, y: 6, 0x00ff00)
        f.commit(buffer: 7, damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        let record = try #require(f.records.last)
        #expect(record.content == .new, "\(record)")
        #expect(record.underDamagePixels == 0)
    }
}

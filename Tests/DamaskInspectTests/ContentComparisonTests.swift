import CDamaskInspectScan
@testable import DamaskInspect
import DamaskTestSupport
import Foundation
import Testing

/// The row comparison the tracker runs on every commit (memcmp per row, then per damaged span
/// and per gap, counting only segments that differ), against a plain pixel-by-pixel count,
/// and the tracker's reused per-buffer stores over real pool files.
@Suite("Content comparison", .timeLimit(.minutes(5)))
struct ContentComparisonTests {
    /// The plain definition: every pixel compared under the format's visible mask.
    static func reference(old: [UInt8], new: [UInt8], width: Int, height: Int, format: BufferFormat, damage: DamageRegion) -> ContentComparison {
        let bpp = format.bytesPerPixel ?? 4
        var result = ContentComparison()
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * bpp
                let differs: Bool
                if bpp == 4 {
                    var a: UInt32 = 0, b: UInt32 = 0
                    for i in 0..<4 {
                        a |= UInt32(old[offset + i]) << (8 * UInt32(i))
                        b |= UInt32(new[offset + i]) << (8 * UInt32(i))
                    }
                    differs = (a ^ b) & format.visibleMask != 0
                } else {
                    differs = old[offset..<(offset + format.visibleBytes)] != new[offset..<(offset + format.visibleBytes)]
                }
                guard differs else { continue }
                let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
                result.changedPixels += 1
                result.changedBounds = result.changedBounds.union(pixel)
                result.changes.add(row: y, from: x, to: x + 1)
                if !damage.contains(x: x, y: y) {
                    result.underDamagePixels += 1
                    result.underDamageBounds = result.underDamageBounds.union(pixel)
                }
            }
        }
        return result
    }

    @Test("Random changes and damage: the row comparison counts exactly what a pixel-by-pixel comparison counts", arguments: [UInt32(0), 1, 0x3432_4752, 0x3631_4752, 0x4834_5241, 0x4834_5258])
    func rowComparisonEqualsPixelByPixel(formatCode: UInt32) {
        var generator = SeededRandom(seed: 0x5EED_0045 ^ UInt64(formatCode))
        let format = BufferFormat(code: formatCode)
        let bpp = format.bytesPerPixel ?? 4
        for round in 0..<60 {
            let width = [1, 7, 64, 333, 1920][round % 5], height = 1 + round % 9
            let old = (0..<(width * height * bpp)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var new = old
            // Sparse changes, some touching only one byte (for XRGB possibly the X byte).
            for _ in 0..<Int.random(in: 0...(round % 3 == 0 ? width * height : 12), using: &generator) {
                new[Int.random(in: 0..<new.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            }
            let rects = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                PixelRect(
                    x: Int.random(in: -2..<(width + 2), using: &generator), y: Int.random(in: -1..<(height + 1), using: &generator),
                    width: Int.random(in: 0...(width / 2 + 1), using: &generator), height: Int.random(in: 0...height, using: &generator))
            }
            let damage = DamageRegion(rects, clippedTo: PixelRect(x: 0, y: 0, width: width, height: height))
            let measured = ContentComparison(
                previous: ContentSnapshot(width: width, height: height, format: format, bytes: old),
                current: ContentSnapshot(width: width, height: height, format: format, bytes: new), damage: damage)
            #expect(measured == Self.reference(old: old, new: new, width: width, height: height, format: format, damage: damage),
                    "format \(format.name), \(width)x\(height), damage \(rects)")
        }
    }

    /// Whether the CPU has AVX2 (what `damask_scan_row32` checks with
    /// `__builtin_cpu_supports`), from the kernel's flags.
    static let cpuHasAVX2 = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
        .split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").contains("avx2") ?? false

    @Test("The row scan's plain C path gives the same counts, runs and store as the pixel-by-pixel definition, in every store mode")
    func portableRowScanAgrees() {
        rowScanAgrees(portable: true)
    }

    @Test(
        "The row scan's AVX2 path gives the same counts, runs and store as the pixel-by-pixel definition, in every store mode",
        .enabled(if: cpuHasAVX2, "this CPU has no AVX2: damask_scan_row32 would run the plain C path, which the test above checks"))
    func avx2RowScanAgrees() {
        rowScanAgrees(portable: false)
    }

    /// Checks one path of the row scan (`portable`: the plain C one) against a reference
    /// computed pixel by pixel, over 400 seeded random rows.
    func rowScanAgrees(portable: Bool) {
        var generator = SeededRandom(seed: 0x5EED_0072)
        for round in 0..<400 {
            let width = [1, 15, 16, 17, 100, 333, 1920][round % 7]
            let mask: UInt32 = round % 2 == 0 ? 0x00ff_ffff : 0xffff_ffff
            let old = (0..<width).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) }
            var new = old
            for _ in 0..<Int.random(in: 0...(round % 3 == 0 ? 2 * width : 6), using: &generator) {
                // Some changes touch only the X byte, which counts only when it is visible.
                new[Int.random(in: 0..<width, using: &generator)] ^= Bool.random(using: &generator) ? 0xff00_0000 : UInt32.random(in: 1...UInt32.max, using: &generator)
            }
            var spans: [Int64] = []
            var x = 0
            while x < width, spans.count < 8, Bool.random(using: &generator) {
                let low = Int.random(in: x..<width, using: &generator), high = Int.random(in: (low + 1)...width, using: &generator)
                spans += [Int64(low), Int64(high)]
                x = high + 1
            }
            let mode = [DAMASK_SCAN_STORE_NONE, DAMASK_SCAN_STORE_COPY, DAMASK_SCAN_STORE_COPY_CHANGED, DAMASK_SCAN_STORE_UPDATE][round % 4]
            // A store known to equal `old` for COPY_CHANGED; for UPDATE, half the rows already
            // hold the new pixels (nothing differed) and half hold other pixels.
            let initialStore = mode == DAMASK_SCAN_STORE_COPY_CHANGED || (mode == DAMASK_SCAN_STORE_UPDATE && round % 8 == 3) ? old
                : mode == DAMASK_SCAN_STORE_UPDATE ? new : old.map { ~$0 }
            // Reference: changed pixels, under-damage, runs split at more than the gap.
            var changed = 0, under = 0, first = -1, last = -1, runs: [Int64] = []
            var differs = false
            for x in 0..<width {
                if old[x] != new[x] { differs = true }
                guard (old[x] ^ new[x]) & mask != 0 else { continue }
                changed += 1
                if first < 0 { first = x }
                last = x
                if !stride(from: 0, to: spans.count, by: 2).contains(where: { spans[$0] <= x && x < spans[$0 + 1] }) { under += 1 }
                if let end = runs.last, Int64(x) - end <= Int64(ChangeClusters.gap) {
                    runs[runs.count - 1] = Int64(x + 1)
                } else {
                    runs += [Int64(x), Int64(x + 1)]
                }
            }
            do {
                // 64-byte aligned (non-temporal stores) in even rounds, misaligned in odd ones.
                let memory = UnsafeMutableRawPointer.allocate(byteCount: 4 * width + 64, alignment: 64)
                defer { memory.deallocate() }
                let store = (memory + (round % 2 == 0 ? 0 : 4)).bindMemory(to: UInt32.self, capacity: width)
                store.initialize(from: initialStore, count: width)
                let capacity = damask_scan_run_capacity(Int64(width), Int64(ChangeClusters.gap))
                var outRuns = [Int64](repeating: -1, count: Int(2 * capacity))
                var row = damask_scan_row()
                old.withUnsafeBufferPointer { a in
                    new.withUnsafeBufferPointer { b in
                        spans.withUnsafeBufferPointer { d in
                            outRuns.withUnsafeMutableBufferPointer { r in
                                row.old = UnsafeRawPointer(a.baseAddress)
                                row.current = UnsafeRawPointer(b.baseAddress)
                                row.store = UnsafeMutableRawPointer(store)
                                row.store_mode = Int32(mode.rawValue)
                                row.visible_mask = mask
                                row.width = Int64(width)
                                row.damage = d.baseAddress
                                row.damage_count = Int64(spans.count / 2)
                                row.gap = Int64(ChangeClusters.gap)
                                row.runs = r.baseAddress
                                row.run_capacity = capacity
                                if portable { damask_scan_row32_portable(&row) } else { damask_scan_row32(&row) }
                            }
                        }
                    }
                }
                let context = "round \(round), width \(width), mode \(mode.rawValue), portable \(portable)"
                #expect(row.changed == Int64(changed), "\(context)")
                #expect(row.under_damage == Int64(under), "\(context)")
                #expect(row.first == Int64(first) && row.last == Int64(last), "\(context)")
                #expect(row.bytes_differ == (differs ? 1 : 0), "\(context)")
                #expect(Array(outRuns.prefix(Int(2 * row.run_count))) == runs, "\(context)")
                let stored = Array(UnsafeBufferPointer(start: store, count: width))
                #expect(stored == (mode == DAMASK_SCAN_STORE_NONE ? initialStore : new), "\(context)")
                #expect(row.store_differed == (mode == DAMASK_SCAN_STORE_UPDATE && initialStore != new ? 1 : 0), "\(context)")
            }
        }
    }

    @Test("In a row with two damaged spans, a change in the gap between them and one past the last are under-damage")
    func gapBetweenSpansIsUnderDamage() {
        let width = 1920
        let old = [UInt8](repeating: 0x40, count: width * 4)
        var new = old
        for x in [10, 700, 1919] { new[x * 4] = 0x41 }
        var comparison = ContentComparison()
        old.withUnsafeBytes { a in
            new.withUnsafeBytes { b in
                _ = comparison.addRow(
                    5, old: a.baseAddress!, new: b.baseAddress!, width: width, format: BufferFormat(code: 1),
                    damage: [0..<100, 600..<650])
            }
        }
        #expect(comparison.changedPixels == 3)
        #expect(comparison.changedBounds == PixelRect(x: 10, y: 5, width: 1910, height: 1))
        #expect(comparison.underDamagePixels == 2)
        #expect(comparison.underDamageBounds == PixelRect(x: 700, y: 5, width: 1220, height: 1))
    }
}

/// The tracker over a 1920×1080 pool file: what the proxy sees from a full-HD client.
@Suite("Content comparison at 1080p", .timeLimit(.minutes(5)))
struct FullHDTrackingTests {
    final class Fixture {
        static let width = 1920, height = 1080
        let path: String
        let fd: Int32
        let stride: Int
        var records: [CommitRecord] = []
        lazy var tracker = DamageTracker(client: 1, clock: { 0 }) { [unowned self] record, _ in records.append(record) }

        /// Two buffers (7 and 8) of `stride` bytes per row, and surfaces 10 and 11.
        init(stride: Int = 1920 * 4) throws {
            self.stride = stride
            path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-hd-\(getpid())-\(UUID().uuidString)").path
            fd = open(path, O_RDWR | O_CREAT, 0o600)
            let size = 2 * stride * Self.height
            guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw POSIXError(.EIO) }
            tracker.request(objectID: 5, interface: "wl_shm", message: "create_pool", values: [.newID(6, interface: "wl_shm_pool", version: 1), .fd(fd), .int(Int32(size))])
            for (buffer, offset) in [(UInt32(7), 0), (8, stride * Self.height)] {
                tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                                values: [.newID(buffer, interface: "wl_buffer", version: 1), .int(Int32(offset)), .int(Int32(Self.width)), .int(Int32(Self.height)), .int(Int32(stride)), .uint(1)])
            }
            for surface in [UInt32(10), 11] {
                tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(surface, interface: "wl_surface", version: 4)])
            }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        func write(buffer: UInt32, x: Int, y: Int, _ value: UInt32) {
            var pixel = value
            _ = pwrite(fd, &pixel, 4, off_t((buffer == 7 ? 0 : stride * Self.height) + y * stride + x * 4))
        }

        func commit(_ buffer: UInt32, surface: UInt32 = 10, damage: [PixelRect]) {
            tracker.request(objectID: surface, interface: "wl_surface", message: "attach", values: [.object(buffer), .int(0), .int(0)])
            for rect in damage {
                tracker.request(objectID: surface, interface: "wl_surface", message: "damage_buffer",
                                values: [.int(Int32(rect.x)), .int(Int32(rect.y)), .int(Int32(rect.width)), .int(Int32(rect.height))])
            }
            tracker.request(objectID: surface, interface: "wl_surface", message: "commit", values: [])
        }

        func release(_ buffer: UInt32) {
            tracker.event(objectID: buffer, interface: "wl_buffer", message: "release", values: [])
        }

        static let whole = PixelRect(x: 0, y: 0, width: width, height: height)
    }

    @Test("One changed pixel at the far corner, outside the damage, is caught; the same pixel damaged is not under-damage", arguments: [1920 * 4, 1920 * 4 + 256])
    func farCornerPixelIsCaught(stride: Int) throws {
        let f = try Fixture(stride: stride)
        f.commit(7, damage: [Fixture.whole])
        f.release(7)
        f.write(buffer: 8, x: 10, y: 10, 0xff_0000)
        f.write(buffer: 8, x: 1919, y: 1079, 0x00_ff00)
        f.commit(8, damage: [PixelRect(x: 0, y: 0, width: 64, height: 64)])
        let record = try #require(f.records.last)
        #expect(record.content == .compared)
        #expect(record.changedPixels == 2)
        #expect(record.changedBounds == PixelRect(x: 10, y: 10, width: 1910, height: 1070))
        #expect(record.underDamagePixels == 1)
        #expect(record.underDamageBounds == PixelRect(x: 1919, y: 1079, width: 1, height: 1))
        f.release(8)
        // Buffer 7 brought up to date, the corner damaged this time: clean.
        f.write(buffer: 7, x: 10, y: 10, 0xff_0000)
        f.write(buffer: 7, x: 1919, y: 1079, 0x00_ff00)
        f.write(buffer: 7, x: 0, y: 1079, 0x0000_ff)
        f.commit(7, damage: [PixelRect(x: 0, y: 1079, width: 1, height: 1)])
        #expect(f.records.last?.changedPixels == 1)
        #expect(f.records.last?.underDamagePixels == 0)
        f.release(7)
        // Only the padding past a row's last pixel changes: not a pixel.
        if stride > 1920 * 4 {
            f.write(buffer: 8, x: 1921, y: 500, 0xffff_ffff)
            f.write(buffer: 8, x: 0, y: 1079, 0x0000_ff)
            f.commit(8, damage: [PixelRect(x: 0, y: 1079, width: 1, height: 1)])
            #expect(f.records.last?.changedPixels == 0)
        }
    }

    @Test("A client drawing into a single buffer is compared with its previous frame at every commit")
    func singleBufferClientIsComparedEveryCommit() throws {
        let f = try Fixture()
        f.commit(7, damage: [Fixture.whole])
        f.release(7)
        for frame in 1...5 {
            f.write(buffer: 7, x: frame, y: 1000, UInt32(frame))
            f.write(buffer: 7, x: 1900, y: frame * 100, UInt32(frame))
            // Every other frame the second change is left out of the damage.
            let damage = [PixelRect(x: frame, y: 1000, width: 1, height: 1)] + (frame % 2 == 0 ? [PixelRect(x: 1900, y: frame * 100, width: 1, height: 1)] : [])
            f.commit(7, damage: damage)
            f.release(7)
            let record = try #require(f.records.last)
            #expect(record.content == .compared)
            #expect(record.changedPixels == 2, "frame \(frame)")
            #expect(record.underDamagePixels == (frame % 2 == 0 ? 0 : 1), "frame \(frame)")
            #expect(!record.heldWrite)
        }
        #expect(f.records.allSatisfy { $0.kind == .buffer })
    }

    @Test("A buffer shown on two surfaces: each surface is compared with what it showed, not with the other's")
    func bufferOnTwoSurfacesKeepsEachSurfaceContent() throws {
        let f = try Fixture()
        f.commit(7, surface: 10, damage: [Fixture.whole])
        f.commit(7, surface: 11, damage: [Fixture.whole])
        f.release(7)
        f.write(buffer: 7, x: 30, y: 40, 0xff)
        f.commit(7, surface: 10, damage: [PixelRect(x: 30, y: 40, width: 1, height: 1)])
        #expect(f.records.last?.changedPixels == 1)
        #expect(f.records.last?.underDamagePixels == 0)
        f.release(7)
        // Surface 11 still shows the frame without the change: committing without damage
        // there is under-damage.
        f.commit(7, surface: 11, damage: [])
        let record = try #require(f.records.last)
        #expect(record.surface == 11)
        #expect(record.changedPixels == 1)
        #expect(record.underDamagePixels == 1)
    }

    @Test("Writes into held buffers are caught at the release and at a second commit, anywhere in the frame")
    func heldWritesAreCaughtAnywhere() throws {
        let f = try Fixture()
        f.commit(7, damage: [Fixture.whole])
        f.write(buffer: 7, x: 1919, y: 1079, 0x1)
        f.release(7)
        #expect(f.records.last?.kind == .heldWrite)
        #expect(f.records.last?.changedPixels == 1)
        f.commit(8, damage: [Fixture.whole])
        f.write(buffer: 8, x: 0, y: 540, 0x2)
        f.commit(8, damage: [PixelRect(x: 0, y: 540, width: 1, height: 1)])
        #expect(f.records.last?.heldWrite == true)
        #expect(f.records.last?.underDamagePixels == 0)
        let count = f.records.count
        f.release(8)
        #expect(f.records.count == count, "nothing written since the second commit")
    }
}

/// Random clients against a model that keeps a full copy of everything: the tracker's reused
/// stores and skipped rows must give exactly the model's records.
@Suite("Content comparison against a full-copy model", .timeLimit(.minutes(5)))
struct TrackerModelTests {
    @Test("Random writes, commits on two surfaces and releases of three buffers: every record equals the full-copy model's")
    func randomClientMatchesModel() throws {
        let (width, height, stride) = (37, 23, 37 * 4 + 12)
        let bufferBytes = stride * height
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-inspect-model-\(getpid())-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT, 0o600)
        defer {
            close(fd)
            unlink(path)
        }
        #expect(ftruncate(fd, off_t(3 * bufferBytes)) == 0)
        var records: [CommitRecord] = []
        let tracker = DamageTracker(client: 1, clock: { 0 }) { record, _ in records.append(record) }
        tracker.request(objectID: 5, interface: "wl_shm", message: "create_pool", values: [.newID(6, interface: "wl_shm_pool", version: 1), .fd(fd), .int(Int32(3 * bufferBytes))])
        let buffers: [UInt32] = [7, 8, 9]
        for (index, buffer) in buffers.enumerated() {
            tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                            values: [.newID(buffer, interface: "wl_buffer", version: 1), .int(Int32(index * bufferBytes)), .int(Int32(width)), .int(Int32(height)), .int(Int32(stride)), .uint(1)])
        }
        for surface in [UInt32(10), 11] {
            tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(surface, interface: "wl_surface", version: 4)])
        }
        let format = BufferFormat(code: 1)
        // The model: each buffer's pixels (packed rows), held content, each surface's content.
        var pixels = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * height * 4), count: 3)
        var held: [ContentSnapshot?] = [nil, nil, nil]
        var shown: [UInt32: ContentSnapshot] = [:]
        var generator = SeededRandom(seed: 0x5EED_0350)
        var checked = 0
        for step in 0..<2000 {
            let b = Int.random(in: 0..<3, using: &generator)
            switch Int.random(in: 0..<11, using: &generator) {
            case 10:
                // Bring the buffer up to date with another one, as a client does with its
                // back buffer.
                let source = Int.random(in: 0..<3, using: &generator)
                pixels[b] = pixels[source]
                for y in 0..<height {
                    _ = pixels[b].withUnsafeBytes { pwrite(fd, $0.baseAddress! + y * width * 4, width * 4, off_t(b * bufferBytes + y * stride)) }
                }
            case 0..<5:
                // Write a few pixels (sometimes only the X byte, sometimes a whole row).
                let rowWrite = Int.random(in: 0..<6, using: &generator) == 0
                let y0 = Int.random(in: 0..<height, using: &generator)
                for i in 0..<(rowWrite ? width : Int.random(in: 1...3, using: &generator)) {
                    let x = rowWrite ? i : Int.random(in: 0..<width, using: &generator)
                    let y = rowWrite ? y0 : Int.random(in: 0..<height, using: &generator)
                    var value = Int.random(in: 0..<4, using: &generator) == 0 ? UInt32.random(in: 0...255, using: &generator) << 24 : UInt32.random(in: 0...3, using: &generator)
                    _ = pwrite(fd, &value, 4, off_t(b * bufferBytes + y * stride + x * 4))
                    withUnsafeBytes(of: value) { bytes in
                        for k in 0..<4 { pixels[b][(y * width + x) * 4 + k] = bytes[k] }
                    }
                }
            case 5..<8:
                let surface: UInt32 = Int.random(in: 0..<4, using: &generator) == 0 ? 11 : 10
                let damage = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                    PixelRect(x: Int.random(in: 0..<width, using: &generator), y: Int.random(in: 0..<height, using: &generator),
                              width: Int.random(in: 1...width, using: &generator), height: Int.random(in: 1...height, using: &generator))
                }
                tracker.request(objectID: surface, interface: "wl_surface", message: "attach", values: [.object(buffers[b]), .int(0), .int(0)])
                for rect in damage {
                    tracker.request(objectID: surface, interface: "wl_surface", message: "damage_buffer",
                                    values: [.int(Int32(rect.x)), .int(Int32(rect.y)), .int(Int32(rect.width)), .int(Int32(rect.height))])
                }
                tracker.request(objectID: surface, interface: "wl_surface", message: "commit", values: [])
                let now = ContentSnapshot(width: width, height: height, format: format, bytes: pixels[b])
                let record = try #require(records.last)
                #expect(record.surface == surface && record.buffer == buffers[b], "step \(step)")
                #expect(record.heldWrite == (held[b].map { $0.bytes != now.bytes } ?? false), "step \(step): held write")
                if let before = shown[surface] {
                    let expected = ContentComparisonTests.reference(
                        old: before.bytes, new: now.bytes, width: width, height: height, format: format,
                        damage: DamageRegion(damage, clippedTo: now.bounds))
                    #expect(record.content == .compared, "step \(step)")
                    #expect(record.changedPixels == expected.changedPixels, "step \(step): changed")
                    #expect(record.changedBounds == expected.changedBounds, "step \(step): bounds")
                    #expect(record.underDamagePixels == expected.underDamagePixels, "step \(step): under")
                    #expect(record.underDamageBounds == expected.underDamageBounds, "step \(step): under bounds")
                    checked += 1
                } else {
                    #expect(record.content == .new, "step \(step)")
                }
                shown[surface] = now
                held[b] = now
            default:
                let count = records.count
                tracker.event(objectID: buffers[b], interface: "wl_buffer", message: "release", values: [])
                if let before = held[b] {
                    let changed = ContentComparisonTests.reference(
                        old: before.bytes, new: pixels[b], width: width, height: height, format: format,
                        damage: DamageRegion([], clippedTo: before.bounds)).changedPixels
                    #expect(records.count == count + (changed > 0 ? 1 : 0), "step \(step): release")
                    if changed > 0 { #expect(records.last?.kind == .heldWrite && records.last?.changedPixels == changed, "step \(step)") }
                } else {
                    #expect(records.count == count, "step \(step): release of a buffer not held")
                }
                held[b] = nil
            }
        }
        #expect(checked > 50)
    }
}

/// The X channel of the 64-bit X formats, as the X byte of XRGB8888, is not content.
@Suite("Content comparison of 64-bit X formats", .timeLimit(.minutes(5)))
struct WideXFormatComparisonTests {
    @Test("XRGB16161616F: a change in a pixel's X channel (its last 2 bytes) is no change, nor a held write; a change in its colour is one")
    func xChannelOfWideFormatsIsIgnored() {
        let format = BufferFormat(code: BufferFormat.fourcc("XR4H"))
        #expect(format.bytesPerPixel == 8 && format.visibleBytes == 6)
        #expect(BufferFormat(code: BufferFormat.fourcc("AR4H")).visibleBytes == 8)
        let old = [UInt8](repeating: 0x11, count: 4 * 8)
        var xOnly = old
        xOnly[8 + 6] = 0x99  // pixel 1's X channel
        xOnly[8 + 7] = 0x98
        var colour = xOnly
        colour[24] = 0x42    // pixel 3's blue
        var comparison = ContentComparison()
        _ = comparison.addRow(0, old: old, new: xOnly, width: 4, format: format, damage: [])
        #expect(comparison.changedPixels == 0 && comparison.underDamagePixels == 0)
        _ = comparison.addRow(1, old: old, new: colour, width: 4, format: format, damage: [])
        #expect(comparison.changedPixels == 1 && comparison.underDamagePixels == 1)
        // The held-buffer check: the store holds the committed row; the client changed only X.
        var store = old
        var held = ContentComparison()
        let xWrite = store.withUnsafeMutableBytes { held.addRow(0, old: nil, new: xOnly, width: 4, format: format, damage: [], store: $0.baseAddress!, storeMode: .update) }
        #expect(!xWrite.storeDiffered)
        store = old
        let colourWrite = store.withUnsafeMutableBytes { held.addRow(0, old: nil, new: colour, width: 4, format: format, damage: [], store: $0.baseAddress!, storeMode: .update) }
        #expect(colourWrite.storeDiffered)
    }
}

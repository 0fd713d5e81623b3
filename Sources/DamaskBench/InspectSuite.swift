import CDamaskInspectScan
import DamaskInspect
import Foundation

/// What damask-inspect's tracker costs per commit of a 1920×1080 XRGB8888 client: the work it
/// does between receiving a `wl_surface.commit` and forwarding it (copy the buffer, compare it
/// with the previous content against the damage) plus the check at the previous buffer's
/// `wl_buffer.release`, fed exactly as the proxy feeds it, over a real shared-memory file.
/// Baseline: one `memcpy` of the 8 MiB frame. A client at 60 Hz has 16.7 ms per frame; the
/// inspector's share is checked against a quarter of that.
///
/// For the full change it also measures the memory-traffic floor of the design in the same
/// run: what an exact check cannot avoid when every pixel changed (at the commit, read the
/// previous content and the new frame and write the new frame into the inspector's copy;
/// at the release, read the held frame and its copy), as plain passes that compare nothing
/// else (`damask_scan_floor_pass`, then `memcmp`). The inspector ÷ floor ratio says how much
/// of the cost is the inspector's logic and how much the machine's memory bandwidth.
@MainActor struct InspectSuite {
    /// Where figures go.
    let report: BenchReport
    /// How samples are taken.
    let sampler: Sampler

    static let width = 1920, height = 1080
    static var frameBytes: Int { width * height * 4 }

    /// Runs both cases: a 64×64 square moving (damage: its two places) and every pixel changing.
    func run() throws {
        try measure(name: "square", full: false)
        try measure(name: "full", full: true)
    }

    private func measure(name: String, full: Bool) throws {
        let (width, height, bytes) = (Self.width, Self.height, Self.frameBytes)
        // The pool: an unlinked temporary file (as a client's memfd, read through its fd).
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-bench-inspect-\(getpid())-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError.helper("cannot create \(path)") }
        unlink(path)
        defer { close(fd) }
        guard ftruncate(fd, off_t(2 * bytes)) == 0,
            let mapping = mmap(nil, 2 * bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED
        else { throw BenchError.helper("cannot size or map a \(2 * bytes)-byte pool") }
        defer { munmap(mapping, 2 * bytes) }
        // Buffer 7: background with a square at (100, 100); buffer 8: the square at (164, 120),
        // or (full) two solid colours.
        let pixels = mapping.bindMemory(to: UInt32.self, capacity: 2 * width * height)
        for buffer in 0..<2 {
            let base = pixels + buffer * width * height
            let background: UInt32 = full ? (buffer == 0 ? 0xff20_4060 : 0xff60_4020) : 0xff80_8080
            base.update(repeating: background, count: width * height)
            if !full {
                let (x0, y0) = buffer == 0 ? (100, 100) : (164, 120)
                for y in y0..<(y0 + 64) { (base + y * width + x0).update(repeating: 0xffc0_3020, count: 64) }
            }
        }
        var records = 0, offending = 0
        let tracker = DamageTracker(client: 1, clock: { 0 }) { record, _ in
            records += 1
            if record.isOffending { offending += 1 }
        }
        tracker.request(objectID: 5, interface: "wl_shm", message: "create_pool", values: [.newID(6, interface: "wl_shm_pool", version: 1), .fd(fd), .int(Int32(2 * bytes))])
        for (buffer, offset) in [(UInt32(7), 0), (UInt32(8), bytes)] {
            tracker.request(objectID: 6, interface: "wl_shm_pool", message: "create_buffer",
                            values: [.newID(buffer, interface: "wl_buffer", version: 1), .int(Int32(offset)), .int(Int32(width)), .int(Int32(height)), .int(Int32(width * 4)), .uint(1)])
        }
        tracker.request(objectID: 3, interface: "wl_compositor", message: "create_surface", values: [.newID(10, interface: "wl_surface", version: 4)])
        let damage: [(Int32, Int32, Int32, Int32)] = full ? [(0, 0, Int32(width), Int32(height))] : [(100, 100, 64, 64), (164, 120, 64, 64)]
        var next: UInt32 = 7
        // One frame as the proxy sees it: attach, damage, frame, commit, then the compositor
        // releases the buffer the commit replaced.
        func frame() {
            let buffer = next
            next = buffer == 7 ? 8 : 7
            tracker.request(objectID: 10, interface: "wl_surface", message: "attach", values: [.object(buffer), .int(0), .int(0)])
            for rect in damage {
                tracker.request(objectID: 10, interface: "wl_surface", message: "damage_buffer", values: [.int(rect.0), .int(rect.1), .int(rect.2), .int(rect.3)])
            }
            tracker.request(objectID: 10, interface: "wl_surface", message: "commit", values: [])
            tracker.event(objectID: next, interface: "wl_buffer", message: "release", values: [])
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { scratch.deallocate() }
        let result = sampler.compare({ frame() }, against: { _ = memcpy(scratch, mapping, bytes) })
        var floor: (subject: Statistics, baseline: Statistics, ratio: Statistics)?
        if full {
            // Two copies as the tracker keeps them (the previous content, the held frame's).
            let copies = UnsafeMutableRawPointer.allocate(byteCount: 2 * bytes, alignment: 64)
            defer { copies.deallocate() }
            memcpy(copies, mapping + bytes, bytes)
            memcpy(copies + bytes, mapping, bytes)
            var flip = false
            // The release check's result, used (an unused memcmp would be optimised away).
            var heldDiffers = 0
            // One full-change frame's unavoidable traffic: the commit's pass (read the previous
            // content and the new frame, write the new frame's copy), then the release check
            // of the frame it replaced (read it and its copy).
            func floorFrame() {
                // Copies: `copies` holds buffer 8's frame, `copies + bytes` buffer 7's.
                let (new, old) = flip ? (mapping + bytes, mapping) : (mapping, mapping + bytes)
                let (previousCopy, newCopy) = flip ? (copies + bytes, copies) : (copies, copies + bytes)
                flip.toggle()
                _ = damask_scan_floor_pass(previousCopy, new, newCopy, Int64(bytes))
                heldDiffers |= Int(memcmp(previousCopy, old, bytes))
            }
            floor = sampler.compare({ frame() }, against: floorFrame)
            guard heldDiffers == 0 else { throw BenchError.helper("the floor's copies do not match their frames") }
        }
        guard records > 0, offending == 0 else { throw BenchError.helper("the tracker reported \(offending) offending of \(records) commits for a correct client") }
        let label = full ? "every pixel changed" : "a 64x64 square moved"
        report.add(
            Figure(
                suite: "inspect", name: "inspector per 1920x1080 commit, \(label)", metric: "time", unit: "µs",
                value: result.subject.scaled(by: 1e-3), baseline: "memcpy of the 8 MiB frame",
                baselineValue: result.baseline.scaled(by: 1e-3), ratio: result.ratio))
        if let floor {
            report.add(
                Figure(
                    suite: "inspect", name: "inspector per 1920x1080 commit vs the memory floor, \(label)", metric: "time", unit: "µs",
                    value: floor.subject.scaled(by: 1e-3),
                    baseline: "floor: read previous + new, write copy; read held + copy (memcmp)",
                    baselineValue: floor.baseline.scaled(by: 1e-3), ratio: floor.ratio,
                    note: "the floor is the memory traffic any exact check of a full change needs on this machine"))
        }
        let milliseconds = result.subject.median / 1e6
        report.check(Target(statement: "inspector per 1920x1080 commit (\(name)) ≤ 4.2 ms (a quarter of a 60 Hz frame)", measured: milliseconds, limit: 4.2, unit: "ms"))
    }
}

@testable import DamaskInspect
import Foundation
import Testing

/// The inspector's reads of a client's mapped pool file survive a client that shrinks the
/// file (a read past its new end raises SIGBUS, which the guard turns into a failed read).
@Suite("Shared-memory pool reads", .timeLimit(.minutes(5)))
struct ShmPoolTests {
    /// A temporary file of `size` bytes filled with a byte pattern; closed and removed at deinit.
    final class PoolFile: @unchecked Sendable {
        let path: String
        let fd: Int32
        let size: Int

        init(size: Int) throws {
            self.size = size
            path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-shmpool-\(getpid())-\(UUID().uuidString)").path
            fd = open(path, O_RDWR | O_CREAT, 0o600)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            try fill()
        }

        deinit {
            close(fd)
            unlink(path)
        }

        static func pattern(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: i &* 31 &+ i >> 8) }

        func fill() throws {
            let bytes = (0..<size).map(Self.pattern)
            guard ftruncate(fd, off_t(size)) == 0, pwrite(fd, bytes, size, 0) == size else { throw POSIXError(.EIO) }
        }
    }

    @Test("A copy returns the rows without their stride padding")
    func copyPacksRows() throws {
        let file = try PoolFile(size: 4096)
        let pool = ShmPool(duplicating: file.fd, size: 4096)
        let rows = try #require(pool.copyRows(offset: 100, stride: 64, rowBytes: 40, height: 3))
        let expected = (0..<3).flatMap { row in (0..<40).map { PoolFile.pattern(100 + row * 64 + $0) } }
        #expect(rows == expected)
    }

    @Test("Rows past the declared pool size, or past a shrunk file's end, are unreadable, not a fault")
    func shrunkFileIsUnreadable() throws {
        let file = try PoolFile(size: 8192)
        let pool = ShmPool(duplicating: file.fd, size: 8192)
        #expect(pool.copyRows(offset: 8000, stride: 256, rowBytes: 256, height: 2) == nil)
        #expect(pool.copyRows(offset: 0, stride: 256, rowBytes: 256, height: 32)?.count == 8192)
        #expect(ftruncate(file.fd, 1000) == 0)
        #expect(pool.copyRows(offset: 0, stride: 256, rowBytes: 256, height: 32) == nil)
        #expect(pool.copyRows(offset: 0, stride: 256, rowBytes: 256, height: 3)?.count == 768)
        pool.resize(to: 100)
        #expect(pool.copyRows(offset: 0, stride: 256, rowBytes: 256, height: 1) == nil)
    }

    @Test("A file shrunk while its rows are read fails that read (the SIGBUS is caught), and the next read maps the file again")
    func shrinkDuringReadIsCaught() throws {
        let size = 1 << 16
        let file = try PoolFile(size: size)
        let pool = ShmPool(duplicating: file.fd, size: size)
        var rowsSeen = 0, sum = 0
        #expect(throws: ShmReadFailure.fileShrunk) {
            try pool.readRows(offset: 0, stride: 4096, rowBytes: 4096, height: 16) { y, row in
                if y == 0 { _ = ftruncate(file.fd, 4096) }
                // Row 1 onwards lies past the file's new end: reading it faults.
                sum &+= Int(row.load(fromByteOffset: 4095, as: UInt8.self))
                rowsSeen += 1
            }
        }
        #expect(rowsSeen == 16, "every row was handed over (zeros past the end), none crashed")
        try file.fill()
        let rows = try #require(pool.copyRows(offset: 0, stride: 4096, rowBytes: 4096, height: 16))
        #expect(rows == (0..<size).map(PoolFile.pattern))
    }

    @Test("Copying while another thread keeps shrinking and regrowing the file never faults")
    func concurrentShrinkNeverFaults() throws {
        let size = 1 << 20
        let file = try PoolFile(size: size)
        let pool = ShmPool(duplicating: file.fd, size: size)
        let stop = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let fd = file.fd
        let thread = Thread {
            var toggles = 0
            while stop.wait(timeout: .now()) == .timedOut {
                _ = ftruncate(fd, off_t(toggles % 2 == 0 ? 4096 : size))
                toggles += 1
            }
            stopped.signal()
        }
        thread.start()
        var complete = 0, unreadable = 0
        for _ in 0..<200 {
            if let rows = pool.copyRows(offset: 0, stride: 4096, rowBytes: 4096, height: 256) {
                #expect(rows.count == size)
                complete += 1
            } else {
                unreadable += 1
            }
        }
        stop.signal()
        stopped.wait()
        // Reaching here without SIGBUS is the point; every attempt was either a full copy or nil.
        #expect(complete + unreadable == 200)
        #expect(unreadable > 0, "the file was shrunk under most copies")
        try file.fill()
        #expect(pool.copyRows(offset: 0, stride: 4096, rowBytes: 4096, height: 256)?.count == size)
    }
}

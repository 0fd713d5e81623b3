import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// Damaged image files — truncated, not PNG at all, lying about their size — are reported
/// as errors by `Bitmap(contentsOfPNGFile:)`, never crashed on.
@Suite("Reliability: damaged PNG files", .timeLimit(.minutes(5)))
struct ReliabilityTests {
    /// A small valid PNG with some detail, so that every prefix cuts real data.
    static func samplePNG() throws -> [UInt8] {
        let bitmap = try Bitmap(width: 37, height: 23)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.red)
        context.fill(CGRect(x: 3, y: 2, width: 20, height: 9))
        context.setFillColor(Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.5))
        context.fillEllipse(in: CGRect(x: 10, y: 5, width: 25, height: 17))
        return try bitmap.pngData()
    }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("damask-\(getpid())-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The CRC-32 PNG chunks carry (ISO 3309), over `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `png` with its IHDR width and height replaced (and the chunk's CRC fixed up).
    static func withHeaderSize(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = png
        // Signature (8) + length (4) + "IHDR" (4), then width and height, big-endian.
        for (offset, value) in [(16, width), (20, height)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        let crc = crc32(bytes[12..<29])
        for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return bytes
    }

    @Test("Every truncation of a PNG file's image data is reported as a decoding error, and the whole file decodes")
    func truncatedFilesAreReported() throws {
        let png = try Self.samplePNG()
        let path = try Self.temporaryFile(png, "whole.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try Bitmap(contentsOfPNGFile: path)
        #expect(whole.width == 37 && whole.height == 23)

        // Cuts inside the final IEND chunk (its 12 bytes) leave every pixel intact, and libpng
        // accepts them; every cut before it loses data and must be reported.
        var unreported: [Int] = []
        for length in 0..<(png.count - 12) {
            let cut = try Self.temporaryFile(Array(png.prefix(length)), "cut-\(length).png")
            defer { try? FileManager.default.removeItem(atPath: cut) }
            do {
                _ = try Bitmap(contentsOfPNGFile: cut)
                unreported.append(length)
            } catch let error as GraphicsError {
                guard case .pngDecodingFailed(let message) = error, !message.isEmpty else {
                    unreported.append(length)
                    continue
                }
            }
        }
        #expect(unreported.isEmpty, "prefixes of \(png.count) bytes that decoded without error: \(unreported)")
    }

    @Test("Files that are not PNG — empty, text, JPEG magic, a directory, missing — are reported", arguments: [
        "empty", "text", "jpeg", "directory", "missing",
    ])
    func nonPNGFilesAreReported(kind: String) throws {
        let path: String
        switch kind {
        case "empty": path = try Self.temporaryFile([], "empty.png")
        case "text": path = try Self.temporaryFile(Array("not an image\n".utf8), "text.png")
        case "jpeg": path = try Self.temporaryFile([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8), "jpeg.png")
        case "directory": path = FileManager.default.temporaryDirectory.path
        default: path = "/nonexistent/damask/reference.png"
        }
        defer { if kind != "directory" { try? FileManager.default.removeItem(atPath: path) } }
        #expect {
            _ = try Bitmap(contentsOfPNGFile: path)
        } throws: { error in
            guard case .pngDecodingFailed(let message) = error as? GraphicsError else { return false }
            return !message.isEmpty
        }
    }

    @Test("A header claiming a huge image over truncated data is reported without allocating the claimed size")
    func hugeClaimedSizeIsReportedCheaply() throws {
        let png = try Self.samplePNG()
        for (width, height) in [(30_000, 30_000), (100_000, 100_000), (1, 2_000_000_000)] {
            let lying = Self.withHeaderSize(png, width: UInt32(width), height: UInt32(height))
            let path = try Self.temporaryFile(lying, "huge-\(width).png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let started = ThreadCPUTime.now()
            #expect(throws: GraphicsError.self) { _ = try Bitmap(contentsOfPNGFile: path) }
            let cpu = ThreadCPUTime.since(started)
            #expect(cpu < 1, "\(width)×\(height) took \(cpu) s of CPU to reject")
        }
    }
}

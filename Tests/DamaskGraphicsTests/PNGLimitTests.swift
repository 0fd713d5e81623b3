import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// PNG decoding against hostile files: decompression bombs refused from the header, and a
/// fixed-seed corpus of mutated files that must each decode or fail cleanly.
@Suite("PNG limits and fuzz corpus", .timeLimit(.minutes(5)))
struct PNGLimitTests {
    /// CRC-32 (ISO-HDLC), as PNG chunks carry.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A 1-bit greyscale PNG header claiming `width`×`height`, with `dataBytes` of IDAT:
    /// what a decompression bomb looks like before its data is inflated.
    static func oneBitBomb(width: UInt32, height: UInt32, dataBytes: Int) -> [UInt8] {
        let header = bigEndian(width) + bigEndian(height) + [1, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C] + [UInt8](repeating: 0, count: dataBytes)) + chunk("IEND", [])
    }

    @Test(
        "A 1-bit PNG claiming 8000² or 23170² pixels is refused from its header, before allocating",
        arguments: [(UInt32(8_000), 7_800), (UInt32(23_170), 65_000)])
    func decompressionBombIsRefused(side: UInt32, dataBytes: Int) {
        let started = ThreadCPUTime.now()
        let error = #expect(throws: GraphicsError.self) {
            _ = try Bitmap(pngData: Self.oneBitBomb(width: side, height: side, dataBytes: dataBytes))
        }
        let cpu = ThreadCPUTime.since(started)
        #expect(cpu < 1, "\(cpu) s of CPU")
        #expect("\(String(describing: error))".contains("the image is \(side)×\(side) pixels, more than the limit of 33177600"))
    }

    @Test("An image at the limit is still accepted by the size check")
    func imageAtTheLimitPassesTheSizeCheck() {
        // 7680×4320 with no real data fails later (in libpng), not at the size check.
        let error = #expect(throws: GraphicsError.self) {
            _ = try Bitmap(pngData: Self.oneBitBomb(width: 7_680, height: 4_320, dataBytes: 8_000))
        }
        #expect(!"\(String(describing: error))".contains("more than the limit"))
    }

    @Test("2,000 mutations of a real PNG (bit flips, cuts, splices, lying sizes) each decode or fail cleanly, in bounded time")
    func mutatedPNGCorpusNeverCrashes() throws {
        let source = try Bitmap(width: 37, height: 23)
        for y in 0..<23 {
            for x in 0..<37 { source.setPixel(x: x, y: y, to: 0xFF00_0000 | UInt32(x * 7) << 16 | UInt32(y * 11) << 8 | 0x40) }
        }
        let original = try source.pngData()
        var generator = SeededRandom(seed: 0x5EED_DA5A_2026_1130)
        var decoded = 0
        var refused = 0
        let started = ThreadCPUTime.now()
        for _ in 0..<2_000 {
            var bytes = original
            switch generator.next(5) {
            case 0:  // flip bits
                for _ in 0...generator.next(8) {
                    let index = generator.next(bytes.count)
                    bytes[index] ^= UInt8(1 << generator.next(8))
                }
            case 1:  // cut
                bytes = Array(bytes.prefix(generator.next(bytes.count)))
            case 2:  // lie about the size in IHDR (offsets 16…23), keeping the CRC right
                let width = UInt32(generator.next(40_000)), height = UInt32(generator.next(40_000))
                bytes.replaceSubrange(16..<24, with: Self.bigEndian(width) + Self.bigEndian(height))
                bytes.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(Array(bytes[12..<29]))))
            case 3:  // splice random bytes in
                let index = generator.next(bytes.count)
                bytes.insert(contentsOf: (0..<generator.next(64)).map { _ in UInt8(generator.next(256)) }, at: index)
            default:  // overwrite a run with one byte
                let index = generator.next(bytes.count)
                let length = min(bytes.count - index, generator.next(32))
                bytes.replaceSubrange(index..<index + length, with: [UInt8](repeating: UInt8(generator.next(256)), count: length))
            }
            do {
                let bitmap = try Bitmap(pngData: bytes)
                #expect(bitmap.width * bitmap.height <= Bitmap.maximumPNGPixelCount)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == 2_000)
        #expect(refused > 0 && decoded > 0, "the corpus exercises both outcomes: \(decoded) decoded, \(refused) refused")
        let cpu = ThreadCPUTime.since(started)
        #expect(cpu < 60, "\(cpu) s of CPU for the corpus")
    }
}

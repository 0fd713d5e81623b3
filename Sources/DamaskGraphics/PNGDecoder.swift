import CZlib

/// Decodes the PNG files Damask and most screenshot tools write — 8-bit RGB or RGBA, not
/// interlaced, no palette, transparency key or unusual gamma — straight from the file's
/// IDAT chunks into a bitmap's rows: zlib inflates a block of rows at a time into one small
/// buffer (about 64 KiB, so it stays in cache), each row is unfiltered in place and
/// converted (premultiplied for RGBA) into the bitmap.
///
/// Anything else, and any file this decoder finds wrong in any way (bad CRC, truncated or
/// excess data, unknown filter), is left to libpng (``Bitmap/init(pngData:)`` then decodes
/// it with libpng's simplified API, which also produces the error message). So this path
/// never decides an error by itself and gives exactly libpng's pixels: its eligibility
/// rules exclude every chunk that makes libpng's simplified reader change pixel values.
///
/// Threading: stateless; each call owns its zlib stream and row buffer.
enum PNGDecoder {
    /// What the direct path needs from the chunks before the image data.
    struct Header: Equatable {
        /// Pixels per row.
        var width: Int
        /// Rows.
        var height: Int
        /// Whether the rows are RGBA (colour type 6) rather than RGB (2).
        var hasAlpha: Bool
        /// The byte offset of the first IDAT chunk (its length field).
        var firstImageChunk: Int
    }

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A big-endian 32-bit value at `offset` (the caller checked the bounds).
    @inline(__always)
    private static func word(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
    }

    /// Four ASCII bytes as a chunk type word.
    private static func type(_ name: StaticString) -> UInt32 {
        let bytes = name.utf8Start
        return UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    private static let ihdr = type("IHDR"), idat = type("IDAT"), plte = type("PLTE"), trns = type("tRNS")
    private static let gama = type("gAMA")

    /// The gAMA value of sRGB-encoded files (1/2.2 × 100,000), the only one taken directly.
    static let sRGBGamma: UInt32 = 45_455

    /// The header when `data` is a file the direct path decodes; nil otherwise (libpng's
    /// turn). Checks the signature, IHDR (with its CRC), and that every chunk before the
    /// first IDAT is one that does not change decoded pixels.
    static func header(of data: UnsafeRawBufferPointer) -> Header? {
        guard data.count >= 8 + 25, data.prefix(8).elementsEqual(signature) else { return nil }
        var offset = 8
        var header: Header?
        while offset + 12 <= data.count {
            let length = Int(word(data, offset))
            let kind = word(data, offset + 4)
            guard length <= Int(Int32.max), length <= data.count - offset - 12 else { return nil }
            let body = offset + 8
            if header == nil {
                // IHDR first, 13 bytes, CRC right.
                guard kind == ihdr, length == 13, crcMatches(data, chunk: offset, length: length) else { return nil }
                let width = Int(word(data, body)), height = Int(word(data, body + 4))
                let depth = data[body + 8], colour = data[body + 9]
                guard width > 0, height > 0, depth == 8, colour == 2 || colour == 6,
                    data[body + 10] == 0, data[body + 11] == 0, data[body + 12] == 0
                else { return nil }
                header = Header(width: width, height: height, hasAlpha: colour == 6, firstImageChunk: 0)
            } else if kind == idat {
                header?.firstImageChunk = offset
                return header
            } else if kind == plte || kind == trns {
                return nil
            } else if kind == gama {
                guard length == 4, word(data, body) == sRGBGamma else { return nil }
            } else if data[offset + 4] & 0x20 == 0 {
                // Any other critical chunk (upper-case first letter): libpng decides.
                return nil
            }
            offset = body + length + 4
        }
        return nil
    }

    /// Whether the CRC stored after a chunk matches its type and data.
    private static func crcMatches(_ data: UnsafeRawBufferPointer, chunk offset: Int, length: Int) -> Bool {
        let computed = crc32_z(0, data.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset + 4, 4 + length)
        return UInt32(truncatingIfNeeded: computed) == word(data, offset + 8 + length)
    }

    /// Decodes the image data of `data`, whose `header` came from ``header(of:)``, into
    /// `pixels` (premultiplied ARGB32 rows `bytesPerRow` apart, `header.height` of them,
    /// owned by the caller). Returns false at the first problem; `pixels` may then hold
    /// partial rows, which the caller overwrites.
    static func decode(_ data: UnsafeRawBufferPointer, header: Header, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int) -> Bool {
        let channels = header.hasAlpha ? 4 : 3
        let rowBytes = header.width * channels
        let rowStride = rowBytes + 1
        let blockRows = max(1, 65_536 / rowStride)
        // The previous row (filter byte slot, then its unfiltered bytes; zeros before the
        // first row), then a block of rows.
        // (4 spare bytes: the RGB conversion loads 4 bytes for each 3-byte pixel.)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: rowStride * (blockRows + 1) + 4)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: rowStride)
        var stream = z_stream()
        guard damask_inflate_init(&stream) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        let base = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var nextChunk = header.firstImageChunk
        /// Points the stream at the next IDAT chunk's data; false when there is none or its
        /// CRC is wrong.
        func feed() -> Bool {
            while true {
                guard nextChunk + 12 <= data.count, word(data, nextChunk + 4) == idat else { return false }
                let length = Int(word(data, nextChunk))
                guard length <= data.count - nextChunk - 12, crcMatches(data, chunk: nextChunk, length: length) else { return false }
                stream.next_in = UnsafeMutablePointer(mutating: base + nextChunk + 8)
                stream.avail_in = UInt32(length)
                nextChunk += 12 + length
                if length > 0 { return true }
            }
        }
        var y = 0
        while y < header.height {
            let rows = min(blockRows, header.height - y)
            stream.next_out = buffer + rowStride
            stream.avail_out = UInt32(rows * rowStride)
            while stream.avail_out > 0 {
                if stream.avail_in == 0 && !feed() { return false }
                let status = inflate(&stream, Z_NO_FLUSH)
                // The stream may not end before the last row is complete.
                guard status == Z_OK || (status == Z_STREAM_END && stream.avail_out == 0) else { return false }
                if status == Z_STREAM_END { break }
            }
            for r in 0..<rows {
                let row = buffer + (r + 1) * rowStride
                let above = row - rowStride + 1
                guard unfilter(row: row, above: above, count: rowBytes, channels: channels) else { return false }
                let target = (pixels + (y + r) * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                if header.hasAlpha {
                    convertRGBA(row + 1, width: header.width, into: target)
                } else {
                    convertRGB(row + 1, width: header.width, into: target)
                }
            }
            // The block's last row is the next block's row above.
            (buffer + 1).update(from: buffer + rows * rowStride + 1, count: rowBytes)
            y += rows
        }
        // The zlib stream must end here, its checksum right, with no data left over.
        while true {
            // One byte of room (in the row buffer, no longer needed) shows any excess.
            stream.next_out = buffer + rowStride
            stream.avail_out = 1
            let status = inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { return stream.avail_out == 1 }
            guard status == Z_OK || status == Z_BUF_ERROR, stream.avail_out == 1 else { return false }
            if stream.avail_in == 0 && !feed() { return false }
        }
    }

    /// Undoes the filter of one row in place: `row[0]` is the filter type, `row[1...]` the
    /// filtered bytes; `above` the unfiltered previous row's bytes. False for an unknown
    /// filter type.
    @inline(__always)
    private static func unfilter(row: UnsafeMutablePointer<UInt8>, above: UnsafeMutablePointer<UInt8>, count: Int, channels: Int) -> Bool {
        let bytes = row + 1
        switch row[0] {
        case 0:
            return true
        case 1:
            var i = channels
            while i < count {
                bytes[i] = bytes[i] &+ bytes[i &- channels]
                i &+= 1
            }
        case 2:
            for i in 0..<count { bytes[i] = bytes[i] &+ above[i] }
        case 3:
            for i in 0..<min(channels, count) { bytes[i] = bytes[i] &+ above[i] >> 1 }
            var i = channels
            while i < count {
                bytes[i] = bytes[i] &+ UInt8(truncatingIfNeeded: (Int(bytes[i &- channels]) &+ Int(above[i])) >> 1)
                i &+= 1
            }
        case 4:
            for i in 0..<min(channels, count) { bytes[i] = bytes[i] &+ above[i] }
            var i = channels
            while i < count {
                let a = Int(bytes[i &- channels]), b = Int(above[i]), c = Int(above[i &- channels])
                bytes[i] = bytes[i] &+ UInt8(truncatingIfNeeded: PNGEncoder.paethPredictor(a, b, c))
                i &+= 1
            }
        default:
            return false
        }
        return true
    }

    /// R, G, B bytes to opaque `0xFFRRGGBB` words. Loads 4 bytes per pixel, so one byte
    /// after the row must be readable.
    @inline(__always)
    private static func convertRGB(_ bytes: UnsafeMutablePointer<UInt8>, width: Int, into target: UnsafeMutablePointer<UInt32>) {
        let source = UnsafeRawPointer(bytes)
        for x in 0..<width {
            // Bytes R, G, B, (next) as a little-endian word, byte-swapped: R G B in the top
            // three bytes.
            let word = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: x &* 3, as: UInt32.self))
            target[x] = 0xFF00_0000 | word.byteSwapped >> 8
        }
    }

    /// R, G, B, A bytes (straight alpha) to premultiplied `0xAARRGGBB` words, rounded as
    /// ``Bitmap/premultiply(_:)``.
    @inline(__always)
    private static func convertRGBA(_ bytes: UnsafeMutablePointer<UInt8>, width: Int, into target: UnsafeMutablePointer<UInt32>) {
        var source = bytes
        for x in 0..<width {
            let straight = UInt32(source[3]) << 24 | UInt32(source[0]) << 16 | UInt32(source[1]) << 8 | UInt32(source[2])
            target[x] = Bitmap.premultiply(straight)
            source += 4
        }
    }
}

import CZlib

/// Writes a bitmap as a PNG file: RGB (opaque) or RGBA rows, all filtered with the one
/// filter that compresses samples of the image best, deflated by zlib in one pass into one
/// buffer, wrapped in the PNG chunks by hand (signature, IHDR, IDAT, IEND).
///
/// Why not libpng's writer: its default work (all five filters tried on every row and the
/// one with the smallest sum of absolute differences kept, then zlib level 6 with
/// `Z_FILTERED`) spent about a third of the time choosing filters, and on user-interface
/// images (flat colour, text, anti-aliased shapes) those filters make the file 10–20 %
/// *bigger* than no filter at all, because deflate finds the long repeats of unfiltered
/// rows and loses them in filtered ones. Here the image is filtered with either no filter
/// or Paeth, whichever deflates a sample of its rows (8 of every 128, at zlib level 1)
/// smaller — photographs and smooth gradients pick Paeth, screens pick none — and the
/// whole stream is deflated at zlib level 6 with the default strategy. (Choosing per block
/// of rows from such small samples was tried and chose worse: a sample of a few rows hides
/// the repeats from the rows above that make unfiltered rows compress well.) docs/graphics.md ("PNG encoding
/// and decoding") has the measured sizes and times against cairo.
///
/// Threading: stateless; each call owns every buffer and zlib stream it makes.
enum PNGEncoder {
    /// PNG filter types (the byte that starts each filtered row).
    enum Filter: UInt8 {
        case none = 0
        case paeth = 4
    }

    /// One sample is taken from each block of this many rows.
    static let blockRows = 128
    /// The rows of a sample (the first rows of its block).
    static let sampleRows = 8
    /// The zlib level of the stream (libpng's and cairo's default).
    static let level: Int32 = 6
    /// The most bytes one IDAT chunk carries (PNG allows up to 2³¹ − 1).
    static let maximumChunkData = 1 << 30

    /// Encodes `bitmap`: RGB when `opaque` (no alpha channel is written), else
    /// unpremultiplied RGBA. `forced` replaces the sampled choice of filter (tests).
    ///
    /// - Returns: the file's bytes and the filter its rows use.
    /// - Throws: ``GraphicsError/pngEncodingFailed(_:)`` when zlib cannot allocate or fails.
    static func encode(_ bitmap: Bitmap, opaque: Bool, filter forced: Filter? = nil) throws -> (bytes: [UInt8], filter: Filter) {
        let width = bitmap.width, height = bitmap.height
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let rowStride = rowBytes + 1
        let rawCount = rowStride * height
        // One spare byte: the RGB conversion stores 4 bytes for each 3-byte pixel.
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 1)
        defer { raw.deallocate() }
        for y in 0..<height {
            let source = (bitmap.bytes + y * bitmap.bytesPerRow).assumingMemoryBound(to: UInt32.self)
            convert(row: source, width: width, opaque: opaque, into: raw + y * rowStride + 1)
        }
        let filter = try forced ?? chooseFilter(raw: raw, rowBytes: rowBytes, height: height, channels: channels)
        // Bottom to top, right to left: every filter reads only unfiltered bytes (the row
        // above and the bytes to the left are still unfiltered when a byte is filtered).
        for y in stride(from: height - 1, through: 0, by: -1) {
            let row = raw + y * rowStride
            row[0] = filter.rawValue
            if filter == .paeth {
                paethFilter(row: row + 1, above: y > 0 ? row + 1 - rowStride : nil, count: rowBytes, channels: channels)
            }
        }
        return (try container(width: width, height: height, alpha: !opaque, raw: raw, rawCount: rawCount), filter)
    }

    /// Writes one row of premultiplied ARGB32 pixels as PNG's R, G, B bytes (`opaque`) or
    /// R, G, B, A bytes with straight alpha. For RGB each pixel is stored as 4 bytes and
    /// the next one overwrites the fourth, so `output` must have one byte to spare after
    /// the row.
    @inline(__always)
    private static func convert(row: UnsafeMutablePointer<UInt32>, width: Int, opaque: Bool, into output: UnsafeMutablePointer<UInt8>) {
        let out = UnsafeMutableRawPointer(output)
        if opaque {
            for x in 0..<width {
                let p = row[x]
                // 0x??RRGGBB → bytes R, G, B, (garbage).
                let word = (p >> 16 & 0xFF) | (p & 0xFF00) | (p & 0xFF) << 16
                out.storeBytes(of: word.littleEndian, toByteOffset: x &* 3, as: UInt32.self)
            }
        } else {
            for x in 0..<width {
                let p = Bitmap.unpremultiply(row[x])
                let word = (p >> 16 & 0xFF) | (p & 0xFF00) | (p & 0xFF) << 16 | (p & 0xFF00_0000)
                out.storeBytes(of: word.littleEndian, toByteOffset: x &* 4, as: UInt32.self)
            }
        }
    }

    /// The image's filter: Paeth when the first ``sampleRows`` rows of every block of
    /// ``blockRows`` rows, each sample deflated alone at zlib level 1, come to fewer bytes
    /// with it than with no filter.
    static func chooseFilter(
        raw: UnsafeMutablePointer<UInt8>, rowBytes: Int, height: Int, channels: Int
    ) throws -> Filter {
        let rowStride = rowBytes + 1
        let blocks = (height + blockRows - 1) / blockRows
        let sampleBytes = rowStride * min(sampleRows, height)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: sampleBytes)
        defer { scratch.deallocate() }
        let sink = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        defer { sink.deallocate() }
        var stream = z_stream()
        guard damask_deflate_init(&stream, 1, Z_DEFAULT_STRATEGY) == Z_OK else {
            throw GraphicsError.pngEncodingFailed("zlib could not start a stream (out of memory)")
        }
        defer { deflateEnd(&stream) }
        /// The deflated size of `count` bytes at `input` (output discarded).
        func deflatedSize(_ input: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
            deflateReset(&stream)
            stream.next_in = input
            stream.avail_in = UInt32(count)
            var status: Int32
            repeat {
                stream.next_out = sink
                stream.avail_out = 4096
                status = deflate(&stream, Z_FINISH)
            } while status == Z_OK
            return Int(stream.total_out)
        }
        var plainTotal = 0, paethTotal = 0
        for block in 0..<blocks {
            let first = block * blockRows
            let rows = min(sampleRows, height - first)
            let count = rows * rowStride
            // The unfiltered rows (filter byte 0), then the same rows Paeth-filtered.
            for r in 0..<rows { (raw + (first + r) * rowStride)[0] = Filter.none.rawValue }
            let plain = deflatedSize(raw + first * rowStride, count)
            scratch.update(from: raw + first * rowStride, count: count)
            for r in stride(from: rows - 1, through: 0, by: -1) {
                let row = scratch + r * rowStride
                row[0] = Filter.paeth.rawValue
                // The row above in the unfiltered image (the scratch copy's own rows are
                // filtered bottom-up, so the one above is still unfiltered).
                let above: UnsafeMutablePointer<UInt8>? =
                    r > 0 ? row + 1 - rowStride : (first > 0 ? raw + (first - 1) * rowStride + 1 : nil)
                paethFilter(row: row + 1, above: above, count: rowBytes, channels: channels)
            }
            paethTotal += deflatedSize(scratch, count)
            plainTotal += plain
        }
        return paethTotal < plainTotal ? .paeth : .none
    }

    /// Replaces `row`'s bytes by their Paeth residues (PNG filter type 4), right to left, so
    /// that each byte's left neighbour is still the unfiltered value. `above` is the
    /// unfiltered previous row (nil for the first row: zeros).
    @inline(__always)
    private static func paethFilter(
        row: UnsafeMutablePointer<UInt8>, above: UnsafeMutablePointer<UInt8>?, count: Int, channels: Int
    ) {
        guard let above else {
            // No row above: Paeth's predictor is the left byte (Sub).
            var i = count &- 1
            while i >= channels {
                row[i] = row[i] &- row[i &- channels]
                i &-= 1
            }
            return
        }
        var i = count &- 1
        while i >= channels {
            let a = Int(row[i &- channels]), b = Int(above[i]), c = Int(above[i &- channels])
            row[i] = row[i] &- UInt8(truncatingIfNeeded: paethPredictor(a, b, c))
            i &-= 1
        }
        while i >= 0 {
            // The first pixel: a = c = 0, so the predictor is the byte above.
            row[i] = row[i] &- above[i]
            i &-= 1
        }
    }

    /// PNG's Paeth predictor of a byte from its left (`a`), upper (`b`) and upper-left
    /// (`c`) neighbours.
    @inline(__always)
    static func paethPredictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let pa = abs(b &- c), pb = abs(a &- c), pc = abs(a &+ b &- c &- c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// The PNG file: signature, IHDR, the deflated rows in IDAT chunks of at most
    /// ``maximumChunkData`` bytes (one for any ordinary image), IEND.
    private static func container(
        width: Int, height: Int, alpha: Bool, raw: UnsafeMutablePointer<UInt8>, rawCount: Int
    ) throws -> [UInt8] {
        var stream = z_stream()
        guard damask_deflate_init(&stream, level, Z_DEFAULT_STRATEGY) == Z_OK else {
            throw GraphicsError.pngEncodingFailed("zlib could not start a stream (out of memory)")
        }
        defer { deflateEnd(&stream) }
        // deflateBound takes a 32-bit length on this zlib: bound the pieces instead.
        let pieceLimit = 1 << 30
        var bound = 0
        var left = rawCount
        while left > 0 {
            let piece = min(left, pieceLimit)
            bound += Int(deflateBound(&stream, UInt(piece)))
            left -= piece
        }
        let headerBytes = 8 + 25
        let capacity = headerBytes + bound + 12 * (bound / maximumChunkData + 2) + 12
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { output.deallocate() }
        var at = 0
        func put(_ bytes: [UInt8]) {
            for byte in bytes { output[at] = byte; at += 1 }
        }
        func put32(_ value: UInt32) {
            put([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        func closeChunk(startingAt start: Int) {
            // `start` is where the chunk's length goes; its type and data follow.
            let dataCount = at - start - 8
            let crc = crc32_z(0, output + start + 4, 4 + dataCount)
            let saved = at
            at = start
            put32(UInt32(dataCount))
            at = saved
            put32(UInt32(truncatingIfNeeded: crc))
        }
        put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var start = at
        put32(13)
        put(Array("IHDR".utf8))
        put32(UInt32(width))
        put32(UInt32(height))
        // 8 bits per channel, colour type RGB (2) or RGBA (6), deflate, adaptive filtering
        // method 0, no interlace.
        put([8, alpha ? 6 : 2, 0, 0, 0])
        closeChunk(startingAt: start)

        stream.next_in = raw
        var inputLeft = rawCount
        var finished = false
        while !finished {
            start = at
            put32(0)
            put(Array("IDAT".utf8))
            // Room for this chunk's CRC and IEND always stays free.
            let chunkEnd = at + min(maximumChunkData, capacity - at - 4 - 12)
            guard chunkEnd > at else { throw GraphicsError.pngEncodingFailed("the compressed rows outgrew zlib's bound") }
            while !finished && at < chunkEnd {
                if stream.avail_in == 0 && inputLeft > 0 {
                    let piece = min(inputLeft, pieceLimit)
                    stream.avail_in = UInt32(piece)
                    inputLeft -= piece
                }
                let room = min(chunkEnd - at, pieceLimit)
                let inputBefore = stream.avail_in
                stream.next_out = output + at
                stream.avail_out = UInt32(room)
                let status = deflate(&stream, inputLeft == 0 ? Z_FINISH : Z_NO_FLUSH)
                let produced = room - Int(stream.avail_out)
                at += produced
                switch status {
                case Z_STREAM_END: finished = true
                case Z_OK where produced > 0 || stream.avail_in != inputBefore: break
                default: throw GraphicsError.pngEncodingFailed("zlib failed to compress the rows (status \(status))")
                }
            }
            closeChunk(startingAt: start)
        }
        start = at
        put32(0)
        put(Array("IEND".utf8))
        closeChunk(startingAt: start)
        return [UInt8](UnsafeBufferPointer(start: output, count: at))
    }
}

/// Composites a solid premultiplied colour with the OVER operator straight into a 32-bit
/// bitmap, one covered span or coverage run at a time, instead of rasterizing a coverage mask and
/// compositing it with pixman.
///
/// Fully covered spans of an opaque colour are plain stores (most of a filled shape);
/// every other pixel gets `colour·coverage + destination·(1 − alpha·coverage)` with
/// pixman's rounding (`x·y/255` as `(t + (t >> 8)) >> 8` with `t = x·y + 128`, and a
/// saturating add), so the pixels equal those of pixman's `OVER` with a solid source and
/// an `a8` mask, bit for bit — a test pins this. `colour·coverage` comes from a table of
/// all 256 products (``SolidSourceTable``), so a pixel costs one product, not two.
///
/// It takes the scan converter's cells directly (``takesCells``): where edges pass, each
/// pixel's coverage is summed, converted and blended in one pass, with no coverage bytes
/// in between.
///
/// Borrows `origin` (the bitmap owns its memory and must outlive the scan) and `sources`
/// (the context's ``SolidSourceTable`` owns it; it must hold this painter's colour and
/// outlive the scan). Every span lands inside the box the scan converts, which the caller
/// keeps within the bitmap and its clip; that is what makes the unchecked writes safe.
struct SolidSpanPainter: CoverageSink {
    /// The pixel at the converted box's (0, 0).
    let origin: UnsafeMutablePointer<UInt32>
    /// The distance between bitmap rows, in pixels.
    let pixelsPerRow: Int
    /// The premultiplied colour as `0xAARRGGBB`.
    let color: UInt32
    /// `color` times coverage `m` / 255, rounded per channel as pixman does, at index `m`
    /// (256 entries; entry 255 is `color`).
    let sources: UnsafePointer<UInt32>

    static var takesCells: Bool { true }

    @inline(__always)
    mutating func span(row: Int, x: Int, count: Int, coverage: UInt8) {
        let pixels = origin + row * pixelsPerRow + x
        let source = sources[Int(coverage)]
        let inverse = 255 &- (source >> 24)
        if inverse == 0 {
            pixels.update(repeating: source, count: count)
            return
        }
        for i in 0..<count {
            pixels[i] = SolidSpanPainter.multiply(pixels[i], by: inverse, adding: source)
        }
    }

    /// Blends a run of per-pixel coverages (where edges pass) without a branch per pixel:
    /// coverage 0 leaves a pixel as it is and 255 stores the colour, by the same formula.
    ///
    /// For an opaque colour the result is `colour·c/255 + destination·(255 − c)/255` per
    /// channel, each product rounded as pixman rounds it; that is pixman's `OVER` (the
    /// source's alpha is `c`, and the two rounded terms never sum above 255, so its
    /// saturating add never saturates, and the packed sum never carries between
    /// channels), with half the work.
    @inline(__always)
    mutating func coverage(row: Int, x: Int, values: UnsafePointer<UInt8>, count: Int) {
        let pixels = origin + row * pixelsPerRow + x
        if color >> 24 == 255 {
            for i in 0..<count {
                let m = Int(values[i])
                pixels[i] = sources[m] &+ SolidSpanPainter.scale(pixels[i], by: 255 &- UInt64(m))
            }
            return
        }
        for i in 0..<count {
            let source = sources[Int(values[i])]
            pixels[i] = SolidSpanPainter.multiply(pixels[i], by: 255 &- (source >> 24), adding: source)
        }
    }

    /// ``coverage(row:x:values:count:)`` with each pixel's coverage summed from the cells
    /// as it is blended (the scan converter's run, see ``CoverageSink/cells(row:x:cells:count:running:)``);
    /// zeroes the cells. The pixels equal those of the two-pass form exactly (a pixel of
    /// coverage 0, which that form may skip, is left as it is by the formula).
    @inline(__always)
    mutating func cells(row: Int, x: Int, cells: UnsafeMutablePointer<Int32>, count: Int, running: Int32) -> Int32 {
        let pixels = origin + row * pixelsPerRow + x
        var sum = running
        if color >> 24 == 255 {
            for i in 0..<count {
                sum &+= cells[i]
                cells[i] = 0
                let m = Rasterizer.coverageByte(sum)
                pixels[i] = sources[Int(m)] &+ SolidSpanPainter.scale(pixels[i], by: 255 &- UInt64(m))
            }
            return sum
        }
        for i in 0..<count {
            sum &+= cells[i]
            cells[i] = 0
            let source = sources[Int(Rasterizer.coverageByte(sum))]
            pixels[i] = SolidSpanPainter.multiply(pixels[i], by: 255 &- (source >> 24), adding: source)
        }
        return sum
    }

    /// ``multiply(_:by:)`` with the four channels in the 16-bit lanes of one 64-bit word
    /// (blue, red, green, alpha from the bottom): the same products, sums and roundings
    /// per channel (no lane ever exceeds 16 bits), so the same result, in fewer operations.
    @inline(__always)
    static func scale(_ pixel: UInt32, by factor: UInt64) -> UInt32 {
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        let x = UInt64(pixel)
        var t = ((x | (x << 24)) & lanes) &* factor &+ 0x0080_0080_0080_0080
        t = ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
        return UInt32(truncatingIfNeeded: t | (t >> 24))
    }

    /// Each 8-bit channel of `pixel` times `factor` (0…255) / 255, rounded as pixman does.
    @inline(__always)
    static func multiply(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        // Two channels per 32-bit lane pair: red and blue, then alpha and green.
        var rb = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// `pixel`·`factor`/255 + `addend`, per channel, saturating at 255.
    @inline(__always)
    static func multiply(_ pixel: UInt32, by factor: UInt32, adding addend: UInt32) -> UInt32 {
        var rb = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        rb &+= addend & 0x00FF_00FF
        rb = (rb | (0x0100_0100 &- ((rb >> 8) & 0x00FF_00FF))) & 0x00FF_00FF
        var ag = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        ag = ((ag &+ ((ag >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        ag &+= (addend >> 8) & 0x00FF_00FF
        ag = (ag | (0x0100_0100 &- ((ag >> 8) & 0x00FF_00FF))) & 0x00FF_00FF
        return rb | (ag << 8)
    }
}

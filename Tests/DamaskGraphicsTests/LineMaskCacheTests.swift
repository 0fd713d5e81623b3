import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// The cache of whole-line masks stays within its byte budget and drops the least
/// recently used masks first.
@Suite("Line mask cache", .timeLimit(.minutes(5)))
struct LineMaskCacheTests {
    /// A zeroed mask of `kibibytes` KiB (rows of 1,024 bytes).
    private func mask(kibibytes: Int) throws -> CoverageMask {
        try #require(CoverageMask(x: 0, y: 0, width: 1024, height: kibibytes))
    }

    private func key(_ line: Int) -> LineMaskCache.Key {
        LineMaskCache.Key(line: line, size64: 14 * 64, scale: 1, fractionX: 0, fractionY: 0)
    }

    @Test("beyond 4 MiB the least recently used masks go first; a recently used one stays")
    func evictsLeastRecentlyUsed() throws {
        let cache = LineMaskCache()
        let perMask = 512
        let fits = LineMaskCache.byteLimit / (perMask * 1024)
        #expect(fits == 8)
        for line in 1...fits { cache.insert(try mask(kibibytes: perMask), for: key(line)) }
        #expect(cache.count == fits)
        #expect(cache.byteCount == LineMaskCache.byteLimit)
        // Line 1 is used again, so line 2 is now the least recently used.
        #expect(cache.mask(for: key(1)) != nil)
        cache.insert(try mask(kibibytes: perMask), for: key(fits + 1))
        #expect(cache.byteCount <= LineMaskCache.byteLimit)
        #expect(cache.count == fits)
        #expect(cache.mask(for: key(1)) != nil)
        #expect(cache.mask(for: key(2)) == nil)
        #expect(cache.mask(for: key(fits + 1)) != nil)
        // Many more inserts never exceed the budget.
        for line in 100..<140 { cache.insert(try mask(kibibytes: 100 + line % 7 * 50), for: key(line)) }
        #expect(cache.byteCount <= LineMaskCache.byteLimit)
    }

    @Test("a mask above 1 MiB is not kept, and the same key looks up only its own mask")
    func largeMasksAreNotKept() throws {
        let cache = LineMaskCache()
        cache.insert(try mask(kibibytes: 1025), for: key(1))
        #expect(cache.count == 0 && cache.byteCount == 0)
        let small = try mask(kibibytes: 4)
        cache.insert(small, for: key(2))
        #expect(cache.mask(for: key(2)) === small)
        var shifted = key(2)
        shifted.fractionX = 0.25
        #expect(cache.mask(for: shifted) == nil)
        // Replacing a key's mask does not count its bytes twice.
        cache.insert(try mask(kibibytes: 8), for: key(2))
        #expect(cache.count == 1 && cache.byteCount == 8 * 1024)
    }

    @Test("a line the clip cuts on its first draw gives the pixels of the whole line's mask inside the clip, draws nothing outside, and is not kept; drawn whole, it is kept")
    func clippedFirstDrawMatchesTheWholeMask() throws {
        let font = try Font(size: 15)
        let library = FreeTypeLibrary.shared
        // Clip edges every 3 pixels across the first words: many cut a glyph in two.
        for clipX in stride(from: 30, to: 120, by: 3) {
            // A string no other test draws, so that its line is new here.
            // Every other line mixes in right-to-left Arabic and Korean from a fallback face.
            let words = clipX.isMultiple(of: 2) ? "of a line" : "مرحبا 한국어 line"
            let text = "Clipped first draw \(clipX) \(UInt32.random(in: 0...UInt32.max)) \(words)"
            let line = font.line(for: text)
            let key = LineMaskCache.Key(
                line: line.serial, size64: Int((font.size * 64).rounded()), scale: 1, fractionX: 0, fractionY: 0)
            let clip = CGRect(x: CGFloat(clipX), y: 0, width: 23, height: 40)

            let clipped = try Bitmap(width: 420, height: 40)
            let clippedContext = GraphicsContext(bitmap: clipped)
            clippedContext.clip(to: clip)
            clippedContext.draw(text, at: CGPoint(x: 4, y: 26), font: font, color: .black)
            #expect(library.withLock { library.lineMasks.mask(for: key) } == nil, "a clipped first draw kept its mask")

            let whole = try Bitmap(width: 420, height: 40)
            GraphicsContext(bitmap: whole).draw(text, at: CGPoint(x: 4, y: 26), font: font, color: .black)
            #expect(library.withLock { library.lineMasks.mask(for: key) } != nil, "a whole draw kept no mask")

            var inkedInClip = 0, differing: [String] = []
            for y in 0..<40 {
                for x in 0..<420 {
                    let inside = clip.contains(CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5))
                    let expected = inside ? whole.pixel(x: x, y: y) : 0
                    if inside, expected != 0 { inkedInClip += 1 }
                    if clipped.pixel(x: x, y: y) != expected { differing.append("\(x),\(y)") }
                }
            }
            #expect(differing.isEmpty, "clip at x \(clipX): \(differing.count) pixels differ, first \(differing.prefix(5))")
            #expect(inkedInClip > 20, "clip at x \(clipX): only \(inkedInClip) inked pixels")
        }
    }

    @Test("a clipped first draw of a long line looks up only the glyphs that can reach the clip and keeps no placement; drawn whole, every glyph is placed and kept")
    func clippedFirstDrawPlacesOnlyGlyphsNearTheClip() throws {
        let font = try Font(size: 15)
        let library = FreeTypeLibrary.shared
        let text = "Placed near the clip \(UInt32.random(in: 0...UInt32.max)) " + String(repeating: "abcdefghij", count: 20)
        let line = font.line(for: text)
        let clipped = try Bitmap(width: 2000, height: 40)
        let clippedContext = GraphicsContext(bitmap: clipped)
        clippedContext.clip(to: CGRect(x: 900, y: 0, width: 20, height: 40))
        clippedContext.draw(text, at: CGPoint(x: 4, y: 26), font: font, color: .black)
        let clippedLookups = clippedContext.glyphLookupCount
        #expect(clippedLookups > 0 && clippedLookups < 12, "\(clippedLookups) look-ups for a 20-pixel clip")
        #expect(library.withLock { line.placement } == nil, "a partial placement was kept")

        let whole = try Bitmap(width: 2000, height: 40)
        let wholeContext = GraphicsContext(bitmap: whole)
        wholeContext.draw(text, at: CGPoint(x: 4, y: 26), font: font, color: .black)
        #expect(wholeContext.glyphLookupCount == line.glyphCount)
        #expect(library.withLock { line.placement?.glyphs.isEmpty } == false, "a whole draw kept no placement")
    }

    @Test("layering a8 glyphs over a mask gives pixman's OVER composite byte for byte, overlaps included")
    func layeringMatchesPixmansComposite() throws {
        var generator = SystemRandomNumberGenerator()
        var white = pixman_color_t(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF, alpha: 0xFFFF)
        let opaque = try #require(pixman_image_create_solid_fill(&white))
        defer { pixman_image_unref(opaque) }
        for round in 0..<20 {
            let ours = try #require(CoverageMask(x: 0, y: 0, width: 37, height: 23))
            let pixmans = try #require(CoverageMask(x: 0, y: 0, width: 37, height: 23))
            for row in 0..<23 {
                for column in 0..<37 {
                    // Blank, full and partial coverage, in every round.
                    let value = [0, 255, UInt8.random(in: 0...255, using: &generator)][(row + column + round) % 3]
                    ours.bytes[row * ours.bytesPerRow + column] = value
                    pixmans.bytes[row * pixmans.bytesPerRow + column] = value
                }
            }
            for _ in 0..<6 {  // overlapping glyphs of odd widths (rows padded to 4 bytes)
                let width = Int.random(in: 1...13, using: &generator), height = Int.random(in: 1...11, using: &generator)
                let glyph = try #require(pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0))
                defer { pixman_image_unref(glyph) }
                let data = try #require(pixman_image_get_data(glyph)), stride = Int(pixman_image_get_stride(glyph))
                let glyphBytes = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt8.self)
                for row in 0..<height {
                    for column in 0..<width { glyphBytes[row * stride + column] = UInt8.random(in: 0...255, using: &generator) }
                }
                let column = Int.random(in: 0...(37 - width), using: &generator)
                let row = Int.random(in: 0...(23 - height), using: &generator)
                #expect(ours.layerOver(glyph, column: column, row: row, width: width, height: height))
                pixman_image_composite32(
                    PIXMAN_OP_OVER, opaque, glyph, pixmans.image, 0, 0, 0, 0, Int32(column), Int32(row), Int32(width),
                    Int32(height))
            }
            var differing: [String] = []
            for row in 0..<23 {
                for column in 0..<37 where ours.coverage(x: column, y: row) != pixmans.coverage(x: column, y: row) {
                    differing.append("\(column),\(row): \(ours.coverage(x: column, y: row)) vs \(pixmans.coverage(x: column, y: row))")
                }
            }
            #expect(differing.isEmpty, "round \(round): \(differing.prefix(5))")
        }
        // What does not fit, or is not a8, is left to pixman.
        let mask = try #require(CoverageMask(x: 0, y: 0, width: 8, height: 8))
        let wide = try #require(pixman_image_create_bits(PIXMAN_a8, 9, 2, nil, 0))
        defer { pixman_image_unref(wide) }
        #expect(!mask.layerOver(wide, column: 0, row: 0, width: 9, height: 2))
        #expect(!mask.layerOver(wide, column: -1, row: 0, width: 4, height: 2))
        let color = try #require(pixman_image_create_bits(PIXMAN_a8r8g8b8, 2, 2, nil, 0))
        defer { pixman_image_unref(color) }
        #expect(!mask.layerOver(color, column: 0, row: 0, width: 2, height: 2))
    }

    @Test("a line's mask is pixman's OVER composite of its glyphs, whether each is layered by hand (a8) or left to pixman (a1), in any order")
    func renderedMaskMatchesPixmansComposite() throws {
        var generator = SystemRandomNumberGenerator()
        var white = pixman_color_t(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF, alpha: 0xFFFF)
        let opaque = try #require(pixman_image_create_solid_fill(&white))
        defer { pixman_image_unref(opaque) }
        /// A glyph of random pixels in `format` (a8 or a1), owned by the returned image.
        func glyph(_ format: pixman_format_code_t, left: Int) throws -> GlyphImage {
            let width = Int.random(in: 1...12, using: &generator), height = Int.random(in: 1...10, using: &generator)
            let image = try #require(pixman_image_create_bits(format, Int32(width), Int32(height), nil, 0))
            let data = try #require(pixman_image_get_data(image)), stride = Int(pixman_image_get_stride(image))
            let bytes = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt8.self)
            for index in 0..<(stride * height) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            return GlyphImage(image: image, left: left, top: height, width: width, height: height)
        }
        // Only a8 glyphs (no pixman source needed), a1 glyphs among them, and only a1 glyphs.
        for formats in [[PIXMAN_a8, PIXMAN_a8, PIXMAN_a8], [PIXMAN_a8, PIXMAN_a1, PIXMAN_a8, PIXMAN_a1], [PIXMAN_a1, PIXMAN_a1]] {
            var placed: [GlyphCache.PlacedGlyph] = []
            for (index, format) in formats.enumerated() {  // overlapping neighbours
                placed.append(GlyphCache.PlacedGlyph(x: Int32(3 + 5 * index), y: 12, glyph: try glyph(format, left: index % 2)))
            }
            let mask = try #require(LineMaskCache.render(placed))
            let reference = try #require(CoverageMask(x: mask.x, y: mask.y, width: mask.width, height: mask.height))
            for glyph in placed {
                let column = Int(glyph.x) + glyph.glyph.left - mask.x, row = Int(glyph.y) - glyph.glyph.top - mask.y
                pixman_image_composite32(
                    PIXMAN_OP_OVER, opaque, glyph.glyph.image, reference.image, 0, 0, 0, 0, Int32(column), Int32(row),
                    Int32(glyph.glyph.width), Int32(glyph.glyph.height))
            }
            var differing = 0
            for row in 0..<mask.height {
                for column in 0..<mask.width
                where mask.coverage(x: mask.x + column, y: mask.y + row) != reference.coverage(x: mask.x + column, y: mask.y + row) {
                    differing += 1
                }
            }
            #expect(differing == 0, "\(formats.count) glyphs: \(differing) of \(mask.width * mask.height) mask pixels differ from pixman's")
        }
    }
}

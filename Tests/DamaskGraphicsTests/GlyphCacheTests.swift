import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// Damask's own glyph cache and the line masks built from it, against pixman's glyph cache
/// and `pixman_composite_glyphs_no_mask` (what built the masks before): the same pixels.
@Suite("Glyph cache and line masks", .serialized, .timeLimit(.minutes(5)))
struct GlyphCacheTests {
    /// The glyphs of `text` in `font`'s face at `pixels` px, placed at pen positions from
    /// HarfBuzz-free advances (one glyph after another, varying sub-pixel phases and a
    /// baseline that moves, so glyphs overlap and the mask grows in every direction).
    private func placed(_ text: String, font: Font, pixels: Int, cache: GlyphCache) throws -> [GlyphCache.PlacedGlyph] {
        let face = try #require(font.face)
        var result: [GlyphCache.PlacedGlyph] = []
        var x = 0
        for (i, scalar) in text.unicodeScalars.enumerated() {
            let index = face.glyphIndex(for: scalar)
            let phase = i % FontFace.subpixelPhases
            guard let image = FreeTypeLibrary.shared.withLock({ cache.glyph(face: face, index: index, size64: pixels * 64, phase: phase) })
            else { continue }
            result.append(GlyphCache.PlacedGlyph(x: Int32(x), y: Int32(i % 3 - 1), glyph: image))
            x += max(1, image.width - 2)  // overlapping neighbours
        }
        return result
    }

    /// The mask pixman's glyph API builds from the same images and positions.
    private func pixmanMask(_ glyphs: [GlyphCache.PlacedGlyph]) throws -> (x: Int, y: Int, width: Int, height: Int, bytes: [UInt8]) {
        let cache = try #require(pixman_glyph_cache_create())
        defer { pixman_glyph_cache_destroy(cache) }
        pixman_glyph_cache_freeze(cache)
        defer { pixman_glyph_cache_thaw(cache) }
        var pixmanGlyphs: [pixman_glyph_t] = []
        for (i, placed) in glyphs.enumerated() {
            let image = try #require(placed.glyph.image)
            let key = try #require(UnsafeMutableRawPointer(bitPattern: i + 1))
            let glyph = try #require(
                pixman_glyph_cache_insert(cache, key, key, Int32(-placed.glyph.left), Int32(placed.glyph.top), image))
            pixmanGlyphs.append(pixman_glyph_t(x: placed.x, y: placed.y, glyph: glyph))
        }
        var extents = pixman_box32_t()
        pixman_glyph_get_extents(cache, Int32(pixmanGlyphs.count), &pixmanGlyphs, &extents)
        let width = Int(extents.x2 - extents.x1), height = Int(extents.y2 - extents.y1)
        let mask = try #require(CoverageMask(x: Int(extents.x1), y: Int(extents.y1), width: width, height: height))
        var white = pixman_color_t(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF, alpha: 0xFFFF)
        let opaque = try #require(pixman_image_create_solid_fill(&white))
        defer { pixman_image_unref(opaque) }
        pixman_composite_glyphs_no_mask(
            PIXMAN_OP_OVER, opaque, mask.image, 0, 0, -extents.x1, -extents.y1, cache, Int32(pixmanGlyphs.count), pixmanGlyphs)
        return (Int(extents.x1), Int(extents.y1), width, height, bytes(of: mask))
    }

    private func bytes(of mask: CoverageMask) -> [UInt8] {
        bytes(of: mask.image, width: mask.width, height: mask.height)
    }

    /// The bytes of the `a8` `image`'s top-left `width` × `height`, row by row without the
    /// stride's padding.
    private func bytes(of image: OpaquePointer, width: Int, height: Int) -> [UInt8] {
        let stride = Int(pixman_image_get_stride(image))
        let raw = UnsafeRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
        var result: [UInt8] = []
        for row in 0..<height { result += UnsafeBufferPointer(start: raw + row * stride, count: width) }
        return result
    }

    @Test(
        "a line mask built from the cache has pixman's glyph-API pixels",
        arguments: [("DejaVu Sans", Font.Weight.regular, 14), ("DejaVu Sans", .bold, 23), ("NanumGothic", .regular, 17)])
    func sameMaskAsPixmanGlyphs(family: String, weight: Font.Weight, pixels: Int) throws {
        let font = try Font(family: family, size: CGFloat(pixels), weight: weight)
        let cache = GlyphCache()
        let glyphs = try placed("Damask setNeedsDisplay fi ÄÖ 한국 ←→ 25%", font: font, pixels: pixels, cache: cache)
        try #require(glyphs.count > 20)
        let mask = try #require(LineMaskCache.render(glyphs))
        let reference = try pixmanMask(glyphs)
        #expect(mask.x == reference.x && mask.y == reference.y)
        #expect(mask.width == reference.width && mask.height == reference.height)
        let actual = bytes(of: mask)
        #expect(actual == reference.bytes)
        #expect(actual.contains(255) && actual.contains { $0 > 0 && $0 < 255 }, "solid and antialiased pixels")
    }

    @Test("blank glyphs are nil and cached; a second look-up renders nothing new")
    func blanksAndHits() throws {
        let font = try Font(family: "DejaVu Sans", size: 14)
        let face = try #require(font.face)
        let cache = GlyphCache()
        let space = face.glyphIndex(for: " "), letter = face.glyphIndex(for: "A")
        FreeTypeLibrary.shared.withLock {
            #expect(cache.glyph(face: face, index: space, size64: 14 * 64, phase: 0) == nil)
            let first = cache.glyph(face: face, index: letter, size64: 14 * 64, phase: 1)
            #expect(cache.count == 2)
            let again = cache.glyph(face: face, index: letter, size64: 14 * 64, phase: 1)
            #expect(first != nil && first === again)
            #expect(cache.glyph(face: face, index: space, size64: 14 * 64, phase: 0) == nil)
            #expect(cache.count == 2)
            #expect(cache.glyph(face: nil, index: 0, size64: 14 * 64, phase: 0)?.image != nil, "the box placeholder")
        }
    }

    @Test("a glyph needed at a second phase is cached at all four from one load, each image the one its phase renders")
    func secondPhaseRendersTheRest() throws {
        let font = try Font(family: "DejaVu Sans", size: 15)
        let face = try #require(font.face)
        let cache = GlyphCache()
        let letter = face.glyphIndex(for: "g"), space = face.glyphIndex(for: " ")
        let size64 = 15 * 64 + 16
        try FreeTypeLibrary.shared.withLock {
            _ = cache.glyph(face: face, index: letter, size64: size64, phase: 2)
            #expect(cache.count == 1, "the first phase alone")
            _ = cache.glyph(face: face, index: letter, size64: size64, phase: 0)
            #expect(cache.count == 4, "the second phase brings the other two")
            var placements: Set<Int> = []
            for phase in 0..<FontFace.subpixelPhases {
                let cached = try #require(cache.glyph(face: face, index: letter, size64: size64, phase: phase))
                let fresh = face.render(letter, size64: size64, phase: phase)
                #expect(cached.left == fresh.left && cached.top == fresh.top)
                #expect(cached.width == fresh.width && cached.height == fresh.height)
                #expect(coverage(of: cached) == coverage(of: fresh), "phase \(phase)")
                placements.insert(coverage(of: cached).hashValue)
            }
            #expect(cache.count == 4, "the other phases were hits")
            #expect(placements.count == FontFace.subpixelPhases, "each phase is shifted differently")
            // Blank glyphs: the rest of the phases are remembered as blank too.
            #expect(cache.glyph(face: face, index: space, size64: size64, phase: 1) == nil)
            #expect(cache.glyph(face: face, index: space, size64: size64, phase: 3) == nil)
            #expect(cache.count == 8)
        }
    }

    @Test("a glyph of a line being edited is cached at all four phases from its first load, each image the one its phase renders")
    func editedLineGlyphRendersEveryPhase() throws {
        let font = try Font(family: "DejaVu Sans", size: 15)
        let face = try #require(font.face)
        let cache = GlyphCache()
        let letter = face.glyphIndex(for: "k")
        let size64 = 15 * 64 + 24
        try FreeTypeLibrary.shared.withLock {
            _ = cache.glyph(face: face, index: letter, size64: size64, phase: 1, allPhases: true)
            #expect(cache.count == 4, "every phase from the first look-up")
            for phase in 0..<FontFace.subpixelPhases {
                let cached = try #require(cache.glyph(face: face, index: letter, size64: size64, phase: phase))
                let fresh = face.render(letter, size64: size64, phase: phase)
                #expect(cached.left == fresh.left && cached.top == fresh.top)
                #expect(coverage(of: cached) == coverage(of: fresh), "phase \(phase)")
            }
            #expect(cache.count == 4, "the other phases were hits")
        }
    }

    @Test("drawing a line shaped from an earlier version caches its glyphs at every phase; a line shaped on its own, at the phases it is drawn at")
    func drawingAnEditedLineCachesEveryPhase() throws {
        // A size no other test draws at, so the shared cache holds none of these glyphs yet.
        let size = 11 + CGFloat(UInt32.random(in: 1...1_000_000)) / 1_048_576
        let font = try Font(family: "DejaVu Sans", size: size)
        let face = try #require(font.face)
        let size64 = Int((size * 64).rounded())
        let library = FreeTypeLibrary.shared
        let first = library.withLock { TextShaper.shape("qu", font: font, library: library) }
        let edited = library.withLock { TextShaper.shape("quiz", font: font, library: library, reusing: first) }
        let plain = library.withLock { TextShaper.shape("jw", font: font, library: library) }
        let bitmap = try Bitmap(width: 200, height: 40)
        let context = GraphicsContext(bitmap: bitmap)
        context.draw(edited, at: CGPoint(x: 4, y: 26), font: font, color: .black)
        context.draw(plain, at: CGPoint(x: 4, y: 26), font: font, color: .black)
        func cachedPhases(of character: Unicode.Scalar) -> [Int] {
            let index = face.glyphIndex(for: character)
            return library.withLock {
                (0..<FontFace.subpixelPhases).filter {
                    library.glyphCache.contains(face: face, index: index, size64: size64, phase: $0)
                }
            }
        }
        for character in "quiz".unicodeScalars {
            #expect(cachedPhases(of: character).count == FontFace.subpixelPhases, "\(character): \(cachedPhases(of: character))")
        }
        for character in "jw".unicodeScalars {
            #expect(cachedPhases(of: character).count == 1, "\(character): \(cachedPhases(of: character))")
        }
    }

    /// The coverage bytes of `glyph` (none for a blank one).
    private func coverage(of glyph: GlyphImage) -> [UInt8] {
        glyph.image.map { bytes(of: $0, width: glyph.width, height: glyph.height) } ?? []
    }

    @Test("a batch that ends above the high-water mark evicts the least recently used; placed images stay valid")
    func eviction() throws {
        let font = try Font(family: "DejaVu Sans", size: 9)
        let face = try #require(font.face)
        let cache = GlyphCache()
        let letter = face.glyphIndex(for: "x")
        var kept: GlyphImage?
        FreeTypeLibrary.shared.withLock {
            cache.freeze()
            kept = cache.glyph(face: face, index: letter, size64: 9 * 64, phase: 0)
            // Distinct sizes of one glyph, so every look-up is an insert.
            for size in 1...(GlyphCache.highWaterMark + 10) {
                _ = cache.glyph(face: face, index: letter, size64: 9 * 64 + size, phase: 0)
            }
            #expect(cache.count == GlyphCache.highWaterMark + 11)
            cache.thaw()
        }
        #expect(cache.count == GlyphCache.highWaterMark * 3 / 4)
        let image = try #require(kept?.image)
        #expect(pixman_image_get_width(image) > 0, "an evicted glyph's image lives while placed")
        FreeTypeLibrary.shared.withLock {
            // The newest survive: the last insert is a hit.
            let newest = 9 * 64 + GlyphCache.highWaterMark + 10
            let before = cache.count
            _ = cache.glyph(face: face, index: letter, size64: newest, phase: 0)
            #expect(cache.count == before)
        }
    }
}

import CPixman
import Foundation

/// The process-wide cache of rendered glyph images, kept in a `pixman_glyph_cache_t` so a
/// whole line of glyphs is composited by one `pixman_composite_glyphs_no_mask` call.
///
/// Keys: the font key is the address of the ``FontFace`` (faces live for the whole
/// process) or of this cache for box placeholders; the glyph key packs the pixel size in
/// 1/64 px, the glyph index and the sub-pixel phase into one pointer-sized integer.
/// pixman copies each inserted image and evicts least-recently-used glyphs itself when
/// the cache is thawed with more than its high-water mark (16 384 glyphs).
///
/// Owns the pixman cache for the life of the process. Used only under
/// ``FreeTypeLibrary``'s lock (hence `@unchecked Sendable`); glyph pointers returned by
/// ``glyph(face:index:size64:phase:)`` stay valid until ``thaw()``.
final class GlyphCache: @unchecked Sendable {
    /// The pixman cache; owned here, never destroyed (process lifetime).
    let cache: OpaquePointer
    /// Incremented by every insert. pixman evicts glyphs only when a thaw follows
    /// inserts, so glyph pointers resolved while the generation stays the same remain valid.
    private(set) var generation = 0
    /// Glyphs known to have no pixels (spaces), so they are not rendered again.
    private var blanks: Set<BlankKey> = []

    private struct BlankKey: Hashable {
        var font: UnsafeMutableRawPointer
        var glyph: UInt
    }

    init?() {
        guard let cache = pixman_glyph_cache_create() else { return nil }
        self.cache = cache
    }

    /// Starts a batch of look-ups and inserts; glyph pointers stay valid until ``thaw()``.
    func freeze() { pixman_glyph_cache_freeze(cache) }

    /// Ends a batch; pixman may evict old glyphs now.
    func thaw() { pixman_glyph_cache_thaw(cache) }

    /// The cached image of `index` in `face` (nil: the box placeholder) at `size64` / 64
    /// pixels per em and `phase`, rendering and inserting it on first use. Nil for blank
    /// glyphs (spaces) and when pixman cannot allocate. Call between ``freeze()`` and
    /// ``thaw()``.
    func glyph(face: FontFace?, index: UInt32, size64: Int, phase: Int) -> UnsafeRawPointer? {
        let fontKey: UnsafeMutableRawPointer
        if let face {
            fontKey = Unmanaged.passUnretained(face).toOpaque()
        } else {
            fontKey = Unmanaged.passUnretained(self).toOpaque()
        }
        // size64 ≤ 256 px · 64 (cached glyphs only), glyph indices < 2^22, phase < 4.
        let packed = (UInt(size64 & 0xFFFFF) << 24) | (UInt(index & 0x3F_FFFF) << 2) | UInt(phase & 3)
        guard let glyphKey = UnsafeMutableRawPointer(bitPattern: packed &+ 1) else { return nil }
        if let found = pixman_glyph_cache_lookup(cache, fontKey, glyphKey) { return found }
        let blankKey = BlankKey(font: fontKey, glyph: packed)
        if blanks.contains(blankKey) { return nil }
        let image: GlyphImage
        if let face {
            image = face.render(index, size64: size64, phase: phase)
        } else {
            image = GlyphImage.box(pixelSize: CGFloat(size64) / 64)
        }
        guard let bits = image.image else {
            if blanks.count > 4096 { blanks.removeAll() }
            blanks.insert(blankKey)
            return nil
        }
        generation += 1
        return pixman_glyph_cache_insert(cache, fontKey, glyphKey, Int32(-image.left), Int32(image.top), bits)
    }
}

import CPixman
import Foundation

/// The process-wide cache of rendered glyph images.
///
/// A line of text is drawn from its cached coverage mask (``LineMaskCache``); this cache
/// keeps the glyph images such masks are built from, so a new line with known glyphs
/// renders none again. It is Damask's own rather than a `pixman_glyph_cache_t`: pixman's
/// cache clears a table of 32,768 entries when it is created (256 KiB, resident for the
/// life of the process before the first glyph is drawn), while this one grows with the
/// glyphs it holds.
///
/// Keys: the address of the ``FontFace`` (faces live for the whole process; this cache's
/// own address for box placeholders), the pixel size in 1/64 px, the glyph index and the
/// sub-pixel phase. A glyph is rendered at the phase first asked for; when a second phase
/// is asked for, all its missing phases are rendered from one load of its outline. A glyph
/// of a line being edited (``TextLine/isRevision``) is rendered at every phase on its first
/// load: each glyph typed lands at a new fraction of a pixel. Blank
/// glyphs (spaces) are remembered as blank so they are not rendered again. When a batch ends (``thaw()``) with more than ``highWaterMark`` entries, the
/// least recently used are evicted down to three quarters of it; images already placed on a
/// line (``PlacedGlyph``) stay valid, since each placement holds its image.
///
/// Owns its entries (each ``GlyphImage`` owns its pixman image). Used only under
/// ``FreeTypeLibrary``'s lock (hence `@unchecked Sendable`).
final class GlyphCache: @unchecked Sendable {
    /// A glyph image at a pen position, in whole device pixels relative to a line's
    /// whole-pixel origin (the baseline at `y`).
    struct PlacedGlyph {
        var x: Int32
        var y: Int32
        /// The image (never blank); this reference keeps it alive.
        var glyph: GlyphImage
    }

    /// The most entries kept after a batch.
    static let highWaterMark = 16_384

    private struct Key: Hashable {
        var font: UnsafeMutableRawPointer
        var glyph: UInt
    }

    private final class Entry {
        /// Nil for a blank glyph.
        let image: GlyphImage?
        var lastUse: UInt64
        init(image: GlyphImage?, lastUse: UInt64) {
            self.image = image
            self.lastUse = lastUse
        }
    }

    @exclusivity(unchecked) private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    /// How many glyphs (blank ones included) are cached.
    var count: Int { entries.count }

    /// Starts a batch of look-ups and inserts.
    func freeze() {}

    /// Ends a batch: evicts the least recently used glyphs when there are more than
    /// ``highWaterMark``.
    func thaw() {
        guard entries.count > Self.highWaterMark else { return }
        let keep = Self.highWaterMark * 3 / 4
        let byAge = entries.sorted { $0.value.lastUse > $1.value.lastUse }
        entries = Dictionary(uniqueKeysWithValues: byAge.prefix(keep).map { ($0.key, $0.value) })
    }

    /// The cached image of `index` in `face` (nil: the box placeholder) at `size64` / 64
    /// pixels per em and `phase`, rendering and inserting it on first use: at `phase` alone,
    /// or with `allPhases` (a glyph of text being edited) at every phase from the one load.
    /// Nil for blank glyphs (spaces).
    func glyph(face: FontFace?, index: UInt32, size64: Int, phase: Int, allPhases: Bool = false) -> GlyphImage? {
        let fontKey: UnsafeMutableRawPointer
        if let face {
            fontKey = Unmanaged.passUnretained(face).toOpaque()
        } else {
            fontKey = Unmanaged.passUnretained(self).toOpaque()
        }
        let packed = Self.packed(size64: size64, index: index, phase: phase)
        let key = Key(font: fontKey, glyph: packed)
        clock &+= 1
        if let found = entries[key] {
            found.lastUse = clock
            return found.image
        }
        guard let face else {
            let image = GlyphImage.box(pixelSize: CGFloat(size64) / 64)
            return insert(image, for: key)
        }
        // A glyph needed at a second phase is needed at the others as the text moves (a
        // typed line shifts the glyphs after the caret): render the rest now, from the one
        // load of the outline, rather than load it again for each.
        let phases = 0..<FontFace.subpixelPhases
        let glyphKey = packed & ~UInt(3)
        var missing: [Int] = [phase]
        for other in phases where other != phase {
            if entries[Key(font: fontKey, glyph: glyphKey | UInt(other))] == nil { missing.append(other) }
        }
        if missing.count == FontFace.subpixelPhases, !allPhases { missing = [phase] }
        let images = face.render(index, size64: size64, phases: missing)
        for (other, image) in zip(missing.dropFirst(), images.dropFirst()) {
            _ = insert(image, for: Key(font: fontKey, glyph: glyphKey | UInt(other)))
        }
        return insert(images[0], for: key)
    }

    /// Whether `index` in `face` at `size64` and `phase` is cached (blank or not), without
    /// counting as a use.
    func contains(face: FontFace, index: UInt32, size64: Int, phase: Int) -> Bool {
        let packed = Self.packed(size64: size64, index: index, phase: phase)
        return entries[Key(font: Unmanaged.passUnretained(face).toOpaque(), glyph: packed)] != nil
    }

    /// The glyph part of a key: size64 ≤ 256 px · 64 (cached glyphs only), glyph indices
    /// < 2^22, phase < 4, in one word; the phase in the low two bits.
    private static func packed(size64: Int, index: UInt32, phase: Int) -> UInt {
        (UInt(size64 & 0xFFFFF) << 24) | (UInt(index & 0x3F_FFFF) << 2) | UInt(phase & 3)
    }

    /// Caches `image` (blank: nil) under `key`, used now; returns what was cached.
    private func insert(_ image: GlyphImage, for key: Key) -> GlyphImage? {
        let kept = image.image == nil ? nil : image
        entries[key] = Entry(image: kept, lastUse: clock)
        return kept
    }
}

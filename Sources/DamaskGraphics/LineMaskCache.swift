import CPixman
import Foundation

/// Rendered coverage masks of whole text lines, so a line drawn again at the same pixel
/// size and sub-pixel origin is one pixman composite instead of one per glyph.
///
/// A mask is the line's glyph images (from ``GlyphCache``) layered with OVER into one
/// `a8` image, the same coverage a glyph-by-glyph composite builds up, so the first draw
/// and every later one give the same pixels.
///
/// Keys: the line's ``TextLine/serial`` (unique for the life of the process, so a line
/// evicted from the line cache and laid out again never meets a stale mask), the pixel
/// size in 1/64 px, the scale and the exact fractional device origin.
///
/// Bounded by bytes: at most ``byteLimit`` (4 MiB) of mask pixels; the least recently
/// used masks are evicted first when an insert would exceed it, and a mask larger than
/// ``largestMask`` (1 MiB) is drawn but never kept.
///
/// Owns its masks (each ``CoverageMask`` owns its pixman image). Used only under
/// ``FreeTypeLibrary``'s lock (hence `@unchecked Sendable`).
final class LineMaskCache: @unchecked Sendable {
    /// What a mask is looked up by.
    struct Key: Hashable {
        var line: Int
        var size64: Int
        var scale: CGFloat
        var fractionX: CGFloat
        var fractionY: CGFloat
    }

    private struct Entry {
        /// Offsets relative to the whole-pixel origin the line is drawn at.
        var mask: CoverageMask
        var bytes: Int
        var lastUse: UInt64
    }

    /// The most mask bytes kept.
    static let byteLimit = 4 << 20
    /// The largest mask kept, in bytes.
    static let largestMask = 1 << 20

    @exclusivity(unchecked) private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    /// The bytes of every kept mask.
    private(set) var byteCount = 0

    /// How many masks are kept.
    var count: Int { entries.count }

    /// The mask for `key`, marked as just used; nil when none is kept.
    func mask(for key: Key) -> CoverageMask? {
        guard var entry = entries[key] else { return nil }
        clock &+= 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.mask
    }

    /// Keeps `mask` for `key`, evicting the least recently used masks to stay within
    /// ``byteLimit``; a mask above ``largestMask`` is not kept.
    func insert(_ mask: CoverageMask, for key: Key) {
        let bytes = mask.bytesPerRow * mask.height
        guard bytes <= Self.largestMask else { return }
        if let old = entries.removeValue(forKey: key) { byteCount -= old.bytes }
        while byteCount + bytes > Self.byteLimit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
            byteCount -= oldest.value.bytes
        }
        clock &+= 1
        entries[key] = Entry(mask: mask, bytes: bytes, lastUse: clock)
        byteCount += bytes
    }

    /// Renders `glyphs` (pen positions relative to the whole-pixel origin) into a fresh
    /// mask whose `x`/`y` are relative to that origin: each glyph image composited with OVER
    /// in opaque white, in order (what `pixman_composite_glyphs_no_mask` does per glyph);
    /// nil when the glyphs have no pixels or pixman cannot allocate.
    static func render(_ glyphs: [GlyphCache.PlacedGlyph]) -> CoverageMask? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for placed in glyphs {
            let left = Int(placed.x) + placed.glyph.left, top = Int(placed.y) - placed.glyph.top
            minX = min(minX, left)
            minY = min(minY, top)
            maxX = max(maxX, left + placed.glyph.width)
            maxY = max(maxY, top + placed.glyph.height)
        }
        guard minX < maxX, minY < maxY,
            let mask = CoverageMask(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        else { return nil }
        // The opaque white source, made for the first glyph `layerOver` leaves to pixman
        // (often none: a typed key's mask is made without it); owned here, unref'd on return.
        var opaque: OpaquePointer?
        defer { if let opaque { pixman_image_unref(opaque) } }
        for placed in glyphs {
            guard let image = placed.glyph.image else { continue }
            let column = Int(placed.x) + placed.glyph.left - minX, row = Int(placed.y) - placed.glyph.top - minY
            guard !mask.layerOver(image, column: column, row: row, width: placed.glyph.width, height: placed.glyph.height)
            else { continue }
            if opaque == nil {
                var white = pixman_color_t(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF, alpha: 0xFFFF)
                opaque = pixman_image_create_solid_fill(&white)
                guard opaque != nil else { return nil }
            }
            pixman_image_composite32(
                PIXMAN_OP_OVER, opaque, image, mask.image, 0, 0, 0, 0, Int32(column), Int32(row),
                Int32(placed.glyph.width), Int32(placed.glyph.height))
        }
        return mask
    }
}

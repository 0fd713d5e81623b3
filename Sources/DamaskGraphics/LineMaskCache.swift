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

    private var entries: [Key: Entry] = [:]
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

    /// Renders `glyphs` (positions relative to the whole-pixel origin, images in `cache`)
    /// into a fresh mask whose `x`/`y` are relative to that origin; nil when the glyphs
    /// have no pixels or pixman cannot allocate. Call between the glyph cache's freeze
    /// and thaw.
    static func render(_ glyphs: [pixman_glyph_t], cache: OpaquePointer) -> CoverageMask? {
        var extents = pixman_box32_t()
        glyphs.withUnsafeBufferPointer {
            pixman_glyph_get_extents(cache, Int32($0.count), UnsafeMutablePointer(mutating: $0.baseAddress), &extents)
        }
        guard extents.x1 < extents.x2, extents.y1 < extents.y2,
            let mask = CoverageMask(
                x: Int(extents.x1), y: Int(extents.y1), width: Int(extents.x2 - extents.x1),
                height: Int(extents.y2 - extents.y1))
        else { return nil }
        var white = pixman_color_t(red: 0xFFFF, green: 0xFFFF, blue: 0xFFFF, alpha: 0xFFFF)
        guard let opaque = pixman_image_create_solid_fill(&white) else { return nil }
        defer { pixman_image_unref(opaque) }
        pixman_composite_glyphs_no_mask(
            PIXMAN_OP_OVER, opaque, mask.image, 0, 0, -extents.x1, -extents.y1, cache, Int32(glyphs.count), glyphs)
        return mask
    }
}

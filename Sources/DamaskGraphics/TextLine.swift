import CPixman
import Foundation

/// One line of text shaped and laid out for one font: glyph runs in visual (left-to-right)
/// order with their faces, positions in user units from the line's origin, the merged
/// metrics of every face used, and the visual extent of every grapheme cluster (for
/// carets, selection and hit testing).
///
/// Built by ``TextShaper`` and cached by ``FreeTypeLibrary`` per string and font.
/// Immutable; its faces are only used under ``FreeTypeLibrary``'s lock, hence
/// `@unchecked Sendable`.
final class TextLine: @unchecked Sendable {
    /// What a cached line is looked up by. Strings are compared and hashed by their UTF-8
    /// bytes, not by Unicode canonical equivalence (which would normalize non-ASCII text on
    /// every look-up, and canonically equivalent strings may shape differently anyway).
    struct Key: Hashable {
        var string: String
        var family: String
        var weight: Font.Weight
        var size: CGFloat
        /// Whether the font is the built-in box font (which has no face).
        var isBoxFont: Bool
        /// The run's own language and direction (nil: the line's, from its text).
        var style: TextRunStyle? = nil

        static func == (a: Key, b: Key) -> Bool {
            a.size == b.size && a.weight == b.weight && a.isBoxFont == b.isBoxFont && a.style == b.style
                && sameBytes(a.family, b.family) && sameBytes(a.string, b.string)
        }

        /// Whether two strings have the same UTF-8 bytes (one `memcmp` for native strings).
        private static func sameBytes(_ a: String, _ b: String) -> Bool {
            guard a.utf8.count == b.utf8.count else { return false }
            var a = a, b = b
            return a.withUTF8 { left in
                b.withUTF8 { right in
                    guard let l = left.baseAddress, let r = right.baseAddress else { return left.count == right.count }
                    return memcmp(l, r, left.count) == 0
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(size)
            hasher.combine(weight)
            hasher.combine(isBoxFont)
            hasher.combine(style)
            for text in [family, string] {
                var copy = text
                copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(0xFF as UInt8)  // separator (never in UTF-8)
            }
        }
    }

    /// A line's glyphs resolved in ``GlyphCache`` for one pixel size and one sub-pixel
    /// origin: positions relative to the whole-pixel origin, each holding its image.
    struct Placement {
        var size64: Int
        var scale: CGFloat
        /// The fractional part of the origin in device pixels.
        var fraction: CGPoint
        var glyphs: [GlyphCache.PlacedGlyph]
    }

    /// The last placement drawn, reused for the same size, scale and fraction (its images
    /// stay valid whatever the glyph cache evicts). Only touched under
    /// ``FreeTypeLibrary``'s lock.
    var placement: Placement?

    /// What HarfBuzz gave for a line of one left-to-right item, so that the line's next
    /// version can be shaped only from near its edit (``ShapedItem``); nil for other lines.
    /// Set by ``TextShaper`` right after creating the line, read-only afterwards, under
    /// ``FreeTypeLibrary``'s lock.
    var shapedItem: ShapedItem?

    /// Whether the line is a new version of an edited text's line (shaped with the line it
    /// replaces, ``TextShaper/shape(_:font:library:style:reusing:)``). Typed text puts each
    /// new glyph at a new fraction of a pixel, so the glyphs such a line draws are rendered
    /// at every sub-pixel phase on their first load (``GlyphCache``). Set by ``TextShaper``
    /// right after creating the line, read-only afterwards.
    var isRevision = false

    /// A number no other line laid out in this process has (set by the line cache; 0 until
    /// then), so rendered masks of this line (``LineMaskCache``) can never be mistaken for
    /// another's. Only touched under ``FreeTypeLibrary``'s lock.
    var serial = 0

    /// A glyph placed on the line.
    struct Glyph {
        /// The glyph index in the run's face; ignored for placeholders.
        var index: UInt32
        /// The pen position, user units right of the line's origin.
        var x: CGFloat
        /// The offset below the baseline in user units (y down; marks are usually negative).
        var y: CGFloat
        /// Whether this is the box drawn for a character no installed font has.
        var isPlaceholder: Bool
    }

    /// Consecutive glyphs in one face (nil: the built-in box font).
    struct Run {
        var face: FontFace?
        var glyphs: [Glyph]
        /// Whether the run reads right to left (its glyphs are still stored left to right).
        var isRightToLeft: Bool
    }

    /// The visual extent of one grapheme cluster (a Swift `Character`).
    struct ClusterEdges: Equatable {
        /// The left and right x of the cluster's share of its glyphs.
        var left: CGFloat
        var right: CGFloat
        /// Whether the cluster reads right to left.
        var isRightToLeft: Bool

        /// Where a caret before this cluster (in reading order) sits.
        var leading: CGFloat { isRightToLeft ? right : left }
        /// Where a caret after this cluster (in reading order) sits.
        var trailing: CGFloat { isRightToLeft ? left : right }
    }

    /// The runs, left to right.
    let runs: [Run]
    /// The advance width of the whole line.
    let width: CGFloat
    /// The largest ascent and descent of the faces on the line (user units, positive).
    let ascent: CGFloat, descent: CGFloat
    /// The largest recommended line height of the faces on the line.
    let lineHeight: CGFloat
    /// Per grapheme cluster, in logical (string) order.
    let clusters: [ClusterEdges]
    /// Whether the paragraph direction is right to left (the first strong character is).
    let isRightToLeft: Bool
    /// How many characters no installed font has (drawn as boxes).
    let missingCount: Int
    /// Whether some run is in a colour bitmap face (emoji drawn as colour images).
    let hasColorGlyphs: Bool

    init(
        runs: [Run], width: CGFloat, ascent: CGFloat, descent: CGFloat, lineHeight: CGFloat,
        clusters: [ClusterEdges], isRightToLeft: Bool, missingCount: Int
    ) {
        self.runs = runs
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
        self.clusters = clusters
        self.isRightToLeft = isRightToLeft
        self.missingCount = missingCount
        hasColorGlyphs = runs.contains { $0.face?.isColorBitmap == true }
    }

    /// How many glyphs the line draws.
    var glyphCount: Int { runs.reduce(0) { $0 + $1.glyphs.count } }

    /// The x of the caret at `index` (0…clusters.count), a position between grapheme
    /// clusters in logical order. The caret follows the cluster before it, except where
    /// that cluster runs against the paragraph direction and the next one does not (then
    /// it sits at the next cluster's leading edge, as GTK's strong cursor does).
    func caretOffset(at index: Int) -> CGFloat {
        guard !clusters.isEmpty else { return isRightToLeft ? width : 0 }
        let index = min(max(index, 0), clusters.count)
        if index == 0 { return clusters[0].leading }
        let before = clusters[index - 1]
        if index == clusters.count { return before.trailing }
        let after = clusters[index]
        if before.isRightToLeft != isRightToLeft, after.isRightToLeft == isRightToLeft { return after.leading }
        return before.trailing
    }

    /// The caret index (0…clusters.count) whose caret is nearest to `x`.
    func caretIndex(closestTo x: CGFloat) -> Int {
        var best = 0
        var bestDistance = CGFloat.infinity
        for index in 0...clusters.count {
            let distance = abs(caretOffset(at: index) - x)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// The x ranges (left to right, merged where they touch) covered by the clusters in
    /// `range` (logical order): a selection over mixed-direction text is one range per
    /// visually contiguous piece.
    func selectionRanges(for range: Range<Int>) -> [ClosedRange<CGFloat>] {
        let lower = max(range.lowerBound, 0), upper = min(range.upperBound, clusters.count)
        guard lower < upper else { return [] }
        let pieces = clusters[lower..<upper].map { min($0.left, $0.right)...max($0.left, $0.right) }
            .sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<CGFloat>] = []
        for piece in pieces {
            if let last = merged.last, piece.lowerBound <= last.upperBound + 0.01 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, piece.upperBound)
            } else {
                merged.append(piece)
            }
        }
        return merged
    }
}

import CHarfBuzz
import Foundation

/// A line of one left-to-right item (one face, one script, no right-to-left text) as
/// HarfBuzz shaped it: kept on its ``TextLine`` so that the next version of the line, an
/// edit of its end (the usual keystroke), is shaped only from near the edit on
/// (``TextShaper/reshape(scalars:clusterStarts:style:font:library:reusing:)``).
///
/// Immutable; its face is only used under ``FreeTypeLibrary``'s lock, as the line's.
struct ShapedItem {
    /// What HarfBuzz gave for one glyph.
    struct Glyph: Equatable {
        /// The glyph index in the face (0: .notdef).
        var index: UInt32
        /// The scalar index of the glyph's HarfBuzz cluster in the line.
        var cluster: UInt32
        /// HarfBuzz's `HB_GLYPH_FLAG_UNSAFE_TO_CONCAT`: the text may not be cut before this
        /// glyph's cluster and the two sides shaped apart.
        var isUnsafeToConcatenate: Bool
        /// Advance and offsets in font units, as HarfBuzz gave them.
        var xAdvance: Int32
        var xOffset: Int32
        var yOffset: Int32
    }

    /// The font the line was shaped for (its face may be a fallback's).
    struct FontKey: Equatable {
        var family: String
        var weight: Font.Weight
        var size: CGFloat

        init(_ font: Font) {
            family = font.family
            weight = font.weight
            size = font.size
        }
    }

    /// The scalars as shaped (controls replaced) and where each grapheme cluster starts.
    var scalars: [UInt32]
    var clusterStarts: [Int]
    /// The item's face and script.
    var face: FontFace
    var script: hb_script_t
    /// The run style the line was shaped in.
    var style: TextRunStyle?
    var font: FontKey
    /// HarfBuzz's glyphs, left to right (so in the order of their clusters).
    var glyphs: [Glyph]
}

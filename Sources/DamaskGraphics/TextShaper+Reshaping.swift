import CHarfBuzz
import Foundation

extension TextShaper {
    /// How many places before the edit a reshape tries to restart from before it gives up
    /// and the line is shaped whole.
    static let reshapeAttempts = 3

    /// The line of `scalars` (grapheme clusters starting at `clusterStarts`) shaped by
    /// keeping the glyphs `previous` (a line in the same font and style whose text starts
    /// the same) has before the edit, and shaping again only from there to the end; nil
    /// when that cannot give what shaping the whole line gives (then it is shaped whole).
    ///
    /// This is HarfBuzz's recipe for reshaping part of a line (`HB_GLYPH_FLAG_UNSAFE_TO_CONCAT`):
    /// restart at a grapheme cluster before the edit whose first glyph the old shaping did
    /// not mark unsafe to concatenate (no kerning, ligature or contextual form crosses
    /// there), shape from there with the text before as context, and keep the result only
    /// when its first glyph is not marked either; otherwise try a cluster further back.
    /// The new text must stay one left-to-right item: no right-to-left scalar, the item's
    /// script (or none), and the item's face for every new cluster. The line's glyph
    /// positions are then computed from HarfBuzz's integers exactly as for a whole shaping,
    /// so the two give the same line (TextShaperReshapingTests compares them).
    static func reshape(
        scalars: [UInt32], clusterStarts: [Int], style: TextRunStyle?, font: Font, library: FreeTypeLibrary,
        reusing previous: ShapedItem
    ) -> TextLine? {
        guard previous.style == style, previous.font == ShapedItem.FontKey(font), style?.direction != .rightToLeft,
            !clusterStarts.isEmpty
        else { return nil }
        // The grapheme clusters both texts start with, scalar for scalar.
        let oldScalars = previous.scalars, oldStarts = previous.clusterStarts
        func end(of cluster: Int, in starts: [Int], count: Int) -> Int {
            cluster + 1 < starts.count ? starts[cluster + 1] : count
        }
        var same = 0
        while same < oldStarts.count, same < clusterStarts.count, oldStarts[same] == clusterStarts[same] {
            let oldEnd = end(of: same, in: oldStarts, count: oldScalars.count)
            guard oldEnd == end(of: same, in: clusterStarts, count: scalars.count),
                oldScalars[oldStarts[same]..<oldEnd] == scalars[clusterStarts[same]..<oldEnd]
            else { break }
            same += 1
        }
        guard same > 0, same < clusterStarts.count || same < oldStarts.count else { return nil }
        // What follows the common clusters must itemize as the item did: left to right at
        // level 0 (FriBidi runs only when a scalar could be right to left), in the item's
        // script, in the item's face.
        let (levels, isRightToLeft) = bidiLevels(of: scalars, direction: style?.direction ?? .automatic)
        guard !isRightToLeft, !levels.contains(where: { $0 != 0 }) else { return nil }
        let changeStart = same < clusterStarts.count ? clusterStarts[same] : scalars.count
        let unicode = hb_unicode_funcs_get_default()
        for index in changeStart..<scalars.count {
            let script = hb_unicode_script(unicode, scalars[index])
            guard !isRealScript(script) || script == previous.script else { return nil }
        }
        for cluster in same..<clusterStarts.count {
            let range = clusterStarts[cluster]..<end(of: cluster, in: clusterStarts, count: scalars.count)
            let face = clusterFace(
                scalars[range], after: previous.face, script: previous.script, language: style?.language, font: font,
                library: library)
            guard face === previous.face else { return nil }
        }
        // Restart points: glyphs that begin a grapheme cluster before the change, not marked
        // unsafe to concatenate, from the last one back.
        guard let buffer = library.shapingBuffer else { return nil }
        let item = Item(
            start: 0, end: scalars.count, attributes: RunAttributes(level: 0, face: previous.face, script: previous.script))
        var attempts = 0
        var glyph = previous.glyphs.count - 1
        while glyph > 0, attempts < reshapeAttempts {
            defer { glyph -= 1 }
            let candidate = previous.glyphs[glyph]
            let cluster = Int(candidate.cluster)
            guard cluster < changeStart, !candidate.isUnsafeToConcatenate, previous.glyphs[glyph - 1].cluster != candidate.cluster,
                isClusterStart(cluster, in: clusterStarts)
            else { continue }
            attempts += 1
            let tail = harfBuzzShape(
                scalars, range: cluster..<scalars.count, buffer: buffer, face: previous.face, script: previous.script,
                isRightToLeft: false, language: style?.language)
            guard tail.first.map({ !$0.isUnsafeToConcatenate }) ?? true else { continue }
            var glyphs: [ShapedItem.Glyph] = []
            glyphs.reserveCapacity(glyph + tail.count)
            glyphs += previous.glyphs[..<glyph]
            glyphs += tail
            let line = finishLine(
                [run(of: glyphs, face: previous.face, isRightToLeft: false, font: font, item: item)],
                levels: levels, paragraphIsRTL: false, clusterStarts: clusterStarts,
                scalarCount: scalars.count, font: font)
            line.shapedItem = ShapedItem(
                scalars: scalars, clusterStarts: clusterStarts, face: previous.face, script: previous.script, style: style,
                font: previous.font, glyphs: glyphs)
            return line
        }
        return nil
    }

    /// Whether a grapheme cluster starts at scalar `index` (`starts` ascending).
    private static func isClusterStart(_ index: Int, in starts: [Int]) -> Bool {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < starts.count && starts[low] == index
    }
}

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
    /// so the two give the same line (TextShaperReshapingTests compares them); so are the
    /// glyph positions and cluster edges before the restart, which are taken from
    /// `previousLine` rather than worked out again (``finishLine(after:shaped:keeping:of:restart:clusterStarts:scalarCount:font:item:)``).
    static func reshape(
        scalars: [UInt32], clusterStarts: [Int], style: TextRunStyle?, font: Font, library: FreeTypeLibrary,
        reusing previousLine: TextLine
    ) -> TextLine? {
        guard let previous = previousLine.shapedItem, previous.style == style, previous.font == ShapedItem.FontKey(font),
            style?.direction != .rightToLeft, !clusterStarts.isEmpty
        else { return nil }
        // The grapheme clusters both texts start with, scalar for scalar.
        let oldScalars = previous.scalars, oldStarts = previous.clusterStarts
        func end(of cluster: Int, in starts: [Int], count: Int) -> Int {
            cluster + 1 < starts.count ? starts[cluster + 1] : count
        }
        // Scalars compared one by one, not as two slices (a generic comparison per cluster):
        // this runs per typed key, for every cluster of the chunk.
        var same = 0
        comparing: while same < oldStarts.count, same < clusterStarts.count, oldStarts[same] == clusterStarts[same] {
            let oldEnd = end(of: same, in: oldStarts, count: oldScalars.count)
            guard oldEnd == end(of: same, in: clusterStarts, count: scalars.count) else { break }
            for offset in oldStarts[same]..<oldEnd where oldScalars[offset] != scalars[offset] { break comparing }
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
            let line =
                finishLine(
                    after: previousLine, shaped: previous, keeping: glyph, of: glyphs, restart: cluster,
                    clusterStarts: clusterStarts, scalarCount: scalars.count, font: font, item: item)
                ?? finishLine(
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
        let found = firstCluster(startingAtOrAfter: index, in: starts)
        return found < starts.count && starts[found] == index
    }

    /// The first grapheme cluster that starts at scalar `index` or after it (`starts`
    /// ascending; `starts.count` when none does).
    private static func firstCluster(startingAtOrAfter index: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The reshaped line of `glyphs` (one left-to-right run in `item`'s face), whose first
    /// `kept` glyphs are those of `previousLine` (whose ``TextLine/shapedItem`` is
    /// `previous`) and the rest, at least one, were shaped anew from the grapheme cluster
    /// starting at scalar `restart`. Nil when `previousLine` is not one left-to-right run
    /// with a glyph per HarfBuzz glyph of `previous` and an edge per cluster, or no glyph is
    /// new: then ``finishLine(_:levels:paragraphIsRTL:clusterStarts:scalarCount:font:)``
    /// works the whole line out.
    ///
    /// What comes before the restart is the same on both lines, so it is copied, not worked
    /// out again (a typed key reshapes a chunk of up to 48 clusters, issue 29): the kept
    /// glyphs sit where they sat, since a glyph's x is the sum of the advances before it,
    /// and so do the edges of the clusters before the restart, since the spans they come
    /// from end at the restart glyph, whose x is that sum too (left to right, HarfBuzz's
    /// clusters never decrease, so no span after the restart gives a cluster before it an
    /// edge). The pen is summed as ``run(of:face:isRightToLeft:font:item:)`` sums it, in
    /// the same order, so every position is the same number, not a nearly equal one.
    static func finishLine(
        after previousLine: TextLine, shaped previous: ShapedItem, keeping kept: Int, of glyphs: [ShapedItem.Glyph],
        restart: Int, clusterStarts: [Int], scalarCount: Int, font: Font, item: Item
    ) -> TextLine? {
        guard let face = item.attributes.face, previousLine.runs.count == 1,
            !previousLine.isRightToLeft, !previousLine.runs[0].isRightToLeft, previousLine.runs[0].face === face,
            previousLine.runs[0].glyphs.count == previous.glyphs.count,
            previousLine.clusters.count == previous.clusterStarts.count, kept > 0, kept <= previous.glyphs.count,
            kept < glyphs.count
        else { return nil }
        let firstNew = firstCluster(startingAtOrAfter: restart, in: clusterStarts)
        guard firstNew <= previousLine.clusters.count, firstNew < clusterStarts.count, clusterStarts[firstNew] == restart
        else { return nil }
        assert(glyphs[kept].cluster == UInt32(restart), "the new glyphs start at the restart")
        let unit = font.size / face.unitsPerEm
        let placeholder = font.size * placeholderAdvance
        var pen: CGFloat = 0
        var missing = 0
        for index in 0..<kept {
            if glyphs[index].index == 0 { missing += 1 }
            pen += advance(of: glyphs[index], unit: unit, placeholder: placeholder)
        }
        // The new glyphs, as run(of:) places them.
        var runGlyphs: [TextLine.Glyph] = []
        runGlyphs.reserveCapacity(glyphs.count)
        runGlyphs += previousLine.runs[0].glyphs[..<kept]
        var clusters: [UInt32] = [], pens: [CGFloat] = []
        clusters.reserveCapacity(glyphs.count - kept)
        pens.reserveCapacity(glyphs.count - kept)
        for index in kept..<glyphs.count {
            let glyph = glyphs[index]
            pens.append(pen)
            clusters.append(glyph.cluster)
            runGlyphs.append(placed(glyph, at: pen, unit: unit))
            if glyph.index == 0 { missing += 1 }
            pen += advance(of: glyph, unit: unit, placeholder: placeholder)
        }
        // The edges of the clusters from the restart on, as finishLine gives them.
        var edges = [TextLine.ClusterEdges?](filledWith: nil, count: clusterStarts.count)
        assignEdges(
            isRightToLeft: false, glyphClusters: clusters, pens: pens, itemEnd: item.end, runStart: 0, runWidth: pen,
            clusterStarts: clusterStarts, clusterOfScalar: clusterIndices(clusterStarts: clusterStarts, scalarCount: scalarCount),
            edges: &edges)
        var filled: [TextLine.ClusterEdges] = []
        filled.reserveCapacity(clusterStarts.count)
        filled += previousLine.clusters[..<firstNew]
        for index in firstNew..<clusterStarts.count {
            if let edge = edges[index] {
                filled.append(edge)
            } else {
                let x = filled.last?.trailing ?? 0
                filled.append(TextLine.ClusterEdges(left: x, right: x, isRightToLeft: false))
            }
        }
        let runs = [TextLine.Run(face: face, glyphs: runGlyphs, isRightToLeft: false)]
        let metrics = lineMetrics(of: runs, font: font)
        return TextLine(
            runs: runs, width: pen, ascent: metrics.ascent, descent: metrics.descent, lineHeight: metrics.lineHeight,
            clusters: filled, isRightToLeft: false, missingCount: missing)
    }
}

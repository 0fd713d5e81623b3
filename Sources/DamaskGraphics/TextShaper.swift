import CFriBidi
import CHarfBuzz
import Foundation

/// Lays out one line of text: bidirectional levels (FriBidi, UAX #9), script and font
/// runs with fontconfig fallback, HarfBuzz shaping, and runs reordered left to right.
///
/// Every function here must be called with ``FreeTypeLibrary``'s lock held (it uses the
/// faces and the fallback cache).
enum TextShaper {
    /// The placeholder advance for a character no installed font has, in ems.
    static let placeholderAdvance: CGFloat = 0.6

    /// The attributes that split a line into shaping runs.
    struct RunAttributes: Equatable {
        var level: Int8
        var face: FontFace?
        var script: hb_script_t

        static func == (a: RunAttributes, b: RunAttributes) -> Bool {
            a.level == b.level && a.face === b.face && a.script == b.script
        }
    }

    /// A logical range of scalars sharing one face, script and bidi level.
    struct Item {
        var start: Int
        var end: Int
        var attributes: RunAttributes
    }

    /// Shapes `string` in `font`, in `style`'s language and base direction when given (else
    /// the direction of the first strong character, and each script's sample language).
    /// Control characters draw nothing; characters neither the font nor any fallback has
    /// become boxes. With `previous`, the line of an earlier version of the text in the same
    /// font and style, only the part from near the edit on is shaped again when HarfBuzz
    /// allows it (``reshape(scalars:clusterStarts:style:font:library:reusing:)``); the line
    /// is the same either way.
    static func shape(
        _ string: String, font: Font, library: FreeTypeLibrary, style: TextRunStyle? = nil, reusing previous: TextLine? = nil
    ) -> TextLine {
        let line = shapeAnew(string, font: font, library: library, style: style, reusing: previous)
        line.isRevision = previous != nil
        return line
    }

    /// Shapes `string` as ``shape(_:font:library:style:reusing:)`` says, leaving the line's
    /// ``TextLine/isRevision`` for that function to set.
    private static func shapeAnew(
        _ string: String, font: Font, library: FreeTypeLibrary, style: TextRunStyle?, reusing previous: TextLine?
    ) -> TextLine {
        let (scalars, clusterStarts) = codePoints(of: string)
        if let previous,
            let line = reshape(
                scalars: scalars, clusterStarts: clusterStarts, style: style, font: font, library: library, reusing: previous)
        {
            return line
        }
        guard let buffer = library.shapingBuffer else {
            return TextLine(
                runs: [], width: 0, ascent: font.ascent, descent: font.descent, lineHeight: font.lineHeight,
                clusters: [], isRightToLeft: false, missingCount: 0)
        }
        let (levels, paragraphIsRTL) = bidiLevels(of: scalars, direction: style?.direction ?? .automatic)
        let language = style?.language
        let items = itemize(
            scalars, clusterStarts: clusterStarts, levels: levels, font: font, language: language, library: library)

        // Shape each item, then place the items in visual order.
        var shaped: [ShapedRun] = []
        var harfBuzzGlyphs: [ShapedItem.Glyph] = []
        for item in items {
            let result = shapeItem(item, scalars: scalars, buffer: buffer, font: font, language: language)
            shaped.append(result.run)
            harfBuzzGlyphs = result.harfBuzzGlyphs  // kept only for a line of one item
        }
        let line = finishLine(
            shaped, levels: levels, paragraphIsRTL: paragraphIsRTL, clusterStarts: clusterStarts, scalarCount: scalars.count,
            font: font)
        // A line of one left-to-right item in a face keeps what HarfBuzz gave, so that an
        // edit of its end can be shaped from near the edit (reshape).
        if items.count == 1, let face = items[0].attributes.face, items[0].attributes.level == 0, !paragraphIsRTL {
            line.shapedItem = ShapedItem(
                scalars: scalars, clusterStarts: clusterStarts, face: face, script: items[0].attributes.script,
                style: style, font: ShapedItem.FontKey(font), glyphs: harfBuzzGlyphs)
        }
        return line
    }

    /// `string`'s scalars as shaped (controls become ZERO WIDTH SPACE: invisible,
    /// bidi-neutral) and where each grapheme cluster starts among them.
    static func codePoints(of string: String) -> (scalars: [UInt32], clusterStarts: [Int]) {
        /// A control character (C0, DEL, C1) is shaped as a zero-width space.
        func shaped(_ value: UInt32) -> UInt32 { value < 0x20 || (0x7F..<0xA0).contains(value) ? 0x200B : value }
        // ASCII text (what typing Latin mostly shapes): a cluster per byte but for the LF of
        // CR LF, the one ASCII pair that joins, with no grapheme-break tables.
        let ascii = string.utf8.withContiguousStorageIfAvailable { bytes -> (scalars: [UInt32], clusterStarts: [Int])? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var scalars: [UInt32] = [], clusterStarts: [Int] = []
            scalars.reserveCapacity(bytes.count)
            clusterStarts.reserveCapacity(bytes.count)
            var previous: UInt8 = 0  // before the first byte: a boundary, as before any byte
            for (offset, byte) in bytes.enumerated() {
                if String.isClusterBoundary(betweenASCII: previous, and: byte) { clusterStarts.append(offset) }
                scalars.append(shaped(UInt32(byte)))
                previous = byte
            }
            return (scalars, clusterStarts)
        }
        if let ascii = ascii ?? nil { return ascii }
        var scalars: [UInt32] = []
        scalars.reserveCapacity(string.utf8.count)
        var clusterStarts: [Int] = []
        clusterStarts.reserveCapacity(string.utf8.count)  // at most a cluster per byte
        for character in string {
            clusterStarts.append(scalars.count)
            for scalar in character.unicodeScalars { scalars.append(shaped(scalar.value)) }
        }
        return (scalars, clusterStarts)
    }

    /// One item shaped: its run (glyph x from the run's start), the HarfBuzz cluster and pen
    /// of every glyph, its advance and the item.
    typealias ShapedRun = (run: TextLine.Run, clusters: [UInt32], pens: [CGFloat], width: CGFloat, missing: Int, item: Item)

    /// The line from its shaped items: runs placed in visual order, every grapheme
    /// cluster's edges, and the metrics of the faces used.
    static func finishLine(
        _ shaped: [ShapedRun], levels: [Int8], paragraphIsRTL: Bool, clusterStarts: [Int], scalarCount: Int, font: Font
    ) -> TextLine {
        // A line of one run (most lines) has no order to work out. Loops, not closures: every
        // typed key reshapes a chunk (CONTRIBUTING.md, closures on hot paths).
        var order: [Int] = []
        if shaped.count > 1 {
            var runLevels: [Int8] = []
            runLevels.reserveCapacity(shaped.count)
            for run in shaped { runLevels.append(run.item.attributes.level) }
            order = visualOrder(levels: runLevels)
        }
        var runs: [TextLine.Run] = []
        runs.reserveCapacity(shaped.count)
        var edges = [TextLine.ClusterEdges?](filledWith: nil, count: clusterStarts.count)
        let clusterOfScalar = clusterIndices(clusterStarts: clusterStarts, scalarCount: scalarCount)
        var pen: CGFloat = 0
        var missing = 0
        for position in shaped.indices {
            let index = order.isEmpty ? position : order[position]
            var (run, glyphClusters, pens, width, runMissing, item) = shaped[index]
            missing += runMissing
            // The first run stays where it is: moving it by 0 would copy its glyphs.
            if pen != 0 {
                for glyph in run.glyphs.indices { run.glyphs[glyph].x += pen }
            }
            assignEdges(
                isRightToLeft: run.isRightToLeft, glyphClusters: glyphClusters, pens: pens, itemEnd: item.end,
                runStart: pen, runWidth: width,
                clusterStarts: clusterStarts, clusterOfScalar: clusterOfScalar, edges: &edges)
            runs.append(run)
            pen += width
        }
        // Clusters with no glyphs of their own (controls) sit at the end of the one before.
        var filled: [TextLine.ClusterEdges] = []
        filled.reserveCapacity(edges.count)
        for (index, edge) in edges.enumerated() {
            if let edge {
                filled.append(edge)
            } else {
                let rtl = levels.isEmpty ? paragraphIsRTL : levels[clusterStarts[index]] & 1 == 1
                let x = filled.last?.trailing ?? (paragraphIsRTL ? pen : 0)
                filled.append(TextLine.ClusterEdges(left: x, right: x, isRightToLeft: rtl))
            }
        }
        let metrics = lineMetrics(of: runs, font: font)
        return TextLine(
            runs: runs, width: pen, ascent: metrics.ascent, descent: metrics.descent, lineHeight: metrics.lineHeight,
            clusters: filled, isRightToLeft: paragraphIsRTL, missingCount: missing)
    }

    /// The largest ascent, descent and line height of `font` and the faces of `runs`.
    static func lineMetrics(of runs: [TextLine.Run], font: Font) -> (ascent: CGFloat, descent: CGFloat, lineHeight: CGFloat) {
        var ascent = font.ascent, descent = font.descent, lineHeight = font.lineHeight
        for run in runs {
            guard let face = run.face else { continue }
            let unit = font.size / face.unitsPerEm
            ascent = max(ascent, face.ascender * unit)
            descent = max(descent, -face.descender * unit)
            lineHeight = max(lineHeight, max(face.height, face.ascender - face.descender) * unit)
        }
        return (ascent, descent, lineHeight)
    }

    /// UAX #9 embedding levels per scalar (FriBidi; the paragraph direction `direction`, or
    /// from the first strong character) and whether the paragraph is right to left. Text
    /// with nothing that could be right to left in a paragraph that is not forced right to
    /// left skips FriBidi.
    static func bidiLevels(
        of scalars: [UInt32], direction forced: TextRunStyle.Direction
    ) -> (levels: [Int8], isRTL: Bool) {
        guard forced == .rightToLeft || scalars.contains(where: { $0 >= 0x0590 }) else {
            return ([Int8](filledWith: 0, count: scalars.count), false)
        }
        let count = Int32(scalars.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        var direction: FriBidiParType
        switch forced {
        case .automatic: direction = damask_fribidi_par_auto
        case .leftToRight: direction = damask_fribidi_par_ltr
        case .rightToLeft: direction = damask_fribidi_par_rtl
        }
        let ok = scalars.withUnsafeBufferPointer { text -> Bool in
            guard let base = text.baseAddress else { return false }
            fribidi_get_bidi_types(base, count, &types)
            fribidi_get_bracket_types(base, count, types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, count, &direction, &levels) != 0
        }
        guard ok else { return ([Int8](repeating: forced == .rightToLeft ? 1 : 0, count: scalars.count), forced == .rightToLeft) }
        return (levels.map { Int8($0) }, direction == damask_fribidi_par_rtl)
    }

    /// The grapheme cluster index of every scalar, in one pass (a typed key asks for its
    /// chunk's). Reserved and appended, not `init(unsafeUninitializedCapacity:)`: see
    /// `Array.init(filledWith:count:)`.
    static func clusterIndices(clusterStarts: [Int], scalarCount: Int) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(scalarCount)
        var cluster = 0  // scalars before the first start (a line has none) count as the first cluster's
        for scalar in 0..<scalarCount {
            while cluster + 1 < clusterStarts.count, clusterStarts[cluster + 1] <= scalar { cluster += 1 }
            indices.append(cluster)
        }
        return indices
    }

    /// Splits the line into items of one level, face and script. Faces are chosen per
    /// grapheme cluster: the font's own face when it has every visible character of the
    /// cluster, otherwise the fallback for the cluster's first character (in `language`
    /// where it writes the cluster's script).
    private static func itemize(
        _ scalars: [UInt32], clusterStarts: [Int], levels: [Int8], font: Font, language: String?, library: FreeTypeLibrary
    ) -> [Item] {
        let unicode = hb_unicode_funcs_get_default()
        // Scripts: Common and Inherited take the script before them (or the first real one).
        var scripts = scalars.map { hb_unicode_script(unicode, $0) }
        var last: hb_script_t?
        for index in scripts.indices {
            if isRealScript(scripts[index]) {
                last = scripts[index]
            } else if let last {
                scripts[index] = last
            }
        }
        if let firstReal = scripts.first(where: isRealScript) {
            for index in scripts.indices {
                if isRealScript(scripts[index]) { break }
                scripts[index] = firstReal
            }
        }

        var items: [Item] = []
        var previousFace: FontFace?
        for (cluster, start) in clusterStarts.enumerated() {
            let end = cluster + 1 < clusterStarts.count ? clusterStarts[cluster + 1] : scalars.count
            let face = clusterFace(
                scalars[start..<end], after: previousFace, script: scripts[start], language: language, font: font,
                library: library)
            previousFace = face
            for index in start..<end {
                let attributes = RunAttributes(level: levels[index], face: face, script: scripts[index])
                if let lastItem = items.last, lastItem.attributes == attributes, lastItem.end == index {
                    items[items.count - 1].end = index + 1
                } else {
                    items.append(Item(start: index, end: index + 1, attributes: attributes))
                }
            }
        }
        return items
    }

    /// The face of one grapheme cluster `scalars` following a cluster in `previous`: a space
    /// keeps the face before it when that face has it (as Pango does: a font is never chosen
    /// just to draw a space; not an emoji face's, a space is text, not emoji); any other
    /// cluster gets ``face(for:script:language:font:library:)``.
    static func clusterFace(
        _ scalars: ArraySlice<UInt32>, after previous: FontFace?, script: hb_script_t, language: String?, font: Font,
        library: FreeTypeLibrary
    ) -> FontFace? {
        if scalars.count == 1, let previous, !previous.isColorBitmap, let space = Unicode.Scalar(scalars[scalars.startIndex]),
            isSpaceSeparator(space), previous.glyphIndex(for: space) != 0
        {
            return previous
        }
        return face(for: scalars, script: script, language: language, font: font, library: library)
    }

    /// Whether `scalar` is a space (general category Zs); in ASCII only U+0020 is, and
    /// that is answered without a property lookup (every typed key asks).
    private static func isSpaceSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " : scalar.properties.generalCategory == .spaceSeparator
    }

    static func isRealScript(_ script: hb_script_t) -> Bool {
        script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN
    }

    /// Whether `value` needs no glyph of its own (joiners, variation selectors, controls
    /// replaced by ZERO WIDTH SPACE): a face is not rejected for lacking it.
    private static func isIgnorable(_ value: UInt32) -> Bool {
        (0x200B...0x200F).contains(value) || (0xFE00...0xFE0F).contains(value) || value == 0x2060
            || (0xE0100...0xE01EF).contains(value) || value == 0xFEFF
    }

    /// The face for one grapheme cluster: the font's own face when it has every visible
    /// character and the script has no language of its own; otherwise the first font in
    /// fontconfig's order for the font and the script's language that has them (so
    /// Hangul prefers a Korean font, as Pango does; the run's `language` when it writes the
    /// script, so Han in "ja" prefers a Japanese font). The font's face (drawing boxes) when
    /// nothing installed has them.
    private static func face(
        for cluster: ArraySlice<UInt32>, script: hb_script_t, language runLanguage: String?, font: Font,
        library: FreeTypeLibrary
    ) -> FontFace? {
        guard let primary = font.face else { return nil }
        // Loops, and the visible characters gathered into an array only to ask fontconfig:
        // every typed key asks for the face of its cluster (CONTRIBUTING.md, closures on
        // hot paths).
        var hasVisible = false
        for value in cluster where !isIgnorable(value) {
            hasVisible = true
            break
        }
        guard hasVisible else { return primary }
        if isEmojiPresentation(cluster) {
            // As Pango: an emoji shown as emoji asks fontconfig for an emoji font first
            // (`und-zsye`, which colour emoji fonts declare), then anything that has it.
            return library.faceLocked(
                covering: visibleScalars(of: cluster), language: "und-zsye", family: font.family, weight: font.weight)
                ?? primary
        }
        let language = fontLanguage(for: script, in: runLanguage)
        if language == nil, hasEveryVisibleScalar(of: cluster, in: primary) { return primary }
        return library.faceLocked(
            covering: visibleScalars(of: cluster), language: language, family: font.family, weight: font.weight)
            ?? primary
    }

    /// The characters of `cluster` that need a glyph (``isIgnorable(_:)`` ones left out).
    private static func visibleScalars(of cluster: ArraySlice<UInt32>) -> [UInt32] {
        var visible: [UInt32] = []
        for value in cluster where !isIgnorable(value) { visible.append(value) }
        return visible
    }

    /// Whether `face` has a glyph for every character of `cluster` that needs one.
    private static func hasEveryVisibleScalar(of cluster: ArraySlice<UInt32>, in face: FontFace) -> Bool {
        for value in cluster where !isIgnorable(value) {
            guard let scalar = Unicode.Scalar(value), face.glyphIndex(for: scalar) != 0 else { return false }
        }
        return true
    }

    /// Whether a grapheme cluster is an emoji shown as emoji (UTS #51): a character whose
    /// default presentation is emoji (not followed by VARIATION SELECTOR-15), or any emoji
    /// with VARIATION SELECTOR-16, a keycap, a skin-tone modifier or a ZWJ sequence;
    /// regional-indicator flags included.
    static func isEmojiPresentation(_ cluster: ArraySlice<UInt32>) -> Bool {
        guard let first = cluster.first else { return false }
        // One ASCII character (most typing) never is: its emoji, a keycap, needs U+20E3
        // after it. No property lookup then.
        if cluster.count == 1, first < 0x80 { return false }
        guard let scalar = Unicode.Scalar(first), !cluster.contains(0xFE0E) else { return false }
        if cluster.contains(0xFE0F) || cluster.contains(0x20E3) { return true }
        if scalar.properties.isEmojiPresentation { return true }
        return scalar.properties.isEmoji && cluster.dropFirst().contains {
            $0 == 0x200D || (Unicode.Scalar($0)?.properties.isEmojiModifier ?? false)
        }
    }

    /// The language fontconfig is asked for when choosing fonts for `script` (Pango's
    /// sample languages for the scripts whose fonts differ by language); nil for Latin and
    /// Common. Han (whose language a script alone does not tell) takes the user's locale
    /// when that writes Han, as Pango does, and is nil otherwise.
    static func sampleLanguage(of script: hb_script_t) -> String? {
        switch script {
        case HB_SCRIPT_HAN: return localeHanLanguage
        case HB_SCRIPT_HANGUL: return "ko"
        case HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA: return "ja"
        case HB_SCRIPT_ARABIC: return "ar"
        case HB_SCRIPT_HEBREW: return "he"
        case HB_SCRIPT_BENGALI: return "bn"
        case HB_SCRIPT_DEVANAGARI: return "hi"
        case HB_SCRIPT_THAI: return "th"
        case HB_SCRIPT_GREEK: return "el"
        case HB_SCRIPT_CYRILLIC: return "ru"
        case HB_SCRIPT_ARMENIAN: return "hy"
        case HB_SCRIPT_GEORGIAN: return "ka"
        case HB_SCRIPT_TAMIL: return "ta"
        default: return nil
        }
    }

    /// The fontconfig language to choose `script`'s fonts in, for a run in `language` (a BCP
    /// 47 tag, or nil): the run's language when it writes the script (as Pango lets a
    /// language attribute choose fonts), else the script's sample language
    /// (``sampleLanguage(of:)``). Latin and Common stay nil whatever the run's language (a
    /// Korean input method's Latin letters keep the font's own face).
    static func fontLanguage(for script: hb_script_t, in language: String?) -> String? {
        let sample = sampleLanguage(of: script)
        guard let language = language.flatMap(fontconfigLanguage), let primary = language.split(separator: "-").first
        else { return sample }
        let writers: [String]
        switch script {
        case HB_SCRIPT_HAN: writers = ["zh", "ja", "ko", "vi"]
        case HB_SCRIPT_HANGUL: writers = ["ko"]
        case HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA: writers = ["ja"]
        case HB_SCRIPT_ARABIC: writers = ["ar", "fa", "ur", "ps", "sd", "ug", "ku", "ckb"]
        case HB_SCRIPT_HEBREW: writers = ["he", "iw", "yi"]
        case HB_SCRIPT_CYRILLIC: writers = ["ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "tg", "mn"]
        case HB_SCRIPT_DEVANAGARI: writers = ["hi", "mr", "ne", "sa"]
        case HB_SCRIPT_BENGALI: writers = ["bn", "as"]
        default: writers = []
        }
        return writers.contains(String(primary)) ? language : sample
    }

    /// A BCP 47 tag as fontconfig names languages: lower case, "-" between subtags, Chinese
    /// scripts as regions ("zh-Hans" gives "zh-cn", "zh-Hant" "zh-tw", "zh-Hant-HK"
    /// "zh-hk"); nil for an empty or malformed tag (a character other than a letter, a
    /// digit, "-" or "_", or more than 35 of them).
    static func fontconfigLanguage(_ tag: String) -> String? {
        guard !tag.isEmpty, tag.utf8.count <= 35,
            tag.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        let subtags = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = subtags.first else { return nil }
        guard primary == "zh" else { return subtags.joined(separator: "-") }
        let region = subtags.dropFirst().first { $0.count == 2 }
        if let region { return "zh-" + region }
        if subtags.contains("hant") { return "zh-tw" }
        if subtags.contains("hans") { return "zh-cn" }
        return "zh"
    }

    /// The language of the process's locale when it is Chinese, Japanese or Korean (read once
    /// from `LC_ALL`, `LC_CTYPE` or `LANG`, the first one set), else nil.
    static let localeHanLanguage: String? = {
        let environment = ProcessInfo.processInfo.environment
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return hanLanguage(forLocale: locale)
    }()

    /// The fontconfig language of a POSIX locale name that writes Han ("zh_TW.UTF-8" gives
    /// "zh-tw", "ja_JP" gives "ja-jp", "ko" gives "ko"); nil for any other locale.
    static func hanLanguage(forLocale locale: String?) -> String? {
        guard let locale else { return nil }
        let name = locale.prefix { $0 != "." && $0 != "@" }.lowercased().replacingOccurrences(of: "_", with: "-")
        let writesHan = ["zh", "ja", "ko"].contains { name == $0 || name.hasPrefix($0 + "-") }
        return writesHan ? name : nil
    }

    /// Shapes one item with HarfBuzz (or lays out boxes for the built-in box font): the run
    /// and what HarfBuzz gave per glyph (empty for boxes).
    static func shapeItem(
        _ item: Item, scalars: [UInt32], buffer: OpaquePointer, font: Font, language: String?
    ) -> (run: ShapedRun, harfBuzzGlyphs: [ShapedItem.Glyph]) {
        let rtl = item.attributes.level & 1 == 1
        guard let face = item.attributes.face else {
            // The built-in box font: one box per visible character, in visual order.
            let placeholder = font.size * placeholderAdvance
            var glyphs: [TextLine.Glyph] = [], clusters: [UInt32] = [], pens: [CGFloat] = []
            var pen: CGFloat = 0
            let indices = rtl ? Array((item.start..<item.end).reversed()) : Array(item.start..<item.end)
            for index in indices {
                let value = scalars[index]
                if isIgnorable(value) { continue }
                let isSpace = Unicode.Scalar(value)?.properties.isWhitespace ?? false
                glyphs.append(TextLine.Glyph(index: 0, x: pen, y: 0, isPlaceholder: !isSpace))
                clusters.append(UInt32(index))
                pens.append(pen)
                pen += isSpace ? font.size * 0.3 : placeholder
            }
            return ((TextLine.Run(face: nil, glyphs: glyphs, isRightToLeft: rtl), clusters, pens, pen, 0, item), [])
        }
        let harfBuzzGlyphs = harfBuzzShape(
            scalars, range: item.start..<item.end, buffer: buffer, face: face, script: item.attributes.script,
            isRightToLeft: rtl, language: language)
        return (run(of: harfBuzzGlyphs, face: face, isRightToLeft: rtl, font: font, item: item), harfBuzzGlyphs)
    }

    /// HarfBuzz's glyphs for `scalars[range]` in `face` (the scalars around it as context),
    /// with the flag telling where the result may be cut and joined to another.
    static func harfBuzzShape(
        _ scalars: [UInt32], range: Range<Int>, buffer: OpaquePointer, face: FontFace, script: hb_script_t,
        isRightToLeft rtl: Bool, language: String?
    ) -> [ShapedItem.Glyph] {
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        // The run's language picks language-specific forms (OpenType `locl`), as Pango's
        // item language does; hb_language_t is interned by HarfBuzz and never freed.
        if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_flags(
            buffer,
            hb_buffer_flags_t(
                rawValue: HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES.rawValue | HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT.rawValue))
        // The face's shapers named: no Graphite look-up per call for a face without its tables.
        hb_shape_full(face.shapingFont, buffer, nil, 0, face.shapers.list)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        var glyphs: [ShapedItem.Glyph] = []
        glyphs.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let info = infos[index], position = positions[index]
            glyphs.append(ShapedItem.Glyph(
                index: info.codepoint, cluster: info.cluster,
                isUnsafeToConcatenate: info.mask & HB_GLYPH_FLAG_UNSAFE_TO_CONCAT.rawValue != 0,
                xAdvance: position.x_advance, xOffset: position.x_offset, yOffset: position.y_offset))
        }
        return glyphs
    }

    /// The run of HarfBuzz's `glyphs` in `face`: glyph positions in user units, glyph 0
    /// (.notdef: a character no installed font has) as a box with a fixed advance.
    static func run(
        of harfBuzzGlyphs: [ShapedItem.Glyph], face: FontFace, isRightToLeft rtl: Bool, font: Font, item: Item
    ) -> ShapedRun {
        let unit = font.size / face.unitsPerEm
        let placeholder = font.size * placeholderAdvance
        var glyphs: [TextLine.Glyph] = []
        var clusters: [UInt32] = [], pens: [CGFloat] = []
        glyphs.reserveCapacity(harfBuzzGlyphs.count)
        pens.reserveCapacity(harfBuzzGlyphs.count)
        clusters.reserveCapacity(harfBuzzGlyphs.count)
        var pen: CGFloat = 0
        var missing = 0
        for glyph in harfBuzzGlyphs {
            pens.append(pen)
            clusters.append(glyph.cluster)
            glyphs.append(placed(glyph, at: pen, unit: unit))
            if glyph.index == 0 { missing += 1 }
            pen += advance(of: glyph, unit: unit, placeholder: placeholder)
        }
        return (TextLine.Run(face: face, glyphs: glyphs, isRightToLeft: rtl), clusters, pens, pen, missing, item)
    }

    /// HarfBuzz's `glyph` placed at `pen` (user units; `unit`: user units per font unit);
    /// glyph 0 (.notdef) as a box.
    @inline(__always)
    static func placed(_ glyph: ShapedItem.Glyph, at pen: CGFloat, unit: CGFloat) -> TextLine.Glyph {
        guard glyph.index != 0 else { return TextLine.Glyph(index: 0, x: pen, y: 0, isPlaceholder: true) }
        return TextLine.Glyph(
            index: glyph.index, x: pen + CGFloat(glyph.xOffset) * unit, y: -CGFloat(glyph.yOffset) * unit,
            isPlaceholder: false)
    }

    /// How far `glyph` moves the pen: its advance, or `placeholder` for glyph 0 (a box).
    @inline(__always)
    static func advance(of glyph: ShapedItem.Glyph, unit: CGFloat, placeholder: CGFloat) -> CGFloat {
        glyph.index == 0 ? placeholder : CGFloat(glyph.xAdvance) * unit
    }

    /// The visual order of items with `levels` (UAX #9 rule L2: from the highest level
    /// down to the lowest odd one, reverse every maximal sequence at that level or above).
    static func visualOrder(levels: [Int8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), highest > 0 else { return order }
        let lowestOdd = levels.filter { $0 & 1 == 1 }.min() ?? highest
        var level = highest
        while level >= lowestOdd, level > 0 {
            var index = 0
            while index < order.count {
                guard levels[order[index]] >= level else {
                    index += 1
                    continue
                }
                var end = index
                while end < order.count, levels[order[end]] >= level { end += 1 }
                order[index..<end].reverse()
                index = end
            }
            level -= 1
        }
        return order
    }

    /// Gives every grapheme cluster in a shaped run its share of the x range of the glyph
    /// cluster (HarfBuzz cluster) it belongs to; a glyph cluster holding several grapheme
    /// clusters (a ligature) is split evenly between them in reading order.
    static func assignEdges(
        isRightToLeft: Bool, glyphClusters: [UInt32], pens: [CGFloat], itemEnd: Int, runStart: CGFloat,
        runWidth: CGFloat,
        clusterStarts: [Int], clusterOfScalar: [Int], edges: inout [TextLine.ClusterEdges?]
    ) {
        guard !glyphClusters.isEmpty else { return }
        // Visual spans of HarfBuzz clusters: consecutive glyphs with the same cluster value.
        var spans: [(cluster: Int, left: CGFloat, right: CGFloat)] = []
        spans.reserveCapacity(glyphClusters.count)
        for (index, value) in glyphClusters.enumerated() {
            if let last = spans.last, last.cluster == Int(value) { continue }
            spans.append((Int(value), runStart + pens[index], runStart + pens[index]))
        }
        // Right edges: the next span's left, or the run's end.
        for index in spans.indices {
            spans[index].right = index + 1 < spans.count ? spans[index + 1].left : runStart + runWidth
        }
        // Logical ends of each span: the next larger cluster value in the run. In a run whose
        // spans come in strictly rising (left to right) or falling (right to left) cluster
        // order, as HarfBuzz gives them unless glyphs were reordered, that is a neighbour's;
        // otherwise the spans' values are sorted and searched.
        var isRising = true, isFalling = true
        for index in spans.indices.dropFirst() {
            if spans[index].cluster <= spans[index - 1].cluster { isRising = false }
            if spans[index].cluster >= spans[index - 1].cluster { isFalling = false }
        }
        var sortedStarts: [Int] = []
        if !isRising, !isFalling {
            sortedStarts.reserveCapacity(spans.count)
            for span in spans { sortedStarts.append(span.cluster) }
            sortedStarts.sort()
        }
        var owners: [Int] = []  // one buffer for every span: no allocation per cluster
        for (spanIndex, span) in spans.enumerated() {
            let next: Int
            if isRising {
                next = spanIndex + 1 < spans.count ? spans[spanIndex + 1].cluster : itemEnd
            } else if isFalling {
                next = spanIndex > 0 ? spans[spanIndex - 1].cluster : itemEnd
            } else {
                // The first start above this span's (a binary search: a run of n clusters
                // costs n log n, not n²).
                var low = 0, high = sortedStarts.count
                while low < high {
                    let middle = (low + high) / 2
                    if sortedStarts[middle] > span.cluster { high = middle } else { low = middle + 1 }
                }
                next = low < sortedStarts.count ? sortedStarts[low] : itemEnd
            }
            // Grapheme clusters starting inside [span.cluster, next).
            owners.removeAll(keepingCapacity: true)
            for scalar in span.cluster..<max(next, span.cluster + 1) where scalar < clusterOfScalar.count {
                let cluster = clusterOfScalar[scalar]
                if clusterStarts[cluster] == scalar { owners.append(cluster) }
            }
            if owners.isEmpty, span.cluster < clusterOfScalar.count { owners.append(clusterOfScalar[span.cluster]) }
            let share = (span.right - span.left) / CGFloat(max(owners.count, 1))
            for (order, owner) in owners.enumerated() {
                let left: CGFloat, right: CGFloat
                if isRightToLeft {
                    right = span.right - share * CGFloat(order)
                    left = right - share
                } else {
                    left = span.left + share * CGFloat(order)
                    right = left + share
                }
                if let existing = edges[owner] {
                    edges[owner] = TextLine.ClusterEdges(
                        left: min(existing.left, left), right: max(existing.right, right),
                        isRightToLeft: isRightToLeft)
                } else {
                    edges[owner] = TextLine.ClusterEdges(left: left, right: right, isRightToLeft: isRightToLeft)
                }
            }
        }
    }
}

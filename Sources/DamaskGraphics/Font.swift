import Foundation

/// A font at one size: found through fontconfig, rasterized by FreeType, glyphs cached.
///
/// Sizes are in user units (points = pixels at scale 1); drawing under a scaled
/// context renders glyphs at the scaled pixel size. Faces and glyph caches are shared
/// by all fonts using the same file, and guarded by one lock, because FreeType is not
/// thread-safe; a `Font` is immutable and may be shared between threads.
public final class Font: Sendable {
    /// A font weight.
    public enum Weight: Sendable, CustomStringConvertible {
        /// Regular (book) weight.
        case regular
        /// Bold weight.
        case bold

        /// "regular" or "bold". Spelled out so that the face cache's keys (`"\(family)#\(weight)"`)
        /// do not go through the runtime's reflection, which cost about 2 % of the demo's
        /// start-up instructions and mapped the demangler's pages.
        public var description: String {
            switch self {
            case .regular: "regular"
            case .bold: "bold"
            }
        }
    }

    /// The largest size a font may have.
    public static let maximumSize: CGFloat = 4096

    /// The family that was asked for (fontconfig may have substituted another).
    public let family: String
    /// The size in user units per em.
    public let size: CGFloat
    /// The weight that was asked for.
    public let weight: Weight
    /// The FreeType face fontconfig matched (characters it lacks fall back to other
    /// faces per run), or nil for the built-in box font.
    let face: FontFace?

    /// Finds the best match for `family` and `weight` through fontconfig (which falls
    /// back to a default family when `family` is unknown).
    ///
    /// - Throws: ``GraphicsError/invalidFontSize(_:)`` for a bad size;
    ///   ``GraphicsError/fontNotFound(family:)`` when no scalable font can be opened.
    public init(family: String = "sans-serif", size: CGFloat, weight: Weight = .regular) throws {
        guard size.isFinite, size > 0, size <= Font.maximumSize else {
            throw GraphicsError.invalidFontSize(Double(size))
        }
        guard let face = FreeTypeLibrary.shared.withLock({ FreeTypeLibrary.shared.faceLocked(family: family, weight: weight) })
        else { throw GraphicsError.fontNotFound(family: family) }
        self.family = family
        self.size = size
        self.weight = weight
        self.face = face
    }

    private init(boxFontOfSize size: CGFloat, weight: Weight) {
        family = "box"
        self.size = size
        self.weight = weight
        face = nil
    }

    /// The default sans-serif font at `size`. Never fails: a bad size is clamped to
    /// 1…``maximumSize`` (NaN becomes 12), and without any usable font the built-in box
    /// font is returned (said once on stderr).
    public static func system(size: CGFloat, weight: Weight = .regular) -> Font {
        let size = size.isNaN ? 12 : min(max(size, 1), maximumSize)
        if let font = try? Font(size: size, weight: weight) { return font }
        _ = reportMissingFonts
        return Font(boxFontOfSize: size, weight: weight)
    }

    /// Writes, the first time it is read, that no font was found.
    private static let reportMissingFonts: Void = {
        StandardError.write("damask: no usable font found (fontconfig); text is drawn as boxes\n")
    }()

    /// A font that draws every visible character as a box; needs no font files.
    public static func builtInBoxFont(size: CGFloat) -> Font {
        Font(boxFontOfSize: size.isNaN ? 12 : min(max(size, 1), maximumSize), weight: .regular)
    }

    /// Whether this is the built-in box font.
    public var isBuiltInBoxFont: Bool { face == nil }

    /// The distance from the baseline to the top of tall glyphs (positive).
    public var ascent: CGFloat {
        guard let face else { return size * 0.8 }
        return face.ascender / face.unitsPerEm * size
    }

    /// The distance from the baseline to the bottom of descenders (positive).
    public var descent: CGFloat {
        guard let face else { return size * 0.2 }
        return -face.descender / face.unitsPerEm * size
    }

    /// The recommended distance between baselines.
    public var lineHeight: CGFloat {
        guard let face else { return size * 1.2 }
        return max(face.height, face.ascender - face.descender) / face.unitsPerEm * size
    }

    /// Measures `string` (UTF-8 or any Swift string) as ``GraphicsContext`` would draw it:
    /// the shaped advance width, and the ascent, descent and line height merged over
    /// every face the line uses (this font's and its fallbacks', so mixed-script lines
    /// share one baseline).
    public func measure(_ string: String) -> TextMetrics {
        let line = line(for: string)
        return TextMetrics(width: line.width, ascent: line.ascent, descent: line.descent, lineHeight: line.lineHeight)
    }

    /// The x offset (user units from the line's origin) of the caret before the
    /// grapheme cluster (`Character`) at `characterIndex` in `string`, placed visually
    /// in bidirectional text; `string.count` is the end of the text.
    public func caretOffset(atCharacter characterIndex: Int, in string: String) -> CGFloat {
        line(for: string).caretOffset(at: characterIndex)
    }

    /// The caret position (a `Character` index, 0…`string.count`) nearest to `x`.
    public func characterIndex(closestTo x: CGFloat, in string: String) -> Int {
        line(for: string).caretIndex(closestTo: x)
    }

    /// The x ranges covered by the characters in `range` (logical `Character` indices),
    /// left to right: one range per visually contiguous piece in bidirectional text.
    public func selectionRanges(forCharacters range: Range<Int>, in string: String) -> [ClosedRange<CGFloat>] {
        line(for: string).selectionRanges(for: range)
    }

    /// The x extent (left…right, user units from the line's origin) of every grapheme
    /// cluster (`Character`) of `string`, in logical order: what a text view compares
    /// before and after an edit to redraw only the glyphs that changed or moved.
    public func characterExtents(in string: String) -> [ClosedRange<CGFloat>] {
        line(for: string).clusters.map { min($0.left, $0.right)...max($0.left, $0.right) }
    }

    /// Whether `string`'s paragraph direction is right to left (its first strong
    /// character is Arabic, Hebrew, …).
    public func isRightToLeft(_ string: String) -> Bool {
        line(for: string).isRightToLeft
    }

    /// How many characters of `string` no installed font has (drawn as boxes).
    public func missingCharacterCount(in string: String) -> Int {
        line(for: string).missingCount
    }

    /// The family names of the faces `string` is drawn with (in `style`'s language when
    /// given), in order of first use: this font's face first when used, then the fallbacks
    /// fontconfig found.
    public func faceNames(for string: String, style: TextRunStyle? = nil) -> [String] {
        let line = line(for: string, style: style)
        var names: [String] = []
        for run in line.runs {
            let name = run.face?.familyName ?? "box"
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The line of `string` laid out in this font (in `style`'s language and direction when
    /// given), from the process-wide cache; when `previous` is the line of an earlier
    /// version of the text (an edit of its end), shaped again only from near the edit where
    /// HarfBuzz allows it (``TextShaper/shape(_:font:library:style:reusing:)``).
    ///
    /// A line shaped as an edit of `previous` is neither looked up in the cache nor added to
    /// it: its owner (a ``TextLayout``'s chunk) keeps it, and each typed key would otherwise
    /// add a version of the chunk being typed that nothing looks up again, until the cache
    /// filled and was emptied, labels' lines with it; and the look-up (hashing the chunk's
    /// text) would cost every key for a text typed before, which real typing rarely meets.
    func line(for string: String, style: TextRunStyle? = nil, reusing previous: TextLine? = nil) -> TextLine {
        let library = FreeTypeLibrary.shared
        guard let previous else {
            let key = TextLine.Key(string: string, family: family, weight: weight, size: size, isBoxFont: face == nil, style: style)
            return library.withLock {
                library.lineLocked(key) { TextShaper.shape(string, font: self, library: library, style: style) }
            }
        }
        return library.withLock {
            library.uncachedLineLocked { TextShaper.shape(string, font: self, library: library, style: style, reusing: previous) }
        }
    }
}

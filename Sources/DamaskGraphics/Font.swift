import Foundation

/// A font at one size: found through fontconfig, rasterized by FreeType, glyphs cached.
///
/// Sizes are in user units (points = pixels at scale 1); drawing under a scaled
/// context renders glyphs at the scaled pixel size. Faces and glyph caches are shared
/// by all fonts using the same file, and guarded by one lock, because FreeType is not
/// thread-safe; a `Font` is immutable and may be shared between threads.
public final class Font: Sendable {
    /// A font weight.
    public enum Weight: Sendable {
        /// Regular (book) weight.
        case regular
        /// Bold weight.
        case bold
    }

    /// The largest size a font may have.
    public static let maximumSize: CGFloat = 4096

    /// The family that was asked for (fontconfig may have substituted another).
    public let family: String
    /// The size in user units per em.
    public let size: CGFloat
    /// The weight that was asked for.
    public let weight: Weight
    /// The FreeType face, or nil for the built-in box font.
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
        FileHandle.standardError.write(Data("damask: no usable font found (fontconfig); text is drawn as boxes\n".utf8))
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

    /// Measures `string` (UTF-8 or any Swift string) as ``GraphicsContext`` would draw it.
    public func measure(_ string: String) -> TextMetrics {
        let width = layout(string).width
        return TextMetrics(width: width, ascent: ascent, descent: descent, lineHeight: lineHeight)
    }

    /// A glyph placed along the baseline; `glyph == nil` draws the box placeholder.
    struct PlacedGlyph {
        var glyph: UInt32?
        var x: CGFloat
    }

    /// Places the glyphs of `string` from x = 0 (user units) and returns the advance.
    /// Control characters are skipped; missing glyphs become boxes.
    func layout(_ string: String) -> (glyphs: [PlacedGlyph], width: CGFloat) {
        var glyphs: [PlacedGlyph] = []
        var pen: CGFloat = 0
        let boxAdvance = size * 0.6
        FreeTypeLibrary.shared.withLock {
            for scalar in string.unicodeScalars {
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { continue }
                guard let face else {
                    if !scalar.properties.isWhitespace { glyphs.append(PlacedGlyph(glyph: nil, x: pen)) }
                    pen += scalar.properties.isWhitespace ? size * 0.3 : boxAdvance
                    continue
                }
                let index = face.glyphIndex(for: scalar)
                if index == 0 {
                    glyphs.append(PlacedGlyph(glyph: nil, x: pen))
                    pen += boxAdvance
                } else {
                    glyphs.append(PlacedGlyph(glyph: index, x: pen))
                    pen += face.advance(of: index) / face.unitsPerEm * size
                }
            }
        }
        return (glyphs, pen)
    }
}

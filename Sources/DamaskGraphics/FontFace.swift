import CFreeType
import CHarfBuzz
import CPixman
import Foundation

/// One opened FreeType face with its caches (glyph indices, advances and outlines) and
/// the HarfBuzz font that shapes text with it.
///
/// Owns its `FT_Face` and its `hb_font_t` (which holds a FreeType reference on the face
/// through hb-ft) for the life of the process: faces are shared through
/// ``FreeTypeLibrary`` and never closed. Every method must be called with
/// ``FreeTypeLibrary``'s lock held, hence `@unchecked Sendable`.
final class FontFace: @unchecked Sendable {
    private let face: FT_Face
    /// The HarfBuzz font over `face`, scaled to font units (positions come out in design
    /// units, unhinted); owned by this face.
    let shapingFont: OpaquePointer
    /// The HarfBuzz shapers `shapingFont` shapes with (``HarfBuzzShapers/forFace(_:)``).
    let shapers: HarfBuzzShapers
    /// Font design units per em.
    let unitsPerEm: CGFloat
    /// Ascender, descender (negative below the baseline) and line height in font units.
    let ascender: CGFloat, descender: CGFloat, height: CGFloat
    /// How far any glyph's ink reaches left (negative) and right of its pen, in font units:
    /// the face's bounding box (the `head` table's, for TrueType), widened by half an em on
    /// each side for fonts whose box is too tight. Infinite when the face gives no box, or
    /// for colour bitmap faces. Lets a clipped draw skip glyphs that cannot reach the clip.
    let inkReach: (left: CGFloat, right: CGFloat)
    /// The family name the font file gives (e.g. "DejaVu Sans", "NanumGothic").
    let familyName: String
    /// Whether this is a colour bitmap face (CBDT/sbix, e.g. Noto Color Emoji): its glyphs
    /// are colour images at a fixed strike size, scaled to the font size and drawn in their
    /// own colours (``colorImage(of:pixelSize:)``), never through the coverage glyph cache.
    let isColorBitmap: Bool
    /// The strike's pixels per em (colour bitmap faces; 0 for outline faces).
    let strikePixelsPerEm: CGFloat

    @exclusivity(unchecked) private var indices: [Unicode.Scalar: UInt32] = [:]
    private var advances: [UInt32: CGFloat] = [:]
    private var outlines: [UInt32: Path] = [:]

    /// Horizontal sub-pixel positions glyphs are rendered at (quarter pixels).
    static let subpixelPhases = 4

    /// FreeType load flags: `FT_LOAD_NO_SCALE` (design units) and `FT_LOAD_TARGET_LIGHT`.
    private static let loadNoScale: Int32 = 0x1
    private static let loadTargetLight: Int32 = 0x10000
    /// `FT_LOAD_COLOR`: colour bitmaps (BGRA) from CBDT/sbix tables.
    private static let loadColor: Int32 = 1 << 20

    /// Wraps `face` (taking ownership of it on success); nil when HarfBuzz cannot use it,
    /// or when it is neither scalable (with units per em) nor a colour bitmap face with a
    /// strike.
    init?(face: FT_Face) {
        let record = face.pointee
        let scalable = record.face_flags & FT_FACE_FLAG_SCALABLE != 0 && record.units_per_EM > 0
        let color = record.face_flags & FT_FACE_FLAG_COLOR != 0 && record.num_fixed_sizes > 0
        guard scalable || color else { return nil }
        guard let hbFace = hb_ft_face_create_referenced(face) else { return nil }
        defer { hb_face_destroy(hbFace) }
        guard let hbFont = hb_font_create(hbFace) else { return nil }
        shapers = HarfBuzzShapers.forFace(hbFace)
        familyName = record.family_name.map { String(cString: $0) } ?? "unknown"
        if scalable {
            unitsPerEm = CGFloat(record.units_per_EM)
            ascender = CGFloat(record.ascender)
            descender = CGFloat(record.descender)
            height = CGFloat(record.height)
            let box = record.bbox
            inkReach = box.xMax > box.xMin
                ? (CGFloat(box.xMin) - unitsPerEm / 2, CGFloat(box.xMax) + unitsPerEm / 2)
                : (-.infinity, .infinity)
            isColorBitmap = false
            strikePixelsPerEm = 0
        } else {
            // A bitmap-only colour face: FreeType gives no units per em; HarfBuzz reads the
            // `head` table's, and the metrics come from the strike, in those units.
            let upem = CGFloat(hb_face_get_upem(hbFace))
            guard upem > 0, FT_Select_Size(face, 0) == 0, let size = record.size else {
                hb_font_destroy(hbFont)
                return nil
            }
            let ppem = CGFloat(record.available_sizes[0].y_ppem) / 64
            let metrics = size.pointee.metrics
            guard ppem > 0 else {
                hb_font_destroy(hbFont)
                return nil
            }
            unitsPerEm = upem
            ascender = CGFloat(metrics.ascender) / 64 / ppem * upem
            descender = CGFloat(metrics.descender) / 64 / ppem * upem
            height = CGFloat(metrics.height) / 64 / ppem * upem
            inkReach = (-.infinity, .infinity)
            isColorBitmap = true
            strikePixelsPerEm = ppem
        }
        self.face = face
        shapingFont = hbFont
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
    }

    /// A colour glyph image: premultiplied ARGB pixels and where they sit, in device pixels
    /// from the pen on the baseline (`left` right of it, `top` above it).
    struct ColorImage {
        var bitmap: Bitmap
        var left: CGFloat
        var top: CGFloat
    }

    /// The most colour glyph images kept per face (strike size and scaled together).
    private static let colorImageLimit = 256
    private var strikeImages: [UInt32: ColorImage] = [:]
    private struct ScaledKey: Hashable {
        var glyph: UInt32
        var size64: Int
    }
    private var scaledImages: [ScaledKey: ColorImage] = [:]

    /// `glyph` of a colour bitmap face as it is drawn at `pixelSize` device pixels per em
    /// (nil for a blank glyph, or when this is not a colour face): the strike's image
    /// scaled with area averaging; or the strike's own image when `pixelSize` is nil
    /// (for drawing under rotation or skew, where the caller scales it). Images are
    /// cached per face (at most 256 of each; the cache starts over when full).
    func colorImage(of glyph: UInt32, pixelSize: CGFloat?) -> ColorImage? {
        guard isColorBitmap else { return nil }
        let strike: ColorImage
        if let cached = strikeImages[glyph] {
            strike = cached
        } else {
            guard let loaded = loadStrikeImage(glyph) else { return nil }
            if strikeImages.count >= Self.colorImageLimit { strikeImages.removeAll(keepingCapacity: true) }
            strikeImages[glyph] = loaded
            strike = loaded
        }
        guard let pixelSize else { return strike }
        guard pixelSize.isFinite, pixelSize > 0 else { return nil }
        let key = ScaledKey(glyph: glyph, size64: Int((pixelSize * 64).rounded()))
        if let cached = scaledImages[key] { return cached }
        let factor = pixelSize / strikePixelsPerEm
        let width = Int((CGFloat(strike.bitmap.width) * factor).rounded(.up))
        let height = Int((CGFloat(strike.bitmap.height) * factor).rounded(.up))
        guard width > 0, height > 0, let bitmap = try? Bitmap(width: width, height: height) else { return nil }
        GraphicsContext(bitmap: bitmap).draw(
            strike.bitmap,
            in: CGRect(x: 0, y: 0, width: CGFloat(strike.bitmap.width) * factor, height: CGFloat(strike.bitmap.height) * factor),
            interpolation: .high)
        let scaled = ColorImage(bitmap: bitmap, left: strike.left * factor, top: strike.top * factor)
        if scaledImages.count >= Self.colorImageLimit { scaledImages.removeAll(keepingCapacity: true) }
        scaledImages[key] = scaled
        return scaled
    }

    /// The font-unit bounds (y up) of a colour glyph's image; `.null` when blank.
    func colorBounds(of glyph: UInt32) -> CGRect {
        guard let image = colorImage(of: glyph, pixelSize: nil) else { return .null }
        let unit = unitsPerEm / strikePixelsPerEm
        return CGRect(
            x: image.left * unit, y: (image.top - CGFloat(image.bitmap.height)) * unit,
            width: CGFloat(image.bitmap.width) * unit, height: CGFloat(image.bitmap.height) * unit)
    }

    /// Loads `glyph`'s colour image at the strike size (FreeType's BGRA bitmaps are
    /// premultiplied, the byte order of pixman's `a8r8g8b8` on little-endian machines).
    private func loadStrikeImage(_ glyph: UInt32) -> ColorImage? {
        guard FT_Select_Size(face, 0) == 0, FT_Load_Glyph(face, glyph, FontFace.loadColor) == 0 else { return nil }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width > 0, rows > 0, let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
            let image = try? Bitmap(width: width, height: rows)
        else { return nil }
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            let sourceRow = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
            (image.bytes + row * image.bytesPerRow).copyMemory(from: sourceRow, byteCount: width * 4)
        }
        return ColorImage(bitmap: image, left: CGFloat(slot.bitmap_left), top: CGFloat(slot.bitmap_top))
    }

    /// The glyph index for `scalar`; 0 means the font has no glyph for it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        if let index = indices[scalar] { return index }
        let index = UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
        indices[scalar] = index
        return index
    }

    /// The unhinted advance of `glyph` in font units.
    func advance(of glyph: UInt32) -> CGFloat {
        if let advance = advances[glyph] { return advance }
        guard FT_Load_Glyph(face, glyph, FontFace.loadNoScale) == 0 else { return 0 }
        let advance = CGFloat(face.pointee.glyph.pointee.advance.x)
        advances[glyph] = advance
        return advance
    }

    /// The outline of `glyph` in font units, y up (empty for blank glyphs).
    func outline(of glyph: UInt32) -> Path {
        if let path = outlines[glyph] { return path }
        var path = Path()
        if FT_Load_Glyph(face, glyph, FontFace.loadNoScale) == 0 {
            let slot = face.pointee.glyph.pointee
            advances[glyph] = CGFloat(slot.advance.x)
            if slot.format == FT_GLYPH_FORMAT_OUTLINE {
                path = FontFace.path(from: slot.outline)
            }
        }
        outlines[glyph] = path
        return path
    }

    /// `glyph` rendered with light hinting at `size64` / 64 device pixels per em, shifted
    /// right by `phase` / ``subpixelPhases`` of a pixel (so text keeps its unhinted
    /// advances without glyphs snapping to whole pixels). Not cached here: callers keep
    /// the result in ``GlyphCache``.
    func render(_ glyph: UInt32, size64: Int, phase: Int) -> GlyphImage {
        render(glyph, size64: size64, phases: [phase])[0]
    }

    /// `glyph` rendered as ``render(_:size64:phase:)`` renders it, once for each of
    /// `phases`, in that order, from one load of its outline: the hinted outline is loaded
    /// (and read from the font file) once and only moved for each phase.
    ///
    /// Moving the loaded outline is what `FT_Set_Transform`'s delta does to it after hinting,
    /// so each image is the one a load with that delta would render.
    func render(_ glyph: UInt32, size64: Int, phases: [Int]) -> [GlyphImage] {
        assert(phases.allSatisfy { (0..<FontFace.subpixelPhases).contains($0) }, "a phase is a quarter pixel: 0 to 3")
        let blank = GlyphImage(image: nil, left: 0, top: 0, width: 0, height: 0)
        FT_Set_Transform(face, nil, nil)
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72) == 0,
            FT_Load_Glyph(face, glyph, FontFace.loadTargetLight) == 0
        else { return [GlyphImage](repeating: blank, count: phases.count) }
        // Owned here, released by the defer; each phase renders a copy.
        var loaded: FT_Glyph?
        guard FT_Get_Glyph(face.pointee.glyph, &loaded) == 0, let loaded else {
            return [GlyphImage](repeating: blank, count: phases.count)
        }
        defer { FT_Done_Glyph(loaded) }
        var images: [GlyphImage] = []
        images.reserveCapacity(phases.count)
        for phase in phases {
            var copy: FT_Glyph?
            guard FT_Glyph_Copy(loaded, &copy) == 0, copy != nil else {
                images.append(blank)
                continue
            }
            // With `destroy` 1 the copy is replaced by its bitmap (or left as it was on an
            // error); either way `copy` then holds the one glyph to release.
            var shift = FT_Vector(x: FT_Pos(phase * 64 / FontFace.subpixelPhases), y: 0)
            let error = FT_Glyph_To_Bitmap(&copy, FT_RENDER_MODE_NORMAL, &shift, 1)
            guard let rendered = copy else {
                images.append(blank)
                continue
            }
            defer { FT_Done_Glyph(rendered) }
            guard error == 0, rendered.pointee.format == FT_GLYPH_FORMAT_BITMAP else {
                images.append(blank)
                continue
            }
            let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self).pointee
            images.append(Self.image(of: bitmapGlyph.bitmap, left: Int(bitmapGlyph.left), top: Int(bitmapGlyph.top)) ?? blank)
        }
        return images
    }

    /// A copy of FreeType's 8-bit coverage `bitmap` as a glyph image; nil for an empty
    /// bitmap or another pixel mode.
    private static func image(of bitmap: FT_Bitmap, left: Int, top: Int) -> GlyphImage? {
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width > 0, rows > 0, let buffer = bitmap.buffer,
            bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
            let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(rows), nil, 0)
        else { return nil }
        let destination = UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
        let stride = Int(pixman_image_get_stride(image))
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            let sourceRow = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
            (destination + row * stride).update(from: sourceRow, count: width)
        }
        return GlyphImage(image: image, left: left, top: top, width: width, height: rows)
    }

    /// Converts a FreeType outline (on-curve points, conic and cubic controls) to a path.
    private static func path(from outline: FT_Outline) -> Path {
        var path = Path()
        guard let points = outline.points, let tags = outline.tags, let contours = outline.contours else { return path }
        var start = 0
        for c in 0..<Int(outline.n_contours) {
            let end = Int(contours[c])
            guard end >= start, end < Int(outline.n_points) else { break }
            appendContour(
                (start...end).map { (CGPoint(x: CGFloat(points[$0].x), y: CGFloat(points[$0].y)), UInt8(bitPattern: tags[$0]) & 3) },
                to: &path)
            start = end + 1
        }
        return path
    }

    /// Appends one closed contour. Tags: bit 0 set = on curve; else bit 1 set = cubic
    /// control, clear = conic control (consecutive conic controls imply an on-curve
    /// midpoint).
    private static func appendContour(_ contour: [(point: CGPoint, tag: UInt8)], to path: inout Path) {
        guard !contour.isEmpty else { return }
        func isOn(_ tag: UInt8) -> Bool { tag & 1 != 0 }
        func mid(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        var points = contour
        if let firstOn = points.firstIndex(where: { isOn($0.tag) }) {
            points = Array(points[firstOn...] + points[..<firstOn])
        } else {
            // All conic controls: start at the midpoint of the last and first.
            points.insert((mid(points[points.count - 1].point, points[0].point), 1), at: 0)
        }
        path.move(to: points[0].point)
        var i = 1
        var pendingConic: CGPoint?
        var cubicControls: [CGPoint] = []
        while i <= points.count {
            let (p, tag) = i == points.count ? (points[0].point, UInt8(1)) : points[i]
            if isOn(tag) {
                if let control = pendingConic {
                    path.addQuadCurve(to: p, control: control)
                } else if cubicControls.count == 2 {
                    path.addCurve(to: p, control1: cubicControls[0], control2: cubicControls[1])
                } else {
                    path.addLine(to: p)
                }
                pendingConic = nil
                cubicControls = []
            } else if tag & 2 != 0 {
                cubicControls.append(p)
            } else {
                if let control = pendingConic {
                    path.addQuadCurve(to: mid(control, p), control: control)
                }
                pendingConic = p
            }
            i += 1
        }
        path.closeSubpath()
    }
}

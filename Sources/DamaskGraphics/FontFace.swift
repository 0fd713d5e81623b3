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
    /// Font design units per em.
    let unitsPerEm: CGFloat
    /// Ascender, descender (negative below the baseline) and line height in font units.
    let ascender: CGFloat, descender: CGFloat, height: CGFloat
    /// The family name the font file gives (e.g. "DejaVu Sans", "NanumGothic").
    let familyName: String

    private var indices: [Unicode.Scalar: UInt32] = [:]
    private var advances: [UInt32: CGFloat] = [:]
    private var outlines: [UInt32: Path] = [:]

    /// Horizontal sub-pixel positions glyphs are rendered at (quarter pixels).
    static let subpixelPhases = 4

    /// FreeType load flags: `FT_LOAD_NO_SCALE` (design units) and `FT_LOAD_TARGET_LIGHT`.
    private static let loadNoScale: Int32 = 0x1
    private static let loadTargetLight: Int32 = 0x10000

    /// Wraps `face` (taking ownership of it); nil when HarfBuzz cannot use it.
    init?(face: FT_Face) {
        guard let hbFace = hb_ft_face_create_referenced(face) else { return nil }
        defer { hb_face_destroy(hbFace) }
        guard let hbFont = hb_font_create(hbFace) else { return nil }
        self.face = face
        shapingFont = hbFont
        let record = face.pointee
        unitsPerEm = CGFloat(record.units_per_EM)
        hb_font_set_scale(hbFont, Int32(record.units_per_EM), Int32(record.units_per_EM))
        ascender = CGFloat(record.ascender)
        descender = CGFloat(record.descender)
        height = CGFloat(record.height)
        familyName = record.family_name.map { String(cString: $0) } ?? "unknown"
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
        let blank = GlyphImage(image: nil, left: 0, top: 0, width: 0, height: 0)
        var shift = FT_Vector(x: FT_Pos(phase * 64 / FontFace.subpixelPhases), y: 0)
        FT_Set_Transform(face, nil, &shift)
        defer { FT_Set_Transform(face, nil, nil) }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72) == 0,
            FT_Load_Glyph(face, glyph, FontFace.loadTargetLight) == 0,
            FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0
        else { return blank }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width > 0, rows > 0, let buffer = bitmap.buffer,
            bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
            let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(rows), nil, 0)
        else { return blank }
        let destination = UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
        let stride = Int(pixman_image_get_stride(image))
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            let sourceRow = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
            (destination + row * stride).update(from: sourceRow, count: width)
        }
        return GlyphImage(image: image, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), width: width, height: rows)
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

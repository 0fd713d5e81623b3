import CPixman
import Foundation

/// Text drawing.
extension GraphicsContext {
    /// Glyphs larger than this many device pixels per em are filled as outlines
    /// instead of being rendered into (large) cached images.
    static let largestCachedGlyphSize: CGFloat = 256

    /// Draws `text` with its baseline starting at `point` (user space) in `color`
    /// (times the global alpha), honouring the clip and blend mode.
    ///
    /// Under a translation or uniform positive scale, cached FreeType glyph images
    /// (rendered at quarter-pixel horizontal offsets) are composited directly by pixman.
    /// Under rotation, skew or non-uniform scale, or above 256 device pixels per em, the
    /// glyph outlines are filled as paths instead. Characters the font lacks are drawn
    /// as boxes.
    public func draw(_ text: String, at point: CGPoint, font: Font, color: Color) {
        guard point.x.isFinite, point.y.isFinite, clipBounds != nil else { return }
        let (glyphs, _) = font.layout(text)
        guard !glyphs.isEmpty else { return }
        let t = state.ctm
        if t.b == 0, t.c == 0, t.a > 0, t.a == t.d, font.size * t.a <= GraphicsContext.largestCachedGlyphSize {
            drawGlyphImages(glyphs, at: point.applying(t), scale: t.a, font: font, color: color)
        } else {
            drawGlyphOutlines(glyphs, at: point, font: font, color: color)
        }
    }

    private func drawGlyphImages(
        _ glyphs: [Font.PlacedGlyph], at origin: CGPoint, scale: CGFloat, font: Font, color: Color
    ) {
        let limit = Rasterizer.coordinateLimit
        guard abs(origin.x) < limit, abs(origin.y) < limit else { return }
        let pixelSize = font.size * scale
        guard pixelSize.isFinite, pixelSize > 0 else { return }
        var pixmanColor = color.pixmanColor(premultiplied: true, alphaScale: state.alpha)
        guard let solid = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(solid) }
        let baseline = Int(origin.y.rounded())
        let library = FreeTypeLibrary.shared
        library.withLock {
            for placed in glyphs {
                let penX = origin.x + placed.x * scale
                var whole = penX.rounded(.down)
                var phase = Int(((penX - whole) * CGFloat(FontFace.subpixelPhases)).rounded())
                if phase == FontFace.subpixelPhases {
                    whole += 1
                    phase = 0
                }
                let image: GlyphImage
                if let glyph = placed.glyph, let face = font.face {
                    image = face.image(of: glyph, pixelSize: pixelSize, phase: phase)
                } else {
                    let key = Int((pixelSize * 64).rounded())
                    if let cached = library.boxGlyphs[key] {
                        image = cached
                    } else {
                        image = GlyphImage.box(pixelSize: pixelSize)
                        if library.boxGlyphs.count > 64 { library.boxGlyphs.removeAll() }
                        library.boxGlyphs[key] = image
                    }
                }
                guard let mask = image.image else { continue }
                let x = Int(whole) + image.left
                blitGlyph(mask, solid: solid, x: x, y: baseline - image.top, width: image.width, height: image.height)
            }
        }
    }

    /// Composites one glyph mask: a direct pixman call when there is no clip mask and
    /// the blend mode is bounded, otherwise through the general compositing path.
    private func blitGlyph(_ mask: OpaquePointer, solid: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
        if state.clipMask == nil, !GraphicsContext.isUnbounded(state.blendMode) {
            applyClipRegion()
            pixman_image_composite32(
                state.blendMode.pixmanOperator, solid, mask, target, 0, 0, 0, 0,
                Int32(x), Int32(y), Int32(width), Int32(height))
            return
        }
        guard let coverage = CoverageMask(x: x, y: y, width: width, height: height) else { return }
        pixman_image_composite32(PIXMAN_OP_SRC, mask, nil, coverage.image, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        composite(solid, coverage: .mask(coverage), alpha: 1, mode: state.blendMode)
    }

    private func drawGlyphOutlines(_ glyphs: [Font.PlacedGlyph], at point: CGPoint, font: Font, color: Color) {
        var path = Path()
        FreeTypeLibrary.shared.withLock {
            for placed in glyphs {
                let x = point.x + placed.x
                if let glyph = placed.glyph, let face = font.face {
                    let unit = font.size / face.unitsPerEm
                    let toUser = CGAffineTransform(a: unit, b: 0, c: 0, d: -unit, tx: x, ty: point.y)
                    path.addPath(face.outline(of: glyph).applying(toUser))
                } else {
                    let width = font.size * 0.5, height = font.size * 0.7
                    let thickness = max(font.size / 14, 0.5)
                    let box = CGRect(x: x + font.size * 0.05, y: point.y - height, width: width, height: height)
                    path.addRect(CGRect(x: box.minX, y: box.minY, width: width, height: thickness))
                    path.addRect(CGRect(x: box.minX, y: box.maxY - thickness, width: width, height: thickness))
                    path.addRect(CGRect(x: box.minX, y: box.minY, width: thickness, height: height))
                    path.addRect(CGRect(x: box.maxX - thickness, y: box.minY, width: thickness, height: height))
                }
            }
        }
        guard let mask = rasterize(devicePolygons(filling: path), rule: .winding) else { return }
        paintSolid(color, coverage: .mask(mask), mode: state.blendMode)
    }
}

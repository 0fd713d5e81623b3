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
    /// The text is laid out once per string and font and cached: characters the font
    /// lacks are drawn with fallback fonts fontconfig finds, HarfBuzz shapes every run
    /// (ligatures, marks, contextual forms) and bidirectional text is reordered (UAX #9).
    /// Under a translation or uniform positive scale, cached glyph images (rendered at
    /// quarter-pixel horizontal offsets) are layered into a coverage mask of the whole
    /// line, kept in a bounded cache (``LineMaskCache``, 4 MiB, least recently used
    /// first out), so drawing the same line again at the same size and sub-pixel origin
    /// is one pixman composite.
    /// Under rotation, skew or non-uniform scale, or above 256 device pixels per em, the
    /// glyph outlines are filled as paths instead. Characters no installed font has are
    /// drawn as boxes.
    public func draw(_ text: String, at point: CGPoint, font: Font, color: Color) {
        guard point.x.isFinite, point.y.isFinite, clipBounds != nil, !text.isEmpty else { return }
        draw(font.line(for: text), at: point, font: font, color: color)
    }

    /// Draws a line laid out in `font`, as the string variant draws a string.
    func draw(_ line: TextLine, at point: CGPoint, font: Font, color: Color) {
        guard point.x.isFinite, point.y.isFinite, clipBounds != nil, line.glyphCount > 0 else { return }
        let t = state.ctm
        if t.b == 0, t.c == 0, t.a > 0, t.a == t.d, font.size * t.a <= GraphicsContext.largestCachedGlyphSize {
            drawGlyphImages(line, at: point.applying(t), scale: t.a, font: font, color: color)
        } else {
            drawGlyphOutlines(line, at: point, font: font, color: color)
        }
        if line.hasColorGlyphs { drawColorGlyphs(line, at: point, font: font) }
    }

    /// Draws the glyphs of colour bitmap faces (emoji) in their own colours, honouring
    /// the CTM, clip, global alpha and blend mode like any bitmap: under a translation or
    /// uniform scale, each glyph's image scaled once to the device pixel size (cached by
    /// its face) at whole device pixels; otherwise the strike's image transformed.
    private func drawColorGlyphs(_ line: TextLine, at point: CGPoint, font: Font) {
        let t = state.ctm
        let upright = t.b == 0 && t.c == 0 && t.a > 0 && t.a == t.d
        let library = FreeTypeLibrary.shared
        for run in line.runs {
            guard let face = run.face, face.isColorBitmap else { continue }
            for glyph in run.glyphs where !glyph.isPlaceholder {
                let pen = CGPoint(x: point.x + glyph.x, y: point.y + glyph.y)
                if upright {
                    let pixelSize = font.size * t.a
                    guard let image = library.withLock({ face.colorImage(of: glyph.index, pixelSize: pixelSize) })
                    else { continue }
                    let device = pen.applying(t)
                    let x = (device.x + image.left).rounded(), y = (device.y - image.top).rounded()
                    let rect = CGRect(
                        x: (x - t.tx) / t.a, y: (y - t.ty) / t.a,
                        width: CGFloat(image.bitmap.width) / t.a, height: CGFloat(image.bitmap.height) / t.a)
                    draw(image.bitmap, in: rect, interpolation: .none)
                } else {
                    guard let image = library.withLock({ face.colorImage(of: glyph.index, pixelSize: nil) }) else { continue }
                    let unit = font.size / face.strikePixelsPerEm
                    let rect = CGRect(
                        x: pen.x + image.left * unit, y: pen.y - image.top * unit,
                        width: CGFloat(image.bitmap.width) * unit, height: CGFloat(image.bitmap.height) * unit)
                    draw(image.bitmap, in: rect, interpolation: .high)
                }
            }
        }
    }

    private func drawGlyphImages(_ line: TextLine, at origin: CGPoint, scale: CGFloat, font: Font, color: Color) {
        let limit = Rasterizer.coordinateLimit
        guard abs(origin.x) < limit, abs(origin.y) < limit else { return }
        let pixelSize = font.size * scale
        guard pixelSize.isFinite, pixelSize > 0 else { return }
        let size64 = Int((pixelSize * 64).rounded())
        let wholeX = origin.x.rounded(.down), wholeY = origin.y.rounded(.down)
        let fraction = CGPoint(x: origin.x - wholeX, y: origin.y - wholeY)
        let library = FreeTypeLibrary.shared
        library.withLock {
            let cache = library.glyphCache
            let key = LineMaskCache.Key(
                line: line.serial, size64: size64, scale: scale, fractionX: fraction.x, fractionY: fraction.y)
            var mask = library.lineMasks.mask(for: key)
            if mask == nil, let clip = clipBounds {
                cache.freeze()
                defer { cache.thaw() }
                let originX = Int(wholeX)
                let placed: [GlyphCache.PlacedGlyph]
                let placedWhole: Bool
                if let placement = line.placement, placement.size64 == size64, placement.scale == scale,
                    placement.fraction == fraction
                {
                    placed = placement.glyphs
                    placedWhole = true
                } else {
                    // Only glyphs whose ink can reach the clip are looked up: the line a
                    // key just changed is drawn where it changed, a few of its glyphs.
                    let reach = CGFloat(clip.x0 - originX)...CGFloat(clip.x1 - originX)
                    let lookups: Int
                    (placed, placedWhole, lookups) = Self.placeGlyphs(
                        line, fraction: fraction, scale: scale, size64: size64, cache: cache, reaching: reach)
                    glyphLookupCount += lookups
                    if placedWhole {
                        line.placement = TextLine.Placement(size64: size64, scale: scale, fraction: fraction, glyphs: placed)
                    }
                }
                // A line the clip cuts on its first draw (the line a key just changed, drawn
                // where it changed) renders only the glyphs reaching into the clip, and keeps
                // nothing: the same pixels inside the clip (a glyph outside it adds no
                // coverage there), without rendering and caching the whole line for one draw.
                // A line drawn whole is rendered whole and kept.
                var drawn: [GlyphCache.PlacedGlyph] = []
                drawn.reserveCapacity(placed.count)
                for glyph in placed {
                    let left = originX + Int(glyph.x) + glyph.glyph.left
                    if left < clip.x1, left + glyph.glyph.width > clip.x0 { drawn.append(glyph) }
                }
                guard !drawn.isEmpty, let rendered = LineMaskCache.render(drawn) else { return }
                if line.serial != 0, placedWhole, drawn.count == placed.count {
                    library.lineMasks.insert(rendered, for: key)
                }
                mask = rendered
            }
            guard let mask else { return }
            compositeLineMask(mask, at: (Int(wholeX), Int(wholeY)), color: color)
        }
    }

    /// Resolves the glyphs of `line` in `cache` at positions relative to the whole-pixel
    /// origin, whose fractional part is `fraction`, skipping those whose ink cannot reach
    /// `reach` (device pixels from that origin; the face's ``FontFace/inkReach`` bounds each
    /// glyph's ink). Returns the placed glyphs, whether none was skipped and how many glyphs
    /// were looked up (blank ones included). Call between freeze and thaw.
    private static func placeGlyphs(
        _ line: TextLine, fraction: CGPoint, scale: CGFloat, size64: Int, cache: GlyphCache,
        reaching reach: ClosedRange<CGFloat>
    ) -> (glyphs: [GlyphCache.PlacedGlyph], isWhole: Bool, lookups: Int) {
        var placed: [GlyphCache.PlacedGlyph] = []
        placed.reserveCapacity(line.glyphCount)
        var isWhole = true
        var lookups = 0
        let phases = CGFloat(FontFace.subpixelPhases)
        let pixelsPerEm = CGFloat(size64) / 64
        for run in line.runs {
            // A colour face's glyphs are drawn as images (drawColorGlyphs); its boxes here.
            let isColor = run.face?.isColorBitmap == true
            // Where a pen may sit for its glyph to reach `reach`: the face's ink reach, or an
            // em right of the pen for a box placeholder, and two pixels of slack each side
            // for the sub-pixel phase and rounding.
            let perUnit = run.face.map { pixelsPerEm / $0.unitsPerEm } ?? 0
            let inkLeft = run.face.map { $0.inkReach.left * perUnit } ?? 0
            let inkRight = run.face.map { $0.inkReach.right * perUnit } ?? pixelsPerEm
            for glyph in run.glyphs where (run.face != nil && !isColor) || glyph.isPlaceholder {
                let penX = fraction.x + glyph.x * scale
                let left = glyph.isPlaceholder ? 0 : inkLeft, right = glyph.isPlaceholder ? pixelsPerEm : inkRight
                // Written so that an infinite or NaN reach places the glyph.
                if penX + right + 2 < reach.lowerBound || penX + left - 2 > reach.upperBound {
                    isWhole = false
                    continue
                }
                var whole = penX.rounded(.down)
                var phase = Int(((penX - whole) * phases).rounded())
                if phase == FontFace.subpixelPhases {
                    whole += 1
                    phase = 0
                }
                let face = glyph.isPlaceholder ? nil : run.face
                lookups += 1
                guard
                    let image = cache.glyph(
                        face: face, index: glyph.index, size64: size64, phase: glyph.isPlaceholder ? 0 : phase,
                        allPhases: line.isRevision)
                else { continue }
                let y = (fraction.y + glyph.y * scale + 0.5).rounded(.down)
                placed.append(GlyphCache.PlacedGlyph(x: Int32(whole), y: Int32(y), glyph: image))
            }
        }
        return (placed, isWhole, lookups)
    }

    /// Composites a line's mask (offsets relative to `origin`, whole device pixels) in
    /// `color` (times the global alpha): in the normal blend mode with no clip mask,
    /// straight into the bitmap (``paintCoverage(_:atX:y:color:)``); in another bounded
    /// mode, one pixman call; otherwise through a copy of the mask and the general
    /// compositing path (which intersects it with the clip mask; the cached mask stays
    /// untouched).
    private func compositeLineMask(_ mask: CoverageMask, at origin: (x: Int, y: Int), color: Color) {
        let x = origin.x + mask.x, y = origin.y + mask.y
        if state.clipMask == nil, state.blendMode == .normal {
            paintCoverage(mask, atX: x, y: y, color: color.packedPremultiplied(alphaScale: state.alpha))
            return
        }
        guard let solid = solidFills.image(of: color.pixmanColor(premultiplied: true, alphaScale: state.alpha)) else { return }
        if state.clipMask == nil, !GraphicsContext.isUnbounded(state.blendMode) {
            if redraw != nil { willPaint(filling: nil, opaquely: false, mode: state.blendMode) }
            applyClipRegion()
            pixman_image_composite32(
                state.blendMode.pixmanOperator, solid, mask.image, target, 0, 0, 0, 0, Int32(x), Int32(y),
                Int32(mask.width), Int32(mask.height))
            return
        }
        guard let copy = CoverageMask(x: x, y: y, width: mask.width, height: mask.height) else { return }
        pixman_image_composite32(
            PIXMAN_OP_SRC, mask.image, nil, copy.image, 0, 0, 0, 0, 0, 0, Int32(mask.width), Int32(mask.height))
        composite(solid, coverage: .mask(copy), alpha: 1, mode: state.blendMode)
    }

    /// Composites the premultiplied `color` (`0xAARRGGBB`) through `mask`, placed with its
    /// top left at device pixel (`x`, `y`), with OVER straight into the bitmap within the
    /// clip region (``SolidSpanPainter``, row by row): the pixels pixman's OVER of a solid
    /// image through an `a8` mask gives, without pixman's compositing set-up or the clip
    /// installed on its image. A field's changed text is drawn this way on every typed key.
    /// Only for the normal blend mode with no clip mask (the caller checks).
    func paintCoverage(_ mask: CoverageMask, atX x: Int, y: Int, color: UInt32) {
        assert(state.blendMode == .normal && state.clipMask == nil, "OVER through the clip region only")
        guard color != 0, clipBounds != nil else { return }  // a transparent colour paints nothing
        if redraw != nil { willPaint(filling: nil, opaquely: false, mode: .normal) }
        let bitmap = destination
        assert(bitmap.bytesPerRow % 4 == 0, "a 32-bit bitmap's rows are whole pixels")
        let box = GraphicsContext.intersect(
            pixman_box32_t(x1: Int32(x), y1: Int32(y), x2: Int32(x + mask.width), y2: Int32(y + mask.height)),
            pixman_box32_t(x1: 0, y1: 0, x2: Int32(bitmap.width), y2: Int32(bitmap.height)))
        guard box.x1 < box.x2, box.y1 < box.y2 else { return }
        var painter = SolidSpanPainter(
            origin: bitmap.bytes.assumingMemoryBound(to: UInt32.self), pixelsPerRow: bitmap.bytesPerRow / 4,
            color: color, sources: solidSources.products(of: color))
        let coverage = mask.bytes, coverageRow = mask.bytesPerRow
        state.clipRegion.forEachBox { clip in
            let part = GraphicsContext.intersect(box, clip)
            guard part.x1 < part.x2, part.y1 < part.y2 else { return }
            let column = Int(part.x1), count = Int(part.x2 - part.x1)
            for row in Int(part.y1)..<Int(part.y2) {
                let values = coverage + (row - y) * coverageRow + (column - x)
                painter.coverage(row: row, x: column, values: values, count: count)
            }
        }
    }

    private func drawGlyphOutlines(_ line: TextLine, at point: CGPoint, font: Font, color: Color) {
        var path = Path()
        FreeTypeLibrary.shared.withLock {
            for run in line.runs {
                for glyph in run.glyphs {
                    let x = point.x + glyph.x, y = point.y + glyph.y
                    if !glyph.isPlaceholder, let face = run.face, !face.isColorBitmap {
                        let unit = font.size / face.unitsPerEm
                        let toUser = CGAffineTransform(a: unit, b: 0, c: 0, d: -unit, tx: x, ty: y)
                        path.addPath(face.outline(of: glyph.index).applying(toUser))
                    } else if glyph.isPlaceholder {
                        let width = font.size * 0.5, height = font.size * 0.7
                        let thickness = max(font.size / 14, 0.5)
                        let box = CGRect(x: x + font.size * 0.05, y: y - height, width: width, height: height)
                        path.addRect(CGRect(x: box.minX, y: box.minY, width: width, height: thickness))
                        path.addRect(CGRect(x: box.minX, y: box.maxY - thickness, width: width, height: thickness))
                        path.addRect(CGRect(x: box.minX, y: box.minY, width: thickness, height: height))
                        path.addRect(CGRect(x: box.maxX - thickness, y: box.minY, width: thickness, height: height))
                    }
                }
            }
        }
        guard let mask = rasterize(devicePolygons(filling: path), rule: .winding) else { return }
        paintSolid(color, coverage: .mask(mask), mode: state.blendMode)
    }
}

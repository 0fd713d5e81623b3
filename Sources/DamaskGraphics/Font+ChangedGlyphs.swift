import Foundation

extension Font {
    /// The areas outside which drawing `new` paints exactly the pixels drawing `old`
    /// painted, at the same origin, in user units from the line's origin (baseline at
    /// y = 0, y down), for `scale` device pixels per unit; empty when both lines draw the
    /// same glyphs at the same places.
    ///
    /// Both strings are shaped as ``GraphicsContext/draw(_:at:font:color:)`` shapes them,
    /// and their glyphs are paired in drawing order: a glyph of one line whose face, index
    /// and position equal those of the next unpaired glyph of the other paints the same
    /// pixels, composited in the same order, so only the ink of the unpaired glyphs can
    /// change a pixel. Each area is such a glyph's outline bounds (control points included)
    /// plus a margin for hinting, sub-pixel rounding and antialiasing (half a device pixel
    /// across, one device pixel up and down); areas that touch are merged. Unlike
    /// ``changedSpan(from:to:)`` it works for any script (the comparison is of shaped
    /// glyphs, so ligatures, kerning and reordering show up as glyphs that differ) and
    /// keeps a shared middle that stays in place out of the damage.
    public func changedGlyphBounds(from old: String, to new: String, scale: CGFloat = 1) -> [CGRect] {
        guard old != new else { return [] }
        let scale = scale.isFinite && scale > 0 ? scale : 1
        let before = placedGlyphs(in: old, scale: scale), after = placedGlyphs(in: new, scale: scale)
        var boxes: [CGRect] = []
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if i < before.count, j < after.count, before[i].key == after[j].key {
                i += 1
                j += 1
            } else if j >= after.count || (i < before.count && before[i].key.x <= after[j].key.x) {
                boxes.append(before[i].ink)
                i += 1
            } else {
                boxes.append(after[j].ink)
                j += 1
            }
        }
        let dx = 0.5 / scale, dy = 1 / scale
        let padded = boxes.filter { !$0.isNull && !$0.isEmpty }.map { $0.insetBy(dx: -dx, dy: -dy) }
            .sorted { $0.minX < $1.minX }
        var merged: [CGRect] = []
        for box in padded {
            if let last = merged.last, box.minX <= last.maxX, box.minY <= last.maxY, box.maxY >= last.minY {
                merged[merged.count - 1] = last.union(box)
            } else {
                merged.append(box)
            }
        }
        return merged
    }

    /// One glyph of a shaped line: what decides its pixels, and its ink.
    private struct PlacedGlyph {
        struct Key: Equatable {
            var face: ObjectIdentifier?
            var index: UInt32
            var x: CGFloat
            var y: CGFloat
            var isPlaceholder: Bool
        }
        var key: Key
        /// The outline's bounds in user units (`.null` for blank glyphs).
        var ink: CGRect
    }

    /// The glyphs of `string`'s line in drawing order, with their ink bounds.
    private func placedGlyphs(in string: String, scale: CGFloat) -> [PlacedGlyph] {
        guard !string.isEmpty else { return [] }
        let line = line(for: string)
        let size = self.size
        return FreeTypeLibrary.shared.withLock {
            var glyphs: [PlacedGlyph] = []
            glyphs.reserveCapacity(line.glyphCount)
            for run in line.runs {
                for glyph in run.glyphs {
                    let key = PlacedGlyph.Key(
                        face: run.face.map(ObjectIdentifier.init), index: glyph.index, x: glyph.x, y: glyph.y,
                        isPlaceholder: glyph.isPlaceholder)
                    var ink = CGRect.null
                    if !glyph.isPlaceholder, let face = run.face {
                        let bounds = face.isColorBitmap
                            ? face.colorBounds(of: glyph.index) : face.outline(of: glyph.index).boundingBox
                        if !bounds.isNull, !bounds.isEmpty {
                            let unit = size / face.unitsPerEm
                            ink = CGRect(
                                x: glyph.x + bounds.minX * unit, y: glyph.y - bounds.maxY * unit,
                                width: bounds.width * unit, height: bounds.height * unit)
                            // A colour image is placed at whole device pixels and its scaled
                            // size rounded up: up to 1.5 device pixels beyond its bounds.
                            if face.isColorBitmap { ink = ink.insetBy(dx: -1.5 / scale, dy: -1.5 / scale) }
                        }
                    } else if glyph.isPlaceholder || run.face == nil {
                        // The box placeholder: 0.05…0.55 em across and 0.7 em up from the
                        // baseline, but at least 4 by 4 device pixels from the pen.
                        let width = max(size, 5 / scale), height = max(size, 5 / scale)
                        ink = CGRect(x: glyph.x, y: glyph.y - height, width: width, height: height + 1)
                    }
                    glyphs.append(PlacedGlyph(key: key, ink: ink))
                }
            }
            return glyphs
        }
    }
}

import CPixman

extension GraphicsContext {
    /// Fills device box `area` (within the clip region) with the opaque `color`, for the
    /// blend modes that leave an opaque source's pixel as it is (normal and copy), by
    /// writing the colour's pixel into each clip rectangle the box reaches (`pixman_fill`);
    /// returns false, having done nothing, when it cannot (a translucent colour, another
    /// mode, a clip mask), and the caller composites.
    ///
    /// The pixels are those compositing a solid image over the box gives (pixman turns an
    /// opaque source's OVER into SRC and fills with the colour's 8-bit pixel, below); the
    /// solid image, pixman's compositing set-up and the clip installed on the target
    /// image are skipped: a field's background and its caret are filled this way on every
    /// typed key (docs/performance.md, "A key's time phase by phase").
    func fillOpaqueBox(_ area: pixman_box32_t, color: pixman_color_t, mode: BlendMode) -> Bool {
        guard color.alpha == 0xFFFF, mode == .normal || mode == .copy, state.clipMask == nil else { return false }
        guard clipBounds != nil else { return true }  // nothing is painted, as composite() paints nothing
        if redraw != nil { willPaint(filling: area, opaquely: true, mode: mode) }
        let bitmap = destination
        let box = GraphicsContext.intersect(
            area, pixman_box32_t(x1: 0, y1: 0, x2: Int32(bitmap.width), y2: Int32(bitmap.height)))
        guard box.x1 < box.x2, box.y1 < box.y2 else { return true }
        let pixel = Color.packed(color)  // both of PixelFormat's formats are 32-bit ARGB
        let words = bitmap.bytes.assumingMemoryBound(to: UInt32.self)
        let stride = Int32(bitmap.bytesPerRow / 4)
        assert(bitmap.bytesPerRow % 4 == 0, "a 32-bit bitmap's rows are whole pixels")
        state.clipRegion.forEachBox { clip in
            fill(GraphicsContext.intersect(box, clip), with: pixel, into: words, stride: stride)
        }
        return true
    }

    /// Writes `pixel` into every pixel of `box` (nothing when it is empty).
    private func fill(_ box: pixman_box32_t, with pixel: UInt32, into words: UnsafeMutablePointer<UInt32>, stride: Int32) {
        guard box.x1 < box.x2, box.y1 < box.y2 else { return }
        let filled = pixman_fill(words, stride, 32, box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1, pixel)
        assert(filled != 0, "pixman fills 32-bit pixels")
    }
}

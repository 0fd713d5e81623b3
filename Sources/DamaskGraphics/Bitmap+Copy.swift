import CPixman
import Foundation

extension Bitmap {
    /// Copies pixels of `source`, placed with its top-left pixel at `origin` in this
    /// bitmap, into every pixel of `region` (this bitmap's pixels) that the placed source
    /// covers, replacing what was there (SRC: no blending).
    ///
    /// Rows of a box spanning the whole width of two unpadded bitmaps of one format are
    /// contiguous and copied as one block (one `memcpy`, which streams large copies past
    /// the caches); other boxes row by row. Pixels outside either bitmap are left alone.
    public func copyPixels(from source: Bitmap, placedAt origin: (x: Int, y: Int), in region: Region) {
        let placed = CGRect(x: origin.x, y: origin.y, width: source.width, height: source.height)
        let inside = placed.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !inside.isNull, !inside.isEmpty else { return }
        if region.isWithin(inside) {
            // The common case (a repaint inside both bitmaps): the boxes are read in place,
            // with no intermediate region or array.
            region.forEachBox { copyBox($0, from: source, placedAt: origin) }
        } else {
            region.intersection(Region(inside)).forEachBox { copyBox($0, from: source, placedAt: origin) }
        }
    }

    /// Copies one box (inside both bitmaps) of `source` placed at `origin`.
    private func copyBox(_ box: pixman_box32_t, from source: Bitmap, placedAt origin: (x: Int, y: Int)) {
        let x = Int(box.x1), y = Int(box.y1), w = Int(box.x2 - box.x1), h = Int(box.y2 - box.y1)
        guard w > 0, h > 0 else { return }
        guard source.format == format else {
            pixman_image_composite32(
                PIXMAN_OP_SRC, source.image, nil, image, Int32(x - origin.x), Int32(y - origin.y),
                0, 0, Int32(x), Int32(y), Int32(w), Int32(h))
            return
        }
        let sourceX = x - origin.x, sourceY = y - origin.y
        let target = bytes + y * bytesPerRow + x * 4
        let from = UnsafeRawPointer(source.bytes) + sourceY * source.bytesPerRow + sourceX * 4
        if w == width, w == source.width, bytesPerRow == width * 4, source.bytesPerRow == bytesPerRow {
            target.copyMemory(from: from, byteCount: h * bytesPerRow)
        } else {
            for row in 0..<h {
                (target + row * bytesPerRow).copyMemory(from: from + row * source.bytesPerRow, byteCount: w * 4)
            }
        }
    }
}

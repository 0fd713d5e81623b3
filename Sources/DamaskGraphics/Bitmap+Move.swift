import Foundation

extension Bitmap {
    /// Moves every pixel by `dx` columns and `dy` rows inside this bitmap, as a scroll does:
    /// the pixel at (x, y) ends up at (x + dx, y + dy); pixels moved past an edge are lost,
    /// and the strip the move uncovers keeps its old pixels (the caller redraws it).
    ///
    /// Overlap is handled: rows are visited away from the direction of the move, and a
    /// vertical move over unpadded rows is one `memmove` of the whole block. A move of at
    /// least the width or height changes nothing (nothing stays visible).
    public func movePixels(dx: Int, dy: Int) {
        movePixels(dx: dx, dy: dy, insideColumns: 0..<width, rows: 0..<height)
    }

    /// Moves the pixels of the area `columns` × `rows` by `dx` columns and `dy` rows inside
    /// that area, as ``movePixels(dx:dy:)`` moves the whole bitmap: pixels moved past the
    /// area's edges are lost, the strip of the area the move uncovers keeps its old pixels,
    /// and no pixel outside the area is read or written. The area is clamped to the bitmap;
    /// a move of at least its width or height changes nothing.
    public func movePixels(dx: Int, dy: Int, insideColumns columns: Range<Int>, rows: Range<Int>) {
        let columns = columns.clamped(to: 0..<width), rows = rows.clamped(to: 0..<height)
        guard dx != 0 || dy != 0, abs(dx) < columns.count, abs(dy) < rows.count else { return }
        let movedRows = rows.count - abs(dy)
        let movedColumns = columns.count - abs(dx)
        let sourceY = rows.lowerBound + max(-dy, 0), targetY = rows.lowerBound + max(dy, 0)
        let sourceX = columns.lowerBound + max(-dx, 0), targetX = columns.lowerBound + max(dx, 0)
        assert(sourceX + movedColumns <= width && targetX + movedColumns <= width, "a moved row stays in the bitmap")
        assert(sourceY + movedRows <= height && targetY + movedRows <= height, "the moved rows stay in the bitmap")
        let base = bytes
        if dx == 0, columns.count == width, bytesPerRow == width * 4 {
            (base + targetY * bytesPerRow).copyMemory(
                from: base + sourceY * bytesPerRow, byteCount: movedRows * bytesPerRow)  // memmove
            return
        }
        // Moving down: the bottom row first, so that no row is overwritten before it moved.
        let order: StrideTo<Int> =
            dy > 0 ? stride(from: movedRows - 1, to: -1, by: -1) : stride(from: 0, to: movedRows, by: 1)
        for row in order {
            let from = base + (sourceY + row) * bytesPerRow + sourceX * 4
            let to = base + (targetY + row) * bytesPerRow + targetX * 4
            to.copyMemory(from: UnsafeRawPointer(from), byteCount: movedColumns * 4)  // memmove within a row
        }
    }
}

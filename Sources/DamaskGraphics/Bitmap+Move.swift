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
        guard dx != 0 || dy != 0, abs(dx) < width, abs(dy) < height else { return }
        let rows = height - abs(dy)
        let columns = width - abs(dx)
        let sourceY = dy >= 0 ? 0 : -dy, targetY = dy >= 0 ? dy : 0
        let sourceX = dx >= 0 ? 0 : -dx, targetX = dx >= 0 ? dx : 0
        let base = bytes
        if dx == 0, bytesPerRow == width * 4 {
            (base + targetY * bytesPerRow).copyMemory(
                from: base + sourceY * bytesPerRow, byteCount: rows * bytesPerRow)  // memmove
            return
        }
        // Moving down: the bottom row first, so that no row is overwritten before it moved.
        let order: StrideTo<Int> = dy > 0 ? stride(from: rows - 1, to: -1, by: -1) : stride(from: 0, to: rows, by: 1)
        for row in order {
            let from = base + (sourceY + row) * bytesPerRow + sourceX * 4
            let to = base + (targetY + row) * bytesPerRow + targetX * 4
            to.copyMemory(from: UnsafeRawPointer(from), byteCount: columns * 4)  // memmove within a row
        }
    }
}

import DamaskGraphics
import Foundation

extension Layer {
    /// Moves the drawn contents by `dx`, `dy` points inside the backing store, as a scroll
    /// does, and marks only the strip the move uncovers for redrawing.
    ///
    /// The pixel at (x, y) moves to (x + dx, y + dy): scrolling content up by 10 points is
    /// `scrollContents(dx: 0, dy: -10)`. The pixels that stay visible are not drawn again;
    /// the next display pass calls `draw` for the uncovered strip only, and the frame's
    /// damage is the whole layer (every pixel on screen changed). An area already marked
    /// for redrawing moves with the contents (as its bounding box).
    ///
    /// The whole layer is marked for redrawing instead when there is nothing to move: no
    /// backing store yet (or contents set directly), a tiled backing store, a store drawn
    /// for other bounds, a move that is not a whole number of backing-store pixels, or one
    /// at least as large as the layer.
    public func scrollContents(dx: CGFloat, dy: CGFloat) {
        guard dx != 0 || dy != 0 else { return }
        if !moveContents(in: bounds, dx: dx, dy: dy) { setNeedsDisplay() }
    }

    /// Moves the drawn contents inside `rect` (layer coordinates) by `dx`, `dy` points, as
    /// AppKit's `scrollRect(_:by:)` does, and marks only the strip of `rect` the move
    /// uncovers for redrawing; nothing outside `rect` changes.
    ///
    /// For a view that scrolls part of what it draws (a text field's text inside its border
    /// and padding): pixels moved past the edges of `rect` are dropped, the frame's damage is
    /// `rect`, and an area already marked for redrawing moves with the contents where it lies
    /// inside `rect` (the part outside stays marked). When the move cannot be made (the
    /// cases of ``scrollContents(dx:dy:)``, or edges of `rect` that are not whole
    /// backing-store pixels), `rect` alone is marked for redrawing.
    public func scrollContents(in rect: CGRect, dx: CGFloat, dy: CGFloat) {
        guard dx != 0 || dy != 0 else { return }
        let area = rect.standardized.intersection(bounds)
        guard !area.isNull, !area.isEmpty else { return }
        if !moveContents(in: area, dx: dx, dy: dy) { setNeedsDisplay(area) }
    }

    /// Moves the store's pixels inside `area` (inside the bounds) and the marks there, marks
    /// the uncovered strips and tells the host; `false` (nothing done) when it cannot.
    private func moveContents(in area: CGRect, dx: CGFloat, dy: CGFloat) -> Bool {
        let scale = contentsScale > 0 ? contentsScale : 1
        let pixelDX = dx * scale, pixelDY = dy * scale
        guard let backing, let store = backing.bitmap, showsBackingStore(store), backing.tiled == nil,
            backing.pointSize == bounds.size, pixelDX == pixelDX.rounded(), pixelDY == pixelDY.rounded()
        else { return false }
        // The area in store pixels: the whole store for the bounds, else edges on whole pixels.
        let columns: Range<Int>, rows: Range<Int>
        if area == bounds {
            columns = 0..<store.width
            rows = 0..<store.height
        } else {
            // No `map`/`allSatisfy`: a text field scrolls per key (CONTRIBUTING.md, closures
            // on hot paths).
            let left = (area.minX - bounds.minX) * scale, right = (area.maxX - bounds.minX) * scale
            let top = (area.minY - bounds.minY) * scale, bottom = (area.maxY - bounds.minY) * scale
            guard left == left.rounded(), right == right.rounded(), top == top.rounded(), bottom == bottom.rounded()
            else { return false }
            columns = Int(left)..<Int(right)
            rows = Int(top)..<Int(bottom)
        }
        guard abs(pixelDX) < CGFloat(columns.count), abs(pixelDY) < CGFloat(rows.count) else { return false }
        store.movePixels(dx: Int(pixelDX), dy: Int(pixelDY), insideColumns: columns, rows: rows)
        if !dirtyRect.isNull, dirtyRect != .infinite {
            let inside = dirtyRect.intersection(area)
            if !inside.isNull, !inside.isEmpty {
                let moved = inside.offsetBy(dx: dx, dy: dy).intersection(area)
                if area.contains(dirtyRect) {
                    dirtyRect = moved.isNull || moved.isEmpty ? .null : moved
                } else if !moved.isNull, !moved.isEmpty {
                    dirtyRect = dirtyRect.union(moved)  // what lies outside the area stays marked
                }
            }
        }
        var exposed: [CGRect] = []
        if dy > 0 {
            exposed.append(CGRect(x: area.minX, y: area.minY, width: area.width, height: dy))
        } else if dy < 0 {
            exposed.append(CGRect(x: area.minX, y: area.maxY + dy, width: area.width, height: -dy))
        }
        if dx > 0 {
            exposed.append(CGRect(x: area.minX, y: area.minY, width: dx, height: area.height))
        } else if dx < 0 {
            exposed.append(CGRect(x: area.maxX + dx, y: area.minY, width: -dx, height: area.height))
        }
        for strip in exposed { setNeedsDisplay(strip) }
        contentsScrollCount += 1
        host?.layerDidMoveContents(self, in: area)
        return true
    }
}

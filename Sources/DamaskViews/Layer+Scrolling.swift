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
        let scale = contentsScale > 0 ? contentsScale : 1
        let pixelDX = dx * scale, pixelDY = dy * scale
        guard let backing, let store = backing.bitmap, showsBackingStore(store), backing.tiled == nil,
            backing.pointSize == bounds.size,
            pixelDX == pixelDX.rounded(), pixelDY == pixelDY.rounded(),
            abs(pixelDX) < CGFloat(store.width), abs(pixelDY) < CGFloat(store.height)
        else {
            setNeedsDisplay()
            return
        }
        store.movePixels(dx: Int(pixelDX), dy: Int(pixelDY))
        if !dirtyRect.isNull, dirtyRect != .infinite {
            let moved = dirtyRect.offsetBy(dx: dx, dy: dy).intersection(bounds)
            dirtyRect = moved.isEmpty ? .null : moved
        }
        var exposed: [CGRect] = []
        if dy > 0 {
            exposed.append(CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: dy))
        } else if dy < 0 {
            exposed.append(CGRect(x: bounds.minX, y: bounds.maxY + dy, width: bounds.width, height: -dy))
        }
        if dx > 0 {
            exposed.append(CGRect(x: bounds.minX, y: bounds.minY, width: dx, height: bounds.height))
        } else if dx < 0 {
            exposed.append(CGRect(x: bounds.maxX + dx, y: bounds.minY, width: -dx, height: bounds.height))
        }
        for strip in exposed { setNeedsDisplay(strip) }
        contentsScrollCount += 1
        host?.layerDidMoveContents(self, in: bounds)
    }
}

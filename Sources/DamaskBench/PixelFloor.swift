import DamaskGraphics
import Foundation

/// The memory work a 64×64 change in a window must do whatever the toolkit, measured alone,
/// at the rect positions the `64x64 change` scenario uses.
///
/// Two ways of doing it: with a retained backing store (``Layout/backingStore``, Damask's
/// model): fill the 64×64 rect of a window-sized store, copy it into the back buffer, and copy
/// forward from the front buffer the 64×64 rect the back buffer missed (the previous frame's
/// change); and without one (``Layout/bufferOnly``, a toolkit that draws straight into the
/// buffer): fill the rect in the back buffer, then copy forward the missed rect.
///
/// No views, no damage, no regions: plain loops over the rows of window-sized bitmaps
/// allocated as the toolkit allocates them. Paired with a full repaint of another window
/// (which evicts the caches and the TLB), it is the floor under the cold `64x64 change`
/// figure. Main-actor isolated (it runs between the suite's frames); owns its bitmaps.
@MainActor final class PixelFloor {
    /// Where the changed pixels are drawn before they reach the buffer.
    enum Layout {
        /// Into a window-sized backing store, then copied into the back buffer.
        case backingStore
        /// Straight into the back buffer.
        case bufferOnly
    }

    private let store: Bitmap?
    private var back: Bitmap
    private var front: Bitmap
    private let tileColumns: Int
    private let tileRows: Int

    /// Allocates the `width`×`height` bitmaps `layout` needs (three, or two without a store),
    /// each touched once so none of the measured time is a first-touch page fault; `nil` when
    /// they cannot be allocated.
    init?(width: Int, height: Int, layout: Layout) {
        guard let back = try? Bitmap(width: width, height: height),
            let front = try? Bitmap(width: width, height: height)
        else { return nil }
        var store: Bitmap?
        if layout == .backingStore {
            guard let bitmap = try? Bitmap(width: width, height: height) else { return nil }
            store = bitmap
        }
        for bitmap in [store, back, front].compactMap({ $0 }) { memset(bitmap.bytes, 0x5a, bitmap.byteCount) }
        self.store = store
        self.back = back
        self.front = front
        tileColumns = max(1, width / 64)
        tileRows = max(1, (height - 40) / 64)
    }

    /// Does frame `index`'s pixel work and returns its thread CPU time in milliseconds.
    func frame(_ index: Int) -> Double {
        let (x, y) = origin(ofTile: index * 7 + 3)
        let (missedX, missedY) = origin(ofTile: (index - 1) * 7 + 3)
        let color = UInt32(0xff00_0000) | UInt32(truncatingIfNeeded: index &* 0x10203)
        let start = BenchClock.threadCPU()
        let canvas = store ?? back
        for row in 0..<64 {
            (canvas.bytes + (y + row) * canvas.bytesPerRow + x * 4)
                .initializeMemory(as: UInt32.self, repeating: color, count: 64)
        }
        if let store {
            for row in 0..<64 {
                (back.bytes + (y + row) * back.bytesPerRow + x * 4)
                    .copyMemory(from: store.bytes + (y + row) * store.bytesPerRow + x * 4, byteCount: 256)
            }
        }
        for row in 0..<64 {
            let offset = (missedY + row) * back.bytesPerRow + missedX * 4
            (back.bytes + offset).copyMemory(from: front.bytes + offset, byteCount: 256)
        }
        let elapsed = Double(BenchClock.threadCPU() - start) / 1e6
        swap(&back, &front)
        return elapsed
    }

    /// The top-left pixel of tile `index` (row-major, wrapping), below a 40-pixel toolbar.
    private func origin(ofTile index: Int) -> (x: Int, y: Int) {
        let tile = ((index % (tileColumns * tileRows)) + tileColumns * tileRows) % (tileColumns * tileRows)
        return ((tile % tileColumns) * 64, 40 + (tile / tileColumns) * 64)
    }
}

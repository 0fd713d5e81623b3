import CPixman
import DamaskGraphics
import Foundation

/// The least a correct retained-mode `wl_shm` client must do for the `64x64 change`
/// scenario's frame, written as a C program would write it: no view tree, no objects
/// per frame, no Swift runtime calls in the frame, only pixman and plain structs.
///
/// Per frame, at the rect positions the scenario uses: note the changed rect; draw it into
/// the window-sized backing store (one `pixman_image_fill_rectangles`); add it to the
/// frame's damage region; take the buffer the compositor released (the one not presented
/// last); copy forward from the front buffer what that buffer missed outside the damage
/// (`pixman_region32_subtract`, one `pixman_image_composite32` per box); composite the store
/// into the buffer inside the damage (one `pixman_image_composite32` per box); hand the
/// buffer off with the damage's boxes (copied into a fixed array, as a client copies them
/// into `wl_surface.damage_buffer` requests); record the damage as missed by every other
/// buffer; swap. That is ``PixelFloor``'s pixel work (``PixelFloor/Layout/backingStore``)
/// plus the library code and bookkeeping any such client runs, and which a cold frame finds
/// cold too: pixman's fill, composite and region code, and the client's few structs.
///
/// Paired with a full repaint of another window, it is the *fair cold floor* under the cold
/// `64x64 change` figure: what remains between it and Damask's pass is the toolkit's own
/// code and objects. Main-actor isolated (it runs between the suite's frames). Owns its
/// bitmaps and its pixman regions (initialised in `init`, finalised in `deinit`; the
/// pointers never escape).
@MainActor final class MinimalClientFloor {
    /// One buffer of the client's two: pixels and what it missed since it was last drawn.
    private struct Buffer {
        /// The pixels (owned by the bitmap).
        let bitmap: Bitmap
        /// The pixels not up to date with the last presented frame; owned by the floor.
        let missed: UnsafeMutablePointer<pixman_region32_t>
    }

    /// The window-sized backing store the client draws into.
    private let store: Bitmap
    /// The buffer drawn into next (released by the compositor).
    private var back: Buffer
    /// The buffer presented last (the compositor holds it).
    private var front: Buffer
    /// The damage of the frame being made; owned by the floor.
    private let damage: UnsafeMutablePointer<pixman_region32_t>
    /// What the back buffer missed outside the damage: copied forward; owned by the floor.
    private let copyForward: UnsafeMutablePointer<pixman_region32_t>
    /// The boxes handed off with the last buffer (a client's `damage_buffer` arguments).
    private var sentBoxes = [pixman_box32_t](repeating: pixman_box32_t(), count: 16)
    /// How many of ``sentBoxes`` the last hand-off used.
    private(set) var sentBoxCount = 0
    private let tileColumns: Int
    private let tileRows: Int

    /// Allocates the store and two buffers of `width`×`height` pixels (each touched once, so
    /// no measured frame pays a first-touch page fault) and the regions; `nil` when the
    /// bitmaps cannot be allocated.
    init?(width: Int, height: Int) {
        guard let store = try? Bitmap(width: width, height: height),
            let first = try? Bitmap(width: width, height: height),
            let second = try? Bitmap(width: width, height: height)
        else { return nil }
        for bitmap in [store, first, second] { memset(bitmap.bytes, 0x5a, bitmap.byteCount) }
        func region() -> UnsafeMutablePointer<pixman_region32_t> {
            let region = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)
            pixman_region32_init(region)
            return region
        }
        self.store = store
        back = Buffer(bitmap: first, missed: region())
        front = Buffer(bitmap: second, missed: region())
        damage = region()
        copyForward = region()
        tileColumns = max(1, width / 64)
        tileRows = max(1, (height - 40) / 64)
    }

    isolated deinit {
        for region in [back.missed, front.missed, damage, copyForward] {
            pixman_region32_fini(region)
            region.deallocate()
        }
    }

    /// Does frame `index`'s work and returns its thread CPU time in milliseconds.
    func frame(_ index: Int) -> Double {
        let (x, y) = origin(ofTile: index * 7 + 3)
        let start = BenchClock.threadCPU()
        // The change: the rect to redraw, and the draw itself.
        var rect = pixman_rectangle16_t(x: Int16(x), y: Int16(y), width: 64, height: 64)
        var color = pixman_color_t(
            red: UInt16(truncatingIfNeeded: index &* 0x1357), green: 0xf000, blue: 0x8000, alpha: 0xffff)
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, store.image, &color, 1, &rect)
        pixman_region32_union_rect(damage, damage, Int32(x), Int32(y), 64, 64)
        // The released buffer: copy forward what it missed, then composite the damage.
        pixman_region32_subtract(copyForward, back.missed, damage)
        forEachBox(of: copyForward) { box in
            pixman_image_composite32(
                PIXMAN_OP_SRC, front.bitmap.image, nil, back.bitmap.image, box.x1, box.y1, 0, 0, box.x1, box.y1,
                box.x2 - box.x1, box.y2 - box.y1)
        }
        forEachBox(of: damage) { box in
            pixman_image_composite32(
                PIXMAN_OP_SRC, store.image, nil, back.bitmap.image, box.x1, box.y1, 0, 0, box.x1, box.y1,
                box.x2 - box.x1, box.y2 - box.y1)
        }
        // The hand-off: the damage's boxes go out with the buffer; the other buffer missed them.
        var count: Int32 = 0
        let boxes = pixman_region32_rectangles(damage, &count)
        sentBoxCount = min(Int(count), sentBoxes.count)
        for index in 0..<sentBoxCount { sentBoxes[index] = boxes![index] }
        pixman_region32_union(front.missed, front.missed, damage)
        pixman_region32_clear(back.missed)
        pixman_region32_clear(damage)
        swap(&back, &front)
        return Double(BenchClock.threadCPU() - start) / 1e6
    }

    /// Calls `body` with each box of `region`, read in place.
    private func forEachBox(of region: UnsafeMutablePointer<pixman_region32_t>, _ body: (pixman_box32_t) -> Void) {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count) else { return }
        for index in 0..<Int(count) { body(boxes[index]) }
    }

    /// The top-left pixel of tile `index` (row-major, wrapping), below a 40-pixel toolbar,
    /// as ``PixelFloor`` and the scenario place it.
    private func origin(ofTile index: Int) -> (x: Int, y: Int) {
        let tiles = tileColumns * tileRows
        let tile = ((index % tiles) + tiles) % tiles
        return ((tile % tileColumns) * 64, 40 + (tile / tileColumns) * 64)
    }
}

/// The 256 products of one premultiplied colour with every coverage (`colour·m/255` per
/// channel, rounded as pixman rounds), which ``SolidSpanPainter`` reads instead of
/// multiplying per pixel.
///
/// Owns `entries` (256 values, allocated in `init`, freed in `deinit`). A
/// ``GraphicsContext`` keeps one and refills it only when the colour changes, so a draw
/// in the same colour as the last costs nothing here. Not thread-safe: it belongs to its
/// context, which is used from one thread at a time.
final class SolidSourceTable {
    /// The colour the entries hold, as `0xAARRGGBB` premultiplied.
    private(set) var color: UInt32
    /// The products, at index `m` the colour times `m` / 255; owned.
    private let entries: UnsafeMutablePointer<UInt32>

    /// A table for transparent black (every entry 0).
    init() {
        color = 0
        entries = .allocate(capacity: 256)
        entries.initialize(repeating: 0, count: 256)
    }

    deinit {
        entries.deallocate()
    }

    /// The products for `color`, refilled if the table held another colour. The pointer
    /// stays valid, and its values unchanged, until the next call with another colour or
    /// the table's end.
    func products(of color: UInt32) -> UnsafePointer<UInt32> {
        if color != self.color {
            for m in 0..<256 {
                entries[m] = SolidSpanPainter.multiply(color, by: UInt32(m))
            }
            self.color = color
        }
        return UnsafePointer(entries)
    }
}

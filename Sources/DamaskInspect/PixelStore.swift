import Glibc

/// Reusable storage for a buffer's pixels as the inspector last read them: `height` rows of
/// `rowBytes` bytes, packed (no stride padding).
///
/// The tracker keeps one per `wl_buffer` (its content at its last commit, which is also the
/// content a surface showing that buffer is compared against) and rewrites it in place at the
/// buffer's next commit, row by row, only where a row changed — so a commit costs no
/// allocation and no full copy. Owns `base` (allocated in `init`, freed in `deinit`).
/// Not thread-safe: owned by one connection's `DamageTracker`.
final class PixelStore {
    let width: Int
    let height: Int
    let format: BufferFormat
    let rowBytes: Int
    /// The pixels; owned by the store.
    private let base: UnsafeMutableRawPointer
    /// How many surfaces show this content (their `TrackedSurface.content` is this store).
    /// The store may only be rewritten for a new commit while no other surface shows it.
    var shownBy = 0

    /// Storage for `width`×`height` pixels of `format` (whose size per pixel is known).
    /// Its bytes are zero until written.
    init(width: Int, height: Int, format: BufferFormat) {
        let bpp = format.bytesPerPixel ?? 4
        (self.width, self.height, self.format, rowBytes) = (width, height, format, width * bpp)
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, rowBytes * height), alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, rowBytes * height))
    }

    deinit { base.deallocate() }

    /// Whether the store holds pixels of this size and format.
    func fits(width: Int, height: Int, format: BufferFormat) -> Bool {
        self.width == width && self.height == height && self.format == format
    }

    /// Row `y` (0 ≤ y < height); valid while the store lives.
    func row(_ y: Int) -> UnsafeMutableRawPointer { base + y * rowBytes }

    /// An immutable copy, for evidence images.
    func snapshot() -> ContentSnapshot {
        let bytes = [UInt8](UnsafeRawBufferPointer(start: base, count: rowBytes * height))
        return ContentSnapshot(width: width, height: height, format: format, bytes: bytes)
    }
}

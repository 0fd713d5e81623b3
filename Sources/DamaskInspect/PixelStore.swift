import Glibc

/// Reusable storage for a buffer's pixels as the inspector last read them: `height` rows of
/// `rowBytes` bytes, each starting on a 64-byte boundary (`stride` apart), so the row scan
/// (`CDamaskInspectScan`) writes whole cache lines with non-temporal stores.
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
    /// Bytes from one row to the next: `rowBytes` rounded up to a multiple of 64.
    let stride: Int
    /// The pixels; owned by the store.
    private let base: UnsafeMutableRawPointer
    /// How many surfaces show this content (their `TrackedSurface.content` is this store).
    /// The store may only be rewritten for a new commit while no other surface shows it.
    var shownBy = 0
    /// Counts rewrites: bumped each time the store's rows are rewritten for a new commit.
    private(set) var generation = 0
    /// What the store was compared with when it was last written: the surface's previous
    /// content (`basis`, at `basisGeneration`) and, per row, whether the row was byte-equal
    /// to it. Lets the next commit of the other buffer skip rows it knows are unchanged
    /// (``wasCompared(with:)``).
    private weak var basis: PixelStore?
    private var basisGeneration = -1
    private var rowsEqualToBasis: [Bool] = []

    /// Storage for `width`×`height` pixels of `format` (whose size per pixel is known).
    /// Its bytes are zero until written.
    init(width: Int, height: Int, format: BufferFormat) {
        let bpp = format.bytesPerPixel ?? 4
        (self.width, self.height, self.format, rowBytes) = (width, height, format, width * bpp)
        stride = (rowBytes + 63) & ~63
        base = UnsafeMutableRawPointer.allocate(byteCount: max(64, stride * height), alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(64, stride * height))
    }

    deinit { base.deallocate() }

    /// Whether the store holds pixels of this size and format.
    func fits(width: Int, height: Int, format: BufferFormat) -> Bool {
        self.width == width && self.height == height && self.format == format
    }

    /// Row `y` (0 ≤ y < height): `rowBytes` bytes, 64-byte aligned; valid while the store lives.
    func row(_ y: Int) -> UnsafeMutableRawPointer { base + y * stride }

    /// Starts rewriting the store for a new commit compared with `basis` (nil: not compared).
    func beginRewrite(basis: PixelStore?) {
        generation += 1
        self.basis = basis
        basisGeneration = basis?.generation ?? -1
        if rowsEqualToBasis.count != height { rowsEqualToBasis = [Bool](repeating: false, count: height) }
    }

    /// Records whether row `y`, as just written, is byte-equal to the basis's row `y`.
    func setRow(_ y: Int, equalToBasis equal: Bool) { rowsEqualToBasis[y] = equal }

    /// Whether this store was last written compared with `other`, and `other` has not been
    /// rewritten since: then ``rowWasEqualToBasis(_:)`` says which rows of the two are equal.
    func wasCompared(with other: PixelStore) -> Bool {
        basis === other && basisGeneration == other.generation
    }

    /// Whether row `y` was byte-equal to the basis's row when this store was written.
    func rowWasEqualToBasis(_ y: Int) -> Bool { rowsEqualToBasis[y] }

    /// An immutable copy, for evidence images.
    func snapshot() -> ContentSnapshot {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowBytes * height)
        for y in 0..<height { bytes.append(contentsOf: UnsafeRawBufferPointer(start: row(y), count: rowBytes)) }
        return ContentSnapshot(width: width, height: height, format: format, bytes: bytes)
    }
}

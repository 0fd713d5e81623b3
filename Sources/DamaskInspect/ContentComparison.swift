import Glibc

/// What changed between two committed contents of a surface, measured against the damage
/// the client declared for the second one.
public struct ContentComparison: Sendable, Equatable {
    /// Pixels whose visible value differs.
    public var changedPixels = 0
    /// The bounding box of the changed pixels (empty when none changed).
    public var changedBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Changed pixels outside the damage: a compositor that honours damage never shows them.
    public var underDamagePixels = 0
    /// The bounding box of the under-damaged pixels.
    public var underDamageBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public init() {}

    /// Compares `current` with `previous` (same size and format) pixel by pixel against
    /// `damage`. Rows whose bytes are identical are skipped with one `memcmp`; only rows that
    /// differ are scanned per pixel, so an unchanged frame costs one pass over memory.
    ///
    /// If `underDamage` is given it receives every under-damaged pixel (for evidence images).
    public init(previous: ContentSnapshot, current: ContentSnapshot, damage: DamageRegion, underDamage: ((Int, Int) -> Void)? = nil) {
        precondition(previous.isComparable(with: current), "compare snapshots of one size and format")
        let rowBytes = current.rowBytes
        let bpp = current.bytesPerPixel
        let mask = current.format.visibleMask
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var uMinX = Int.max, uMinY = Int.max, uMaxX = -1, uMaxY = -1
        previous.bytes.withUnsafeBytes { old in
            current.bytes.withUnsafeBytes { new in
                guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
                for y in 0..<current.height {
                    let rowOffset = y * rowBytes
                    if memcmp(oldBase + rowOffset, newBase + rowOffset, rowBytes) == 0 { continue }
                    let spans = damage.spans(inRow: y)
                    var spanIndex = 0
                    for x in 0..<current.width {
                        let offset = rowOffset + x * bpp
                        let differs: Bool
                        if bpp == 4 {
                            let a = old.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                            let b = new.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                            differs = (a ^ b) & mask != 0
                        } else {
                            differs = memcmp(oldBase + offset, newBase + offset, bpp) != 0
                        }
                        guard differs else { continue }
                        changedPixels += 1
                        minX = Swift.min(minX, x); maxX = Swift.max(maxX, x)
                        minY = Swift.min(minY, y); maxY = Swift.max(maxY, y)
                        while spanIndex < spans.count && spans[spanIndex].upperBound <= x { spanIndex += 1 }
                        let damaged = spanIndex < spans.count && spans[spanIndex].contains(x)
                        if !damaged {
                            underDamagePixels += 1
                            uMinX = Swift.min(uMinX, x); uMaxX = Swift.max(uMaxX, x)
                            uMinY = Swift.min(uMinY, y); uMaxY = Swift.max(uMaxY, y)
                            underDamage?(x, y)
                        }
                    }
                }
            }
        }
        if maxX >= 0 { changedBounds = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1) }
        if uMaxX >= 0 { underDamageBounds = PixelRect(x: uMinX, y: uMinY, width: uMaxX - uMinX + 1, height: uMaxY - uMinY + 1) }
    }
}

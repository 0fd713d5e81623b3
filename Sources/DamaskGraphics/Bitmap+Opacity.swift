import Foundation

extension Bitmap {
    /// Whether every pixel of `rect` (bitmap pixels, rounded outwards and clipped to the
    /// bitmap; the whole bitmap when `nil`) has full alpha. Always true for ``PixelFormat/xrgb32``;
    /// true for an empty rect.
    ///
    /// Reads each pixel once (a compositor can then treat the bitmap as opaque: SRC instead
    /// of OVER, and nothing beneath it needs painting).
    public func isOpaque(in rect: CGRect? = nil) -> Bool {
        guard format.hasAlpha else { return true }
        var x0 = 0, y0 = 0, x1 = width, y1 = height
        if let rect {
            guard !rect.isNull, !rect.isEmpty, rect.minX.isFinite, rect.minY.isFinite,
                rect.maxX.isFinite, rect.maxY.isFinite
            else { return true }
            x0 = max(0, Int(max(rect.minX.rounded(.down), -1)))
            y0 = max(0, Int(max(rect.minY.rounded(.down), -1)))
            x1 = min(width, Int(min(rect.maxX.rounded(.up), CGFloat(width))))
            y1 = min(height, Int(min(rect.maxY.rounded(.up), CGFloat(height))))
        }
        guard x0 < x1, y0 < y1 else { return true }
        // Every pixel of the rect ANDed together (full alpha survives only if all have it),
        // row by row into the same accumulators and checked once at the end: rows a key
        // redraws are often a glyph wide, where a check per row cost more than the row.
        let raw = UnsafeRawPointer(bytes)
        var scan = AlphaScan()
        for row in y0..<y1 {
            scan.add(raw + row * bytesPerRow + x0 * 4, byteCount: (x1 - x0) * 4)
        }
        return scan.hasFullAlpha
    }
}

/// The AND of pixels, 32 a step in four vector lanes and the rest in a plain integer: what
/// ``Bitmap/isOpaque(in:)`` reads its rows into. Offsets stay far below `Int.max` (one
/// row's bytes), so they add without overflow checks.
private struct AlphaScan {
    private var a = SIMD4<UInt32>(repeating: .max), b = SIMD4<UInt32>(repeating: .max)
    private var c = SIMD4<UInt32>(repeating: .max), d = SIMD4<UInt32>(repeating: .max)
    private var pair: UInt64 = .max

    /// ANDs in the `byteCount` bytes at `start`: whole pixels, 4-byte aligned.
    @inline(__always)
    mutating func add(_ start: UnsafeRawPointer, byteCount: Int) {
        assert(Int(bitPattern: start) % 4 == 0 && byteCount % 4 == 0, "whole, aligned pixels")
        var offset = 0
        while offset &+ 128 <= byteCount {
            let block = start + offset
            a &= block.loadUnaligned(as: SIMD4<UInt32>.self) & block.loadUnaligned(fromByteOffset: 64, as: SIMD4<UInt32>.self)
            b &= block.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
                & block.loadUnaligned(fromByteOffset: 80, as: SIMD4<UInt32>.self)
            c &= block.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self)
                & block.loadUnaligned(fromByteOffset: 96, as: SIMD4<UInt32>.self)
            d &= block.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self)
                & block.loadUnaligned(fromByteOffset: 112, as: SIMD4<UInt32>.self)
            offset &+= 128
        }
        while offset &+ 16 <= byteCount {
            a &= start.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
            offset &+= 16
        }
        // The last 0–3 pixels: a pair, then one.
        if offset &+ 8 <= byteCount {
            pair &= start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        if offset < byteCount { pair &= 0xFFFF_FFFF_0000_0000 | UInt64(start.load(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// Whether every pixel added has full alpha (true when none was).
    var hasFullAlpha: Bool {
        let alpha = SIMD4<UInt32>(repeating: 0xFF00_0000)
        return pair & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000 && a & b & c & d & alpha == alpha
    }
}

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
        let alpha: UInt32 = 0xFF00_0000
        let pairAlpha: UInt64 = 0xFF00_0000_FF00_0000
        let raw = UnsafeRawPointer(bytes)
        for row in y0..<y1 {
            let start = raw + row * bytesPerRow + x0 * 4
            let count = x1 - x0
            let pairs = count / 2
            // AND every pixel of the row together: full alpha survives only if all have it.
            var accumulated = pairAlpha
            for index in 0..<pairs {
                accumulated &= start.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
            }
            if accumulated & pairAlpha != pairAlpha { return false }
            if count % 2 == 1,
                start.load(fromByteOffset: (count - 1) * 4, as: UInt32.self) & alpha != alpha
            {
                return false
            }
        }
        return true
    }
}

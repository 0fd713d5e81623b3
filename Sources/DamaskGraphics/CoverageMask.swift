import CPixman

/// An 8-bit coverage (alpha) mask placed at an integer offset in device space.
///
/// Owns one reference to its pixman `a8` image and drops it in `deinit`. Masks are
/// treated as immutable once shared (clip masks are shared between saved graphics
/// states); operations that combine masks write only into freshly made ones.
final class CoverageMask {
    /// The pixman `a8` image; owned by this mask.
    let image: OpaquePointer
    /// The device-space x of the mask's column 0.
    let x: Int
    /// The device-space y of the mask's row 0.
    let y: Int
    /// The width in pixels.
    let width: Int
    /// The height in pixels.
    let height: Int

    /// Creates a zeroed mask covering the device box `(x, y, width, height)`; sizes must
    /// be positive. Returns nil when pixman cannot allocate it.
    init?(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0,
            let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0)
        else { return nil }
        self.image = image
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    deinit {
        pixman_image_unref(image)
    }

    /// The first byte of the coverage values.
    var bytes: UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
    }

    /// The distance in bytes between rows.
    var bytesPerRow: Int { Int(pixman_image_get_stride(image)) }

    /// The device box the mask covers.
    var box: pixman_box32_t {
        pixman_box32_t(x1: Int32(x), y1: Int32(y), x2: Int32(x + width), y2: Int32(y + height))
    }

    /// The coverage at device pixel `(px, py)`; 0 outside the mask.
    func coverage(x px: Int, y py: Int) -> UInt8 {
        let cx = px - x, cy = py - y
        guard cx >= 0, cy >= 0, cx < width, cy < height else { return 0 }
        return bytes[cy * bytesPerRow + cx]
    }

    /// Multiplies this mask's coverage by `other`'s where they overlap and zeroes it
    /// elsewhere (Porter–Duff IN). Only call this on a mask nobody else shares yet.
    func intersect(with other: CoverageMask) {
        pixman_image_composite32(
            PIXMAN_OP_IN, other.image, nil, image,
            Int32(x - other.x), Int32(y - other.y), 0, 0, 0, 0, Int32(width), Int32(height))
    }

    /// Multiplies every coverage value by `alpha` (0…1). Only on unshared masks.
    func scale(by alpha: Double) {
        guard alpha < 1 else { return }
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((max(alpha, 0) * 65535).rounded()))
        guard let solid = pixman_image_create_solid_fill(&color) else { return }
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(PIXMAN_OP_IN, solid, nil, image, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
    }
}

extension CoverageMask {
    /// Layers the `a8` image `glyph` (`width` × `height` pixels) over this mask at column
    /// `column`, row `row` with OVER in opaque white, exactly as pixman's composite does it
    /// (`pixman_image_composite32(OVER, white, glyph, image, …)`: each value becomes
    /// `m + d·(255 − m)/255` with pixman's rounding), without pixman's general path, which
    /// has no fast path for `a8` destinations and clears a 24 KiB scanline buffer on every
    /// call. Returns false, changing nothing, when `glyph` is not `a8` or does not fit.
    /// Only on unshared masks.
    func layerOver(_ glyph: OpaquePointer, column: Int, row: Int, width: Int, height: Int) -> Bool {
        guard pixman_image_get_format(glyph) == PIXMAN_a8, column >= 0, row >= 0,
            column + width <= self.width, row + height <= self.height,
            Int(pixman_image_get_width(glyph)) >= width, Int(pixman_image_get_height(glyph)) >= height,
            let source = pixman_image_get_data(glyph)
        else { return false }
        let sourceBytes = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let sourceStride = Int(pixman_image_get_stride(glyph)), stride = bytesPerRow, destination = bytes
        for y in 0..<height {
            let from = sourceBytes + y * sourceStride, to = destination + (row + y) * stride + column
            for x in 0..<width {
                let m = UInt32(from[x])
                guard m != 0 else { continue }
                // pixman's MUL_UN8: (t + t / 256) / 256 with t = d·(255 − m) + 128.
                let t = UInt32(to[x]) * (255 - m) + 0x80
                to[x] = UInt8(truncatingIfNeeded: (((t >> 8) + t) >> 8) + m)
            }
        }
        return true
    }

    /// Sets every coverage value to 255. Only on unshared masks.
    func fillOpaque() {
        for row in 0..<height {
            (bytes + row * bytesPerRow).update(repeating: 255, count: width)
        }
    }
}

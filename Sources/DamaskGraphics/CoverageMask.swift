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
    /// Sets every coverage value to 255. Only on unshared masks.
    func fillOpaque() {
        for row in 0..<height {
            (bytes + row * bytesPerRow).update(repeating: 255, count: width)
        }
    }
}

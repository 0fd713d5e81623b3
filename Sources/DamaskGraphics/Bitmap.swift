import CPixman
import Foundation

/// A rectangle of 32-bit pixels backed by a pixman image.
///
/// A bitmap either owns its memory (allocated zeroed by pixman and freed when the bitmap
/// is deallocated) or wraps caller memory such as a mapped wl_shm buffer; in the latter
/// case the caller keeps that memory alive and unmoved for the bitmap's whole lifetime.
///
/// Threading: a bitmap is not thread-safe; use it from one thread at a time (the main
/// actor in practice). It is deliberately not `Sendable`.
public final class Bitmap {
    /// The largest width or height a bitmap may have (pixman's 16.16 fixed-point
    /// coordinates stop being exact beyond this).
    public static let maximumDimension = 32767

    /// The underlying `pixman_image_t *`. The bitmap holds one reference and drops it in
    /// `deinit`; callers may use it for direct pixman calls but must not unref it, and
    /// must restore any clip or transform they set on it.
    public let image: OpaquePointer
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The distance in bytes between the starts of consecutive rows.
    public let bytesPerRow: Int
    /// The pixel layout.
    public let format: PixelFormat

    /// Creates a zeroed (transparent black) bitmap whose memory the bitmap owns.
    ///
    /// - Throws: ``GraphicsError/invalidSize(width:height:)`` when a side is not in
    ///   1…``maximumDimension``; ``GraphicsError/allocationFailed(width:height:)`` when
    ///   memory runs out.
    public init(width: Int, height: Int, format: PixelFormat = .argb32Premultiplied) throws {
        try Bitmap.validate(width: width, height: height)
        guard
            let image = pixman_image_create_bits(
                format.pixmanFormat, Int32(width), Int32(height), nil, 0)
        else { throw GraphicsError.allocationFailed(width: width, height: height) }
        self.image = image
        self.bytes = UnsafeMutableRawPointer(pixman_image_get_data(image)!)  // pixman allocated them
        self.width = width
        self.height = height
        self.bytesPerRow = Int(pixman_image_get_stride(image))
        self.format = format
    }

    /// Creates a bitmap over caller-owned memory (for example a mapped shm buffer).
    ///
    /// The bitmap never frees `memory`; the caller keeps it alive, writable and unmoved
    /// for the bitmap's lifetime. `memory` must hold at least `bytesPerRow × height` bytes.
    ///
    /// - Throws: ``GraphicsError/invalidSize(width:height:)`` or
    ///   ``GraphicsError/invalidBytesPerRow(_:width:)`` for bad dimensions.
    public init(
        wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat = .argb32Premultiplied
    ) throws {
        try Bitmap.validate(width: width, height: height)
        guard bytesPerRow >= width * 4, bytesPerRow % 4 == 0, bytesPerRow <= Int(Int32.max) / height
        else { throw GraphicsError.invalidBytesPerRow(bytesPerRow, width: width) }
        guard
            let image = pixman_image_create_bits(
                format.pixmanFormat, Int32(width), Int32(height),
                memory.assumingMemoryBound(to: UInt32.self), Int32(bytesPerRow))
        else { throw GraphicsError.allocationFailed(width: width, height: height) }
        self.image = image
        self.bytes = memory
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
    }

    /// Creates an owned bitmap for a size already known to be valid; traps only when
    /// memory is exhausted (as `Array` does).
    convenience init(validWidth width: Int, height: Int, format: PixelFormat = .argb32Premultiplied) {
        do {
            try self.init(width: width, height: height, format: format)
        } catch {
            fatalError("DamaskGraphics: \(error)")
        }
    }

    deinit {
        pixman_image_unref(image)
    }

    static func validate(width: Int, height: Int) throws {
        guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height)
        else { throw GraphicsError.invalidSize(width: width, height: height) }
    }

    /// The number of bytes the pixel rows span (`bytesPerRow × height`).
    public var byteCount: Int { bytesPerRow * height }

    /// The first byte of the pixels; owned as described on the type.
    ///
    /// Read from the image once, when the bitmap is made: a pixman bits image keeps its
    /// pixels where they are for its whole life, and a frame that reads the pointer from
    /// the image touches the image's struct and pixman's code (a cold frame pays a miss for
    /// each; `damask-bench --pages`).
    public let bytes: UnsafeMutableRawPointer

    /// The bitmap's extent, `(0, 0, width, height)`.
    public var bounds: CGRect { CGRect(x: 0, y: 0, width: width, height: height) }

    /// The raw pixel at `(x, y)` as premultiplied `0xAARRGGBB`; 0 outside the bitmap.
    ///
    /// For ``PixelFormat/xrgb32`` bitmaps the alpha byte is reported as `0xFF`.
    public func pixel(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        let value = bytes.load(fromByteOffset: y * bytesPerRow + x * 4, as: UInt32.self)
        return format == .xrgb32 ? value | 0xFF00_0000 : value
    }

    /// Overwrites the raw pixel at `(x, y)`; ignored outside the bitmap.
    public func setPixel(x: Int, y: Int, to value: UInt32) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        bytes.storeBytes(of: value, toByteOffset: y * bytesPerRow + x * 4, as: UInt32.self)
    }

    /// The colour at `(x, y)`, un-premultiplied; clear outside the bitmap.
    public func color(x: Int, y: Int) -> Color {
        Color(premultipliedARGB32: pixel(x: x, y: y))
    }

    /// Replaces every pixel with `color` (source copy, no blending).
    public func fill(_ color: Color) {
        var pixmanColor = color.pixmanColor(premultiplied: true)
        var rect = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &pixmanColor, 1, &rect)
    }

    /// Returns an owned copy of this bitmap with the same size and format.
    public func copy() throws -> Bitmap {
        let result = try Bitmap(width: width, height: height, format: format)
        for row in 0..<height {
            (result.bytes + row * result.bytesPerRow).copyMemory(
                from: bytes + row * bytesPerRow, byteCount: width * 4)
        }
        return result
    }

    /// Copies the pixels of `source` inside `rect` (pixel coordinates, rounded outward)
    /// to the same coordinates in this bitmap, replacing what was there. The rect is
    /// clipped to both bitmaps.
    public func copyPixels(from source: Bitmap, in rect: CGRect) {
        copyPixels(from: source, in: Region(rect))
    }

    /// Copies the pixels of `source` inside `region` to the same coordinates here.
    /// (Rows are copied directly when the formats match, as
    /// ``copyPixels(from:placedAt:in:)`` does, instead of through pixman's compositing.)
    public func copyPixels(from source: Bitmap, in region: Region) {
        copyPixels(from: source, placedAt: (0, 0), in: region)
    }

    /// Compares two bitmaps pixel by pixel in premultiplied ARGB.
    ///
    /// A pixel differs when any channel differs by more than `tolerance` (0…255).
    /// Bitmaps of different sizes differ everywhere outside their common area. The
    /// difference image shows differing pixels in opaque red, scaled up with the
    /// delta, over a faded copy of `a`.
    public static func difference(_ a: Bitmap, _ b: Bitmap, tolerance: Int) -> BitmapDifference {
        let width = max(a.width, b.width)
        let height = max(a.height, b.height)
        let image = Bitmap(validWidth: width, height: height)
        var count = 0
        var maxDelta = 0
        for y in 0..<height {
            for x in 0..<width {
                let inside = x < a.width && y < a.height && x < b.width && y < b.height
                let pa = a.pixel(x: x, y: y)
                let pb = b.pixel(x: x, y: y)
                var delta = 255
                if inside {
                    delta = 0
                    for shift in stride(from: 0, to: 32, by: 8) {
                        let ca = Int((pa >> UInt32(shift)) & 0xFF)
                        let cb = Int((pb >> UInt32(shift)) & 0xFF)
                        delta = max(delta, abs(ca - cb))
                    }
                }
                maxDelta = max(maxDelta, delta)
                if delta > tolerance {
                    count += 1
                    let red = UInt32(min(255, 128 + delta))
                    image.setPixel(x: x, y: y, to: 0xFF00_0000 | red << 16)
                } else {
                    // Faded luminance of `a`, so the scene stays recognisable.
                    let luma = ((pa >> 16 & 0xFF) + (pa >> 8 & 0xFF) + (pa & 0xFF)) / 3
                    let faded = 0xC0 + luma / 4
                    image.setPixel(x: x, y: y, to: 0xFF00_0000 | faded << 16 | faded << 8 | faded)
                }
            }
        }
        return BitmapDifference(differingPixelCount: count, maximumChannelDelta: maxDelta, image: image)
    }
}


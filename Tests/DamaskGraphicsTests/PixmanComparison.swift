import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// Two bitmaps holding the same random pixels, one for Damask to draw into and one for
/// pixman to composite into, for tests that pin Damask's direct painting to pixman's
/// pixels.
struct PixmanComparison {
    /// What Damask draws into.
    let ours: Bitmap
    /// What pixman composites into (through ``pixmanImage(clippedTo:)``).
    let pixmans: Bitmap

    /// Two `width` × `height` bitmaps of `format` with the same noise (opaque for
    /// `argb32Premultiplied`, the unused byte 0 for `xrgb32`).
    init(width: Int, height: Int, format: PixelFormat, using generator: inout some RandomNumberGenerator) throws {
        ours = try Bitmap(width: width, height: height, format: format)
        pixmans = try Bitmap(width: width, height: height, format: format)
        for index in 0..<(width * height) {
            let value = UInt32.random(in: 0...UInt32.max, using: &generator) | (format == .xrgb32 ? 0 : 0xFF00_0000)
            let row = index / width, column = index % width
            (ours.bytes + row * ours.bytesPerRow).assumingMemoryBound(to: UInt32.self)[column] = value
            (pixmans.bytes + row * pixmans.bytesPerRow).assumingMemoryBound(to: UInt32.self)[column] = value
        }
    }

    /// A pixman image over ``pixmans``'s pixels, clipped to `clipRects` within the bitmap.
    /// The caller owns (unrefs) the image; it borrows the pixels, which ``pixmans`` keeps.
    func pixmanImage(clippedTo clipRects: [CGRect]) throws -> OpaquePointer {
        let image = try #require(pixman_image_create_bits(
            pixmans.format.pixmanFormat, Int32(pixmans.width), Int32(pixmans.height),
            pixmans.bytes.assumingMemoryBound(to: UInt32.self), Int32(pixmans.bytesPerRow)))
        Region(rects: clipRects).intersection(CGRect(x: 0, y: 0, width: pixmans.width, height: pixmans.height))
            .withPixmanRegion { _ = pixman_image_set_clip_region32(image, $0) }
        return image
    }

    /// A description of where ``ours`` and ``pixmans`` differ (the unused byte of `xrgb32`
    /// aside), nil when they do not.
    func differences() -> String? {
        let (mine, theirs) = (Self.pixels(of: ours), Self.pixels(of: pixmans))
        let differing = mine.indices.filter { mine[$0] != theirs[$0] }
        guard let first = differing.first else { return nil }
        let width = ours.width
        return "\(differing.count) pixels differ, first \(first % width),\(first / width): "
            + "\(String(mine[first], radix: 16)) vs \(String(theirs[first], radix: 16))"
    }

    /// `bitmap`'s pixels row by row (its padding left out), the unused byte of `xrgb32`
    /// dropped.
    static func pixels(of bitmap: Bitmap) -> [UInt32] {
        var result: [UInt32] = []
        let used: UInt32 = bitmap.format == .xrgb32 ? 0x00FF_FFFF : 0xFFFF_FFFF
        for row in 0..<bitmap.height {
            let words = (bitmap.bytes + row * bitmap.bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for column in 0..<bitmap.width { result.append(words[column] & used) }
        }
        return result
    }
}

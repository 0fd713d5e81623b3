import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// An opaque colour filled into a box is written straight into the clip rectangles
/// (`GraphicsContext.fillOpaqueBox`), with the pixels pixman's compositing would give.
@Suite("Opaque fills", .timeLimit(.minutes(1)))
struct OpaqueFillTests {
    @Test(
        "An opaque fill writes what compositing a solid image writes, in every rectangle of a clip and nowhere else, in both formats and in normal and copy modes",
        arguments: [PixelFormat.argb32Premultiplied, .xrgb32])
    func opaqueFillMatchesCompositing(format: PixelFormat) throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let (width, height) = (37, 23)
            let comparison = try PixmanComparison(width: width, height: height, format: format, using: &generator)
            // A clip of one to four rectangles (overlapping, some past the edges).
            let clipRects = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                CGRect(
                    x: Int.random(in: -5...30, using: &generator), y: Int.random(in: -5...18, using: &generator),
                    width: Int.random(in: 1...20, using: &generator), height: Int.random(in: 1...12, using: &generator))
            }
            let box = CGRect(
                x: Int.random(in: -8...30, using: &generator), y: Int.random(in: -8...18, using: &generator),
                width: Int.random(in: 1...40, using: &generator), height: Int.random(in: 1...30, using: &generator))
            // Channels that are not whole multiples of 1/255 too, so that rounding shows.
            let color = Color(
                red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator),
                blue: [0, 1, .random(in: 0...1, using: &generator)][round % 3], alpha: 1)
            let mode: BlendMode = round.isMultiple(of: 2) ? .normal : .copy

            let context = GraphicsContext(bitmap: comparison.ours)
            context.clip(to: clipRects)
            context.setBlendMode(mode)
            context.setFillColor(color)
            context.fill(box)

            let image = try comparison.pixmanImage(clippedTo: clipRects)
            defer { pixman_image_unref(image) }
            var pixmanColor = color.pixmanColor(premultiplied: true)
            let solid = try #require(pixman_image_create_solid_fill(&pixmanColor))
            defer { pixman_image_unref(solid) }
            pixman_image_composite32(
                mode == .normal ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, solid, nil, image, 0, 0, 0, 0, Int32(box.minX),
                Int32(box.minY), Int32(box.width), Int32(box.height))

            let differences = comparison.differences()
            #expect(differences == nil, "round \(round) (\(mode), clip \(clipRects), box \(box)): \(differences ?? "")")
        }
    }

    @Test("A translucent fill still blends with what is under it (it is composited, not written)")
    func translucentFillBlends() throws {
        let bitmap = try Bitmap(width: 4, height: 4)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(Color(red: 0, green: 0, blue: 1, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        context.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        let pixel = bitmap.bytes.assumingMemoryBound(to: UInt32.self)[0]
        #expect(pixel >> 24 == 0xFF, "alpha \(String(pixel, radix: 16))")
        #expect((pixel >> 16) & 0xFF >= 0x7F && pixel & 0xFF >= 0x7F, "red over blue blends both: \(String(pixel, radix: 16))")
    }

    @Test("The pixel of an opaque colour is its channels' high bytes, as pixman's solid fill makes it")
    func pixelIsTheHighBytes() {
        let color = pixman_color_t(red: 0x12FF, green: 0x8000, blue: 0x00FF, alpha: 0xFFFF)
        #expect(Color.packed(color) == 0xFF12_8000)
    }
}

import CPixman
import Foundation
import Testing

@testable import DamaskGraphics

/// A coverage mask painted in a solid colour straight into the bitmap
/// (`GraphicsContext.paintCoverage`, how text is drawn in the normal blend mode) gives
/// the pixels of pixman's OVER of a solid image through the mask.
@Suite("Coverage painting", .timeLimit(.minutes(1)))
struct CoveragePaintingTests {
    @Test(
        "A mask painted in a colour gives pixman's OVER composite in every rectangle of a clip and leaves the rest, for opaque and translucent colours, masks past the edges, in both formats",
        arguments: [PixelFormat.argb32Premultiplied, .xrgb32])
    func paintingMatchesPixmansComposite(format: PixelFormat) throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<60 {
            let comparison = try PixmanComparison(width: 41, height: 27, format: format, using: &generator)
            // A mask of blank, full and partial coverage, somewhere around the bitmap.
            let (maskWidth, maskHeight) = (Int.random(in: 1...30, using: &generator), Int.random(in: 1...20, using: &generator))
            let (x, y) = (Int.random(in: -10...35, using: &generator), Int.random(in: -10...22, using: &generator))
            let mask = try #require(CoverageMask(x: 0, y: 0, width: maskWidth, height: maskHeight))
            for row in 0..<maskHeight {
                for column in 0..<maskWidth {
                    mask.bytes[row * mask.bytesPerRow + column] =
                        [0, 255, UInt8.random(in: 0...255, using: &generator)][(row * 7 + column + round) % 3]
                }
            }
            let clipRects = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                CGRect(
                    x: Int.random(in: -5...34, using: &generator), y: Int.random(in: -5...22, using: &generator),
                    width: Int.random(in: 1...24, using: &generator), height: Int.random(in: 1...16, using: &generator))
            }
            // Opaque and translucent, channels not whole multiples of 1/255 too.
            let color = Color(
                red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator),
                blue: .random(in: 0...1, using: &generator), alpha: [1, 0.5, .random(in: 0...1, using: &generator)][round % 3])

            let context = GraphicsContext(bitmap: comparison.ours)
            context.clip(to: clipRects)
            context.paintCoverage(mask, atX: x, y: y, color: color.packedPremultiplied())

            let image = try comparison.pixmanImage(clippedTo: clipRects)
            defer { pixman_image_unref(image) }
            var pixmanColor = color.pixmanColor(premultiplied: true)
            let solid = try #require(pixman_image_create_solid_fill(&pixmanColor))
            defer { pixman_image_unref(solid) }
            pixman_image_composite32(
                PIXMAN_OP_OVER, solid, mask.image, image, 0, 0, 0, 0, Int32(x), Int32(y), Int32(maskWidth), Int32(maskHeight))

            let differences = comparison.differences()
            #expect(differences == nil, "round \(round) (clip \(clipRects), mask \(maskWidth)×\(maskHeight) at \(x),\(y)): \(differences ?? "")")
        }
    }

    @Test("Text drawn in the normal mode, clipped to two rectangles, equals the same text drawn through pixman (the copy blend mode over a clear bitmap)")
    func textMatchesThePixmanPath() throws {
        let font = try Font(size: 15)
        // Over a clear bitmap, OVER and SOURCE-through-the-mask give the same pixels; copy
        // mode takes the general pixman path.
        for color in [Color(red: 0.1, green: 0.2, blue: 0.7, alpha: 1), Color(red: 0.8, green: 0.3, blue: 0.1, alpha: 0.6)] {
            let direct = try Bitmap(width: 120, height: 30), pixman = try Bitmap(width: 120, height: 30)
            for (bitmap, mode) in [(direct, BlendMode.normal), (pixman, .copy)] {
                let context = GraphicsContext(bitmap: bitmap)
                context.clip(to: [CGRect(x: 0, y: 0, width: 50, height: 30), CGRect(x: 60, y: 5, width: 60, height: 18)])
                context.setBlendMode(mode)
                context.draw("Typing, clipped", at: CGPoint(x: 3, y: 21), font: font, color: color)
            }
            let (mine, theirs) = (PixmanComparison.pixels(of: direct), PixmanComparison.pixels(of: pixman))
            #expect(mine.contains { $0 != 0 }, "the text should show")
            #expect(mine == theirs, "\(zip(mine, theirs).filter { $0 != $1 }.count) pixels differ")
        }
    }
}

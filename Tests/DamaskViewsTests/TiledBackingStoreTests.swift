import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Vertical stripes whose colour depends on their index, drawn only where asked: the same
/// function of x for the huge view and for its small reference.
@MainActor private enum Stripes {
    /// The width of one stripe in points (not a whole number of pixels at scale 2, so that
    /// stripe edges are antialiased and tile seams would show).
    static let width: CGFloat = 7.25

    static func color(_ index: Int) -> Color {
        Color(
            red: CGFloat(index % 7) / 6, green: CGFloat((index / 7) % 5) / 4,
            blue: CGFloat((index / 35) % 3) / 2)
    }

    /// Fills the stripes crossing `rect`, the pattern shifted left by `offset` points.
    static func draw(_ rect: CGRect, height: CGFloat, offset: CGFloat) {
        guard let context = GraphicsContext.current else { return }
        let first = Int(((rect.minX + offset) / width).rounded(.down))
        let last = Int(((rect.maxX + offset) / width).rounded(.up))
        for index in first...last {
            context.setFillColor(color(index))
            context.fill(CGRect(x: CGFloat(index) * width - offset, y: 0, width: width, height: height))
        }
        // Diagonal lines every 97 points, antialiased across tile edges.
        context.setStrokeColor(.white)
        context.setLineWidth(1.5)
        var points: [CGPoint] = []
        let firstLine = Int(((rect.minX + offset - height) / 97).rounded(.down))
        let lastLine = Int(((rect.maxX + offset) / 97).rounded(.up))
        for line in firstLine...lastLine {
            let x = CGFloat(line) * 97 - offset
            points.append(CGPoint(x: x, y: 0))
            points.append(CGPoint(x: x + height, y: height))
        }
        context.strokeLineSegments(between: points)
    }
}

/// The huge view: 20,000 points wide, stripes across its whole width.
private final class HugeStripesView: View {
    private(set) var drawnRects: [CGRect] = []
    /// Filled yellow over the stripes when set.
    var highlight: CGRect?
    override func draw(_ rect: CGRect) {
        drawnRects.append(rect)
        Stripes.draw(rect, height: bounds.height, offset: 0)
        if let highlight, let context = GraphicsContext.current {
            context.setFillColor(.yellow)
            context.fill(highlight)
        }
    }
}

/// The reference: a small view drawing the part of the stripes starting at `offset`.
private final class ReferenceStripesView: View {
    var offset: CGFloat = 0
    override func draw(_ rect: CGRect) {
        Stripes.draw(rect, height: bounds.height, offset: offset)
    }
}

extension ViewsTests {
    @Suite("Tiled backing stores", .shared, .timeLimit(.minutes(5))) @MainActor struct TiledBackingStores {
        static let clipFrame = CGRect(x: 10, y: 10, width: 150, height: 100)

        /// A window with a clipping parent scrolled to `scroll` holding the huge view.
        private func makeHuge() -> (Harness, View, HugeStripesView) {
            let h = Harness(width: 200, height: 120, scale: 2)
            let clip = View(frame: Self.clipFrame)
            clip.clipsToBounds = true
            let huge = HugeStripesView(frame: CGRect(x: 0, y: 0, width: 20_000, height: 100))
            clip.addSubview(huge)
            h.root.addSubview(clip)
            return (h, clip, huge)
        }

        /// The reference window's presented pixels with the pattern scrolled to `scroll`.
        private func referencePixels(scroll: CGFloat) async -> Bitmap? {
            let h = Harness(width: 200, height: 120, scale: 2)
            let clip = View(frame: Self.clipFrame)
            clip.clipsToBounds = true
            let reference = ReferenceStripesView(frame: CGRect(origin: .zero, size: Self.clipFrame.size))
            reference.offset = scroll
            clip.addSubview(reference)
            h.root.addSubview(clip)
            await h.settle()
            return h.surface.presentedBitmap
        }

        @Test("A 20,000×100-point view at scale 2 presents the right pixels where visible, scrolled anywhere")
        func hugeViewPresentsTheRightPixels() async throws {
            let (h, clip, huge) = makeHuge()
            let oversizedReports = h.window.statistics.oversizedBackingStoreReportCount
            await h.settle()
            #expect(huge.layer.isBackingStoreTiled)
            #expect(h.window.statistics.oversizedBackingStoreReportCount == oversizedReports, "tiled, not refused")
            for scroll: CGFloat in [0, 255.5, 5_000, 15_000, 19_850] {
                clip.bounds.origin.x = scroll
                await h.step()
                await h.step()
                let presented = try #require(h.surface.presentedBitmap)
                let reference = try #require(await referencePixels(scroll: scroll))
                let differing = differingPixels(presented, reference)
                let differingCount = differing.count
                #expect(differingCount == 0, "scrolled to \(scroll): first differing pixels \(differing.prefix(3))")
                #expect(!Color.black.matches(h.screenColor(100, 100)) || scroll == 0)
            }
        }

        @Test("Only the tiles near the visible area exist: memory stays bounded while scrolling across")
        func tiledMemoryIsBounded() async {
            let (h, clip, huge) = makeHuge()
            await h.settle()
            // The visible part is 300×200 pixels; the tiles are 512 pixels wide and the
            // store keeps one tile of margin: never more than 4 tiles of 512×200.
            let tileBytes = 512 * 200 * 4
            let fullStoreBytes = 40_000 * 200 * 4
            var maximum = 0
            for step in 0...40 {
                clip.bounds.origin.x = CGFloat(step) * 480
                await h.step()
                await h.step()
                maximum = max(maximum, huge.layer.backingStoreByteCount)
                #expect(huge.layer.backingStoreTileCount <= 4, "at \(step * 480): \(huge.layer.backingStoreTileCount) tiles")
            }
            #expect(maximum <= 4 * tileBytes)
            #expect(maximum > 0)
            #expect(maximum * 20 < fullStoreBytes)
            // Tiles far behind were freed, not merely left out of the count.
            clip.bounds.origin.x = 0
            await h.step()
            await h.step()
            #expect(huge.drawnRects.last.map { $0.minX < 300 } == true, "the first tiles were drawn again")
        }

        @Test("setNeedsDisplay(_:) on a tiled view redraws and damages only the tiles the rect touches")
        func rectInvalidationTouchesOnlyItsTiles() async throws {
            let (h, clip, huge) = makeHuge()
            clip.bounds.origin.x = 15_000
            await h.settle()
            await h.step()
            let commits = h.commitCount

            // Inside one tile (tiles are 256 points wide at scale 2; 15,104 is an edge).
            let inside = CGRect(x: 15_010, y: 10, width: 20, height: 20)
            var before = huge.drawnRects.count
            huge.setNeedsDisplay(inside)
            await h.step()
            #expect(huge.drawnRects.count == before + 1)
            #expect(huge.drawnRects.last.map { $0.contains(inside) && $0.width <= 21 } == true)
            #expect(h.commitCount == commits + 1)
            // Window pixels of the rect: (10 + 10, 10 + 10) points → (40, 40) at scale 2.
            let damage = h.lastDamage.boundingBox
            #expect(CGRect(x: 40, y: 40, width: 40, height: 40).contains(damage), "damage \(damage)")
            #expect(!damage.isEmpty)

            // Across a tile edge: two tiles, two draws.
            before = huge.drawnRects.count
            huge.setNeedsDisplay(CGRect(x: 15_100, y: 0, width: 10, height: 10))
            await h.step()
            #expect(huge.drawnRects.count == before + 2)

            // Far off-screen: no tile there, nothing drawn, nothing committed.
            before = huge.drawnRects.count
            let commitsBefore = h.commitCount
            huge.setNeedsDisplay(CGRect(x: 100, y: 0, width: 10, height: 10))
            await h.step()
            await h.step()
            #expect(huge.drawnRects.count == before)
            #expect(h.commitCount == commitsBefore)
            #expect(!huge.layer.needsDisplay)
        }

        @Test("A tiled view whose drawing changes presents the new pixels in the invalidated rect only")
        func tiledRedrawShowsNewPixels() async throws {
            let (h, clip, huge) = makeHuge()
            clip.bounds.origin.x = 15_000
            await h.settle()
            await h.step()
            let before = try h.surface.presentedBitmap?.copy()
            let changed = CGRect(x: 15_010, y: 10, width: 20, height: 20)
            huge.highlight = changed
            huge.setNeedsDisplay(changed)
            await h.step()
            let after = try #require(h.surface.presentedBitmap)
            let old = try #require(before)
            // Window pixels of the rect: (40, 40)–(80, 80) at scale 2.
            let differing = differingPixels(old, after)
            #expect(differing.count == 40 * 40)
            #expect(differing.allSatisfy { (40..<80).contains($0.0) && (40..<80).contains($0.1) })
            #expect(Color.yellow.matches(h.screenColor(60, 60)))
        }
    }
}

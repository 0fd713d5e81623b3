import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A view that draws a tall striped page through its bounds at ``offset``: a band of
/// colour per 10 points of page, so that every row of pixels shows which page row it is.
private final class PageView: View {
    var offset: CGFloat = 0
    private(set) var drawnRects: [CGRect] = []

    static func color(ofPageRow row: Int) -> Color {
        let band = row / 10
        return Color(
            red: CGFloat(band * 37 % 256) / 255, green: CGFloat(band * 91 % 256) / 255,
            blue: CGFloat(band * 53 % 256) / 255)
    }

    override func draw(_ rect: CGRect) {
        drawnRects.append(rect)
        guard let context = GraphicsContext.current else { return }
        var y = (rect.minY / 10).rounded(.down) * 10
        while y < rect.maxY {
            let pageRow = Int(y + offset)
            context.setFillColor(Self.color(ofPageRow: pageRow))
            // Bands start on multiples of 10 page points.
            let bandEnd = CGFloat((pageRow / 10 + 1) * 10) - offset
            context.fill(CGRect(x: bounds.minX, y: y, width: bounds.width, height: bandEnd - y))
            y = bandEnd
        }
    }

    /// Scrolls the page by `delta` points, moving the retained pixels.
    func scroll(by delta: CGFloat) {
        offset += delta
        scrollContents(dx: 0, dy: -delta)
    }
}

extension ViewsTests {
    @Suite("Scrolling by moving retained pixels", .exclusive, .timeLimit(.minutes(5))) @MainActor struct ScrollContentsTests {
        @Test("a scroll moves the pixels, draws only the uncovered strip and damages the whole view")
        func scrollDrawsOnlyTheStrip() throws {
            let harness = Harness(width: 60, height: 80)
            let page = PageView(frame: CGRect(x: 0, y: 0, width: 60, height: 80))
            harness.root.addSubview(page)
            harness.window.flush()
            harness.frame()
            #expect(page.drawnRects.count == 1)
            let drawsBefore = harness.window.drawCount
            let commitsBefore = harness.commitCount

            page.scroll(by: 7)  // not a multiple of the bands: pixels must really move
            harness.window.flush()

            #expect(harness.commitCount == commitsBefore + 1)
            #expect(page.drawnRects.count == 2)
            #expect(page.drawnRects.last == CGRect(x: 0, y: 73, width: 60, height: 7))
            #expect(harness.window.drawCount == drawsBefore + 1)
            #expect(harness.window.contentsMoveCount == 1)
            #expect(page.layer.contentsScrollCount == 1)
            #expect(harness.lastDamage.boundingBox == CGRect(x: 0, y: 0, width: 60, height: 80))
            // The screen equals a fresh drawing of the page at the new offset.
            for y in [0, 2, 3, 12, 40, 72, 73, 79] {
                let expected = PageView.color(ofPageRow: y + 7).premultipliedARGB32
                #expect(harness.screenColor(30, y)?.premultipliedARGB32 == expected, "row \(y)")
            }
        }

        @Test("scrolling back the other way draws the top strip")
        func scrollUpDrawsTheTopStrip() throws {
            let harness = Harness(width: 60, height: 80)
            let page = PageView(frame: CGRect(x: 0, y: 0, width: 60, height: 80))
            page.offset = 50
            harness.root.addSubview(page)
            harness.window.flush()
            harness.frame()
            page.scroll(by: -13)
            harness.window.flush()
            #expect(page.drawnRects.last == CGRect(x: 0, y: 0, width: 60, height: 13))
            for y in [0, 12, 13, 14, 50, 79] {
                let expected = PageView.color(ofPageRow: y + 37).premultipliedARGB32
                #expect(harness.screenColor(10, y)?.premultipliedARGB32 == expected, "row \(y)")
            }
        }

        @Test("sideways moves keep each pixel's row and move it along")
        func horizontalMove() throws {
            let bitmap = try Bitmap(width: 5, height: 3)
            for y in 0..<3 { for x in 0..<5 { bitmap.setPixel(x: x, y: y, to: UInt32(0xFF00_0000 | (y << 8) | x)) } }
            bitmap.movePixels(dx: 2, dy: -1)
            #expect(bitmap.pixel(x: 2, y: 0) == 0xFF00_0100)
            #expect(bitmap.pixel(x: 4, y: 1) == 0xFF00_0202)
            bitmap.movePixels(dx: -3, dy: 0)
            #expect(bitmap.pixel(x: 0, y: 0) == 0xFF00_0101)
        }

        @Test("without a backing store, or by a fraction of a pixel, the whole view is redrawn")
        func fallbacksRedrawEverything() throws {
            let harness = Harness(width: 60, height: 80, scale: 2)
            let page = PageView(frame: CGRect(x: 0, y: 0, width: 60, height: 80))
            page.scroll(by: 5)  // not in a window, no store: marked whole
            #expect(page.layer.needsDisplay)
            harness.root.addSubview(page)
            harness.window.flush()
            harness.frame()
            page.scroll(by: 0.25)  // half a pixel at scale 2
            harness.window.flush()
            #expect(page.drawnRects.last == CGRect(x: 0, y: 0, width: 60, height: 80))
            #expect(page.layer.contentsScrollCount == 0)
            page.scroll(by: 0.5)  // one whole pixel at scale 2: moved
            harness.window.flush()
            #expect(page.layer.contentsScrollCount == 1)
            #expect(page.drawnRects.last == CGRect(x: 0, y: 79.5, width: 60, height: 0.5))
        }
    }
}

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

/// A view that draws a frame colour around ``area`` and, inside it, vertical bands of a
/// page scrolled sideways by ``offset`` (a band per 10 points, each column showing its page
/// column): what a text field draws, its border left as drawn while its text scrolls.
private final class FramedPageView: View {
    let area = CGRect(x: 10, y: 6, width: 40, height: 60)
    var offset: CGFloat = 0
    private(set) var drawnRects: [CGRect] = []
    static let frameColor = Color(red: 0.2, green: 0.3, blue: 0.9)

    override func draw(_ rect: CGRect) {
        drawnRects.append(rect)
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(Self.frameColor)
        context.fill(bounds)
        var x = area.minX
        while x < area.maxX {
            let pageColumn = Int(x + offset)
            let bandEnd = min(CGFloat((pageColumn / 10 + 1) * 10) - offset, area.maxX)
            context.setFillColor(PageView.color(ofPageRow: pageColumn))
            context.fill(CGRect(x: x, y: area.minY, width: bandEnd - x, height: area.height))
            x = bandEnd
        }
    }

    /// Scrolls the page left by `delta` points inside the area, moving the retained pixels.
    func scroll(by delta: CGFloat) {
        offset += delta
        scrollContents(in: area, dx: -delta, dy: 0)
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

        @Test("a scroll inside a rect moves only its pixels, draws only the strip of it the move uncovers and damages only the rect; a frame drawn around it stays", arguments: [1.0, 2.0])
        func scrollInsideARect(scale: CGFloat) throws {
            let harness = Harness(width: 60, height: 80, scale: scale)
            let view = FramedPageView(frame: CGRect(x: 0, y: 0, width: 60, height: 80))
            view.offset = 100
            harness.root.addSubview(view)
            harness.window.flush()
            harness.frame()
            for (index, delta) in [7.0, 3, -12, 25].enumerated() {
                view.scroll(by: delta)
                harness.window.flush()
                harness.frame()
                let strip = delta > 0
                    ? CGRect(x: view.area.maxX - delta, y: view.area.minY, width: delta, height: view.area.height)
                    : CGRect(x: view.area.minX, y: view.area.minY, width: -delta, height: view.area.height)
                #expect(view.drawnRects.last == strip, "scroll \(index) by \(delta)")
                #expect(view.layer.contentsScrollCount == index + 1)
                #expect(harness.lastDamage.boundingBox == view.area.applying(CGAffineTransform(scaleX: scale, y: scale)))
                // Every pixel equals a fresh drawing of the view at the new offset.
                let fresh = Harness(width: 60, height: 80, scale: scale)
                let reference = FramedPageView(frame: view.frame)
                reference.offset = view.offset
                fresh.root.addSubview(reference)
                fresh.window.flush()
                let screen = try #require(harness.surface.presentedBitmap), expected = try #require(fresh.surface.presentedBitmap)
                #expect(differingPixels(screen, expected).isEmpty, "scroll \(index) by \(delta): pixels differ from a fresh drawing")
            }
        }

        @Test("marks inside the rect move with its pixels, marks outside it stay; a rect off whole pixels is redrawn alone")
        func marksAndFallbackOfARectScroll() throws {
            let harness = Harness(width: 60, height: 80, scale: 2)
            let view = FramedPageView(frame: CGRect(x: 0, y: 0, width: 60, height: 80))
            harness.root.addSubview(view)
            harness.window.flush()
            harness.frame()
            view.setNeedsDisplay(CGRect(x: 30, y: 20, width: 4, height: 4))  // inside: moves
            view.scroll(by: 5)
            #expect(view.layer.dirtyRect == CGRect(x: 25, y: 6, width: 25, height: 60), "the mark moved 5 left, joined to the strip")
            harness.window.flush()
            harness.frame()
            view.setNeedsDisplay(CGRect(x: 52, y: 70, width: 4, height: 4))  // outside: stays
            view.scroll(by: 5)
            #expect(view.layer.dirtyRect == CGRect(x: 45, y: 6, width: 11, height: 68))
            harness.window.flush()
            harness.frame()
            let scrolls = view.layer.contentsScrollCount
            view.layer.scrollContents(in: CGRect(x: 10.25, y: 6, width: 40, height: 60), dx: -5, dy: 0)
            #expect(view.layer.contentsScrollCount == scrolls, "a rect edge half a pixel off: nothing moved")
            #expect(view.layer.dirtyRect == CGRect(x: 10.25, y: 6, width: 40, height: 60), "only the rect is marked")
        }

        @Test("moving the pixels of an area reads and writes none outside it")
        func areaMoveStaysInside() throws {
            let bitmap = try Bitmap(width: 8, height: 6)
            for y in 0..<6 { for x in 0..<8 { bitmap.setPixel(x: x, y: y, to: UInt32(0xFF00_0000 | (y << 8) | x)) } }
            bitmap.movePixels(dx: -2, dy: 1, insideColumns: 2..<7, rows: 1..<5)
            for y in 0..<6 {
                for x in 0..<8 {
                    let original = UInt32(0xFF00_0000 | (y << 8) | x)
                    let inside = (2..<7).contains(x) && (1..<5).contains(y)
                    if !inside {
                        #expect(bitmap.pixel(x: x, y: y) == original, "(\(x), \(y)) outside the area changed")
                    } else if x < 5, y >= 2 {  // moved from (x + 2, y - 1)
                        #expect(bitmap.pixel(x: x, y: y) == UInt32(0xFF00_0000 | ((y - 1) << 8) | (x + 2)), "(\(x), \(y))")
                    } else {  // the uncovered strips keep their pixels
                        #expect(bitmap.pixel(x: x, y: y) == original, "(\(x), \(y)) in the uncovered strip")
                    }
                }
            }
            bitmap.movePixels(dx: 5, dy: 0, insideColumns: 2..<7, rows: 0..<6)  // as wide as the area: nothing
            #expect(bitmap.pixel(x: 2, y: 0) == 0xFF00_0002)
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

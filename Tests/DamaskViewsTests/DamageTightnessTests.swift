import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Damage equals exactly the pixels a change can affect: no more, no less.
extension ViewsTests {
    @Suite("Damage tightness", .shared, .timeLimit(.minutes(5))) @MainActor struct DamageTightness {
        /// A progress bar that invalidates only the strip between the old and new value.
        final class ProgressBar: View {
            var progress: CGFloat = 0 {
                didSet {
                    let lower = min(oldValue, progress) * bounds.width
                    let upper = max(oldValue, progress) * bounds.width
                    setNeedsDisplay(CGRect(x: lower, y: 0, width: upper - lower, height: bounds.height))
                }
            }
            override func draw(_ rect: CGRect) {
                let context = GraphicsContext.current!
                context.setFillColor(.gray)
                context.fill(bounds)
                context.setFillColor(.blue)
                context.fill(CGRect(x: 0, y: 0, width: progress * bounds.width, height: bounds.height))
            }
        }

        @Test("A progress bar step damages only the strip that changed")
        func progressBarStepDamagesOnlyTheStrip() async {
            let h = Harness(width: 200, height: 50)
            let bar = ProgressBar(frame: CGRect(x: 20, y: 10, width: 100, height: 8))
            bar.progress = 0.3
            h.root.addSubview(bar)
            await h.settle()
            bar.progress = 0.4
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 50, y: 10, width: 10, height: 8)))
            #expect(Color.blue.matches(h.screenColor(55, 12)))
            #expect(Color.gray.matches(h.screenColor(61, 12)))
        }

        @Test("A 2×16 cursor blink damages exactly the cursor's 32 pixels")
        func cursorBlinkDamagesExactlyTheCursor() async {
            let h = Harness(width: 200, height: 50)
            let cursor = PlainView(frame: CGRect(x: 57, y: 12, width: 2, height: 16))
            cursor.backgroundColor = .black
            h.root.addSubview(cursor)
            await h.settle()
            for _ in 0..<4 {
                cursor.isHidden.toggle()
                await h.step()
                #expect(h.lastDamage == Region(CGRect(x: 57, y: 12, width: 2, height: 16)))
                #expect(h.lastDamage.area == 32)
            }
        }

        @Test("A 50×50 box moving 3 px damages the union of its old and new frames")
        func movingBoxDamagesOldAndNewFrames() async {
            let h = Harness(width: 200, height: 120)
            let box = SolidView(frame: CGRect(x: 10, y: 20, width: 50, height: 50), color: .red)
            h.root.addSubview(box)
            await h.settle()
            box.center.x += 3
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 10, y: 20, width: 53, height: 50)))
            #expect(box.drawCount == 1)
            box.center.y += 3
            await h.step()
            #expect(
                h.lastDamage
                    == Region(rects: [
                        CGRect(x: 13, y: 20, width: 50, height: 50), CGRect(x: 13, y: 23, width: 50, height: 50),
                    ]))
        }

        @Test("A moving box at scale 2 damages the same area in buffer pixels")
        func movingBoxAtScaleTwoDamagesBufferPixels() async {
            let h = Harness(width: 100, height: 60, scale: 2)
            let box = SolidView(frame: CGRect(x: 10, y: 20, width: 20, height: 20), color: .red)
            h.root.addSubview(box)
            await h.settle()
            box.center.x += 3
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 20, y: 40, width: 46, height: 40)))
        }

        @Test("At a fractional scale damage is the moved area in buffer pixels, rounded outwards")
        func fractionalScaleDamageRoundsOutwards() async {
            let h = Harness(width: 100, height: 60, scale: 1.5)
            let box = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: .red)
            h.root.addSubview(box)
            await h.settle()
            box.center.x += 2  // 3 buffer pixels
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 15, y: 15, width: 33, height: 30)))
            box.center.x += 1  // 1.5 buffer pixels: edges land mid-pixel
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 18, y: 15, width: 32, height: 30)))
        }

        @Test("Showing a hidden view damages exactly its frame")
        func showingHiddenViewDamagesItsFrame() async {
            let h = Harness(width: 200, height: 120)
            let panel = SolidView(frame: CGRect(x: 30, y: 40, width: 25, height: 15), color: .green)
            panel.isHidden = true
            h.root.addSubview(panel)
            await h.settle()
            panel.isHidden = false
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 30, y: 40, width: 25, height: 15)))
            #expect(Color.green.matches(h.screenColor(31, 41)))
        }

        @Test("A window resize damages the whole new buffer")
        func windowResizeDamagesTheWholeBuffer() async {
            let h = Harness(width: 100, height: 80)
            await h.settle()
            h.surface.resize(to: CGSize(width: 120, height: 90))
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 120, height: 90)))
            #expect(h.surface.commits.last?.width == 120)
            #expect(h.window.contentView.frame == CGRect(x: 0, y: 0, width: 120, height: 90))
        }

        @Test("A container without paint moving with its children damages only the children")
        func unpaintedContainerDamagesOnlyItsChildren() async {
            let h = Harness(width: 200, height: 120)
            let container = PlainView(frame: CGRect(x: 0, y: 0, width: 150, height: 100))
            let child = SolidView(frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: .red)
            container.addSubview(child)
            h.root.addSubview(container)
            await h.settle()
            container.center.x += 1
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 10, y: 10, width: 11, height: 10)))
        }

        @Test("An idle window commits nothing and requests no frames")
        func idleWindowCommitsNothing() async {
            let h = Harness()
            h.root.addSubview(SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)))
            await h.settle()
            let commits = h.commitCount
            let requests = h.surface.frameRequestCount
            for _ in 0..<5 { await nextTurn() }
            #expect(h.commitCount == commits)
            #expect(h.surface.frameRequestCount == requests)
            // A change that leaves the pixels the same sends no commit either.
            h.root.subviews[0].backgroundColor = nil
            await h.step()
            #expect(h.commitCount == commits)
        }

        @Test("Layers outside the repaint region are not painted at all")
        func layersOutsideRepaintRegionCostNothing() async {
            let h = Harness(width: 200, height: 200)
            var boxes: [SolidView] = []
            for row in 0..<10 {
                for column in 0..<10 {
                    let box = SolidView(frame: CGRect(x: column * 20, y: row * 20, width: 10, height: 10))
                    boxes.append(box)
                    h.root.addSubview(box)
                }
            }
            await h.settle()
            let before = h.window.statistics.paintedLayerCount
            boxes[0].center.x += 1
            h.window.flush()  // synchronous: no other test can composite meanwhile
            // The root layer's background and the moved box; the other 99 boxes are skipped.
            #expect(h.window.statistics.paintedLayerCount - before == 2)
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 11, height: 10)))
        }

        @Test("Moving a view to another parent keeps its contents: no redraw")
        func reparentingKeepsContents() async {
            let h = Harness()
            let first = PlainView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            let second = PlainView(frame: CGRect(x: 50, y: 0, width: 50, height: 50))
            let box = SolidView(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            first.addSubview(box)
            h.root.addSubview(first)
            h.root.addSubview(second)
            await h.settle()
            second.addSubview(box)
            await h.step()
            #expect(box.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(60, 10)))
            #expect(
                h.lastDamage
                    == Region(rects: [
                        CGRect(x: 5, y: 5, width: 10, height: 10), CGRect(x: 55, y: 5, width: 10, height: 10),
                    ]))
        }

        @Test("Setting the same contents bitmap again repaints the layer")
        func resettingContentsRepaints() async throws {
            let h = Harness()
            let bitmap = try Bitmap(width: 4, height: 4)
            bitmap.fill(.green)
            let layer = Layer()
            layer.frame = CGRect(x: 10, y: 10, width: 4, height: 4)
            layer.contents = bitmap
            h.root.layer.addSublayer(layer)
            await h.settle()
            bitmap.fill(.blue)
            layer.contents = bitmap
            await h.step()
            #expect(Color.blue.matches(h.screenColor(11, 11)))
            #expect(h.lastDamage == Region(CGRect(x: 10, y: 10, width: 4, height: 4)))
        }
    

        /// A strip of cells, each drawn in its own colour; a changed cell invalidates itself.
        final class CellStrip: View {
            var colors: [Color]
            private(set) var drawnRects: [CGRect] = []
            init(frame: CGRect, count: Int) {
                colors = Array(repeating: .gray, count: count)
                super.init(frame: frame)
            }
            var cellWidth: CGFloat { bounds.width / CGFloat(colors.count) }
            func set(_ index: Int, to color: Color) {
                colors[index] = color
                setNeedsDisplay(CGRect(x: CGFloat(index) * cellWidth, y: 0, width: cellWidth, height: bounds.height))
            }
            override func draw(_ rect: CGRect) {
                drawnRects.append(rect)
                let context = GraphicsContext.current!
                for (index, color) in colors.enumerated() {
                    context.setFillColor(color)
                    context.fill(CGRect(x: CGFloat(index) * cellWidth, y: 0, width: cellWidth, height: bounds.height))
                }
            }
        }

        @Test("Two changes far apart in one view draw once and damage the two rects, not the pixels between them")
        func separateRectsOfOneViewDamageSeparately() async {
            let h = Harness(width: 200, height: 50)
            let strip = CellStrip(frame: CGRect(x: 0, y: 10, width: 200, height: 10), count: 20)
            h.root.addSubview(strip)
            await h.settle()
            // A cell in the middle changes without being invalidated: drawing must not show it.
            strip.colors[10] = .red
            strip.set(1, to: .blue)
            strip.set(18, to: .blue)
            await h.step()
            #expect(
                h.lastDamage
                    == Region(rects: [CGRect(x: 10, y: 10, width: 10, height: 10), CGRect(x: 180, y: 10, width: 10, height: 10)]))
            #expect(strip.drawnRects.count == 2)  // the first frame and this one
            #expect(strip.drawnRects.last == CGRect(x: 10, y: 0, width: 180, height: 10))
            #expect(Color.blue.matches(h.screenColor(15, 15)))
            #expect(Color.blue.matches(h.screenColor(185, 15)))
            #expect(Color.gray.matches(h.screenColor(105, 15)))  // clipped: not redrawn
        }

        @Test("More separate rects than the limit redraw and damage their bounding box")
        func manySeparateRectsDamageTheirBoundingBox() async {
            let h = Harness(width: 200, height: 50)
            let strip = CellStrip(frame: CGRect(x: 0, y: 10, width: 200, height: 10), count: 20)
            h.root.addSubview(strip)
            await h.settle()
            for index in stride(from: 0, to: 2 * (Layer.dirtyPieceLimit + 1), by: 2) { strip.set(index, to: .blue) }
            await h.step()
            let last = 2 * Layer.dirtyPieceLimit
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 10, width: CGFloat(last + 1) * 10, height: 10)))
        }

        @Test("A rect inside one already marked adds no piece; a whole-view mark wins over pieces")
        func coveredRectsAndWholeViewMarks() async {
            let h = Harness(width: 200, height: 50)
            let strip = CellStrip(frame: CGRect(x: 0, y: 10, width: 200, height: 10), count: 20)
            h.root.addSubview(strip)
            await h.settle()
            strip.set(2, to: .blue)
            strip.set(2, to: .green)
            #expect(strip.layer.dirtyPieces.isEmpty)
            strip.set(15, to: .blue)
            #expect(strip.layer.dirtyPieces.count == 2)
            strip.setNeedsDisplay()
            #expect(strip.layer.dirtyPieces.isEmpty)
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 10, width: 200, height: 10)))
        }

        @Test("A rect that covers pieces marked before it replaces them (a caret, then the strip around it): covering all leaves one dirty rect, covering some leaves the others with it; the damage is the exact union")
        func coveringRectReplacesPieces() async {
            let h = Harness(width: 200, height: 50)
            let strip = CellStrip(frame: CGRect(x: 0, y: 10, width: 200, height: 10), count: 20)
            h.root.addSubview(strip)
            await h.settle()
            strip.set(2, to: .blue)
            strip.set(4, to: .blue)
            #expect(strip.layer.dirtyPieces.count == 2)
            strip.setNeedsDisplay(CGRect(x: 15, y: 0, width: 40, height: 10))  // cells 2 and 4, and more
            #expect(strip.layer.dirtyPieces.isEmpty)
            #expect(strip.layer.dirtyRect == CGRect(x: 15, y: 0, width: 40, height: 10))
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 15, y: 10, width: 40, height: 10)))
            strip.set(2, to: .green)
            strip.setNeedsDisplay(CGRect(x: 10, y: 0, width: 30, height: 10))  // a single rect covered
            #expect(strip.layer.dirtyPieces.isEmpty)
            #expect(strip.layer.dirtyRect == CGRect(x: 10, y: 0, width: 30, height: 10))
            await h.step()
            strip.set(2, to: .blue)
            strip.set(9, to: .green)
            strip.set(15, to: .green)
            #expect(strip.layer.dirtyPieces.count == 3)
            strip.setNeedsDisplay(CGRect(x: 85, y: 0, width: 80, height: 10))  // covers cells 9 and 15
            #expect(strip.layer.dirtyPieces.count == 2)
            await h.step()
            #expect(h.lastDamage == Region(CGRect(x: 20, y: 10, width: 10, height: 10)).union(CGRect(x: 85, y: 10, width: 80, height: 10)))
        }
    }
}

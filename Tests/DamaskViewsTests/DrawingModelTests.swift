import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// One test (at least) per rule of the drawing model (docs/drawing-model.md; the rule
/// numbers are the seed design's).
extension ViewsTests {
    @Suite("Drawing model", .exclusive, .timeLimit(.minutes(5))) @MainActor struct DrawingModel {
        // Rule 1
        @Test("Rule 1: draw receives the dirty rect, clipped, with the bounds origin as origin")
        func drawReceivesDirtyRectClippedAtBoundsOrigin() async throws {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 40, height: 30), color: .red)
            h.root.addSubview(view)
            await h.settle()
            #expect(view.drawnRects == [CGRect(x: 0, y: 0, width: 40, height: 30)])

            view.color = .blue
            view.setNeedsDisplay(CGRect(x: 5, y: 5, width: 10, height: 10))
            await h.step()
            #expect(view.drawnRects.last == CGRect(x: 5, y: 5, width: 10, height: 10))
            // The fill covered the whole bounds but only the dirty rect changed.
            #expect(Color.blue.matches(h.screenColor(20, 20)))
            #expect(Color.red.matches(h.screenColor(12, 12)))
            #expect(Color.red.matches(h.screenColor(30, 30)))

            // The context's origin is the bounds origin.
            let shifted = SolidView(frame: CGRect(x: 60, y: 10, width: 20, height: 20))
            shifted.bounds.origin = CGPoint(x: 100, y: 100)
            shifted.onDraw = { _ in
                GraphicsContext.current?.setFillColor(.green)
                GraphicsContext.current?.fill(CGRect(x: 100, y: 100, width: 1, height: 1))
            }
            shifted.color = .clear
            h.root.addSubview(shifted)
            await h.step()
            #expect(Color.green.matches(h.screenColor(60, 10)))
            #expect(!Color.green.matches(h.screenColor(61, 11)))
        }

        // Rule 2
        @Test("Rule 2: a view is first drawn when it first becomes visible in a window")
        func firstDisplayHappensWhenVisibleInWindow() async {
            let h = Harness()
            await h.settle()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            await nextTurn()
            #expect(view.drawCount == 0)
            view.isHidden = true
            h.root.addSubview(view)
            await nextTurn()
            await h.step()
            #expect(view.drawCount == 0)
            view.isHidden = false
            await nextTurn()
            await h.step()
            #expect(view.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(5, 5)))
        }

        // Rule 3
        @Test("Rule 3: three setNeedsDisplay in one turn draw once, with the last state")
        func repeatedInvalidationsInOneTurnDrawOnceWithLastState() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            var colorsSeen: [Color] = []
            view.onDraw = { [unowned view] _ in colorsSeen.append(view.color) }
            for color in [Color.green, .blue, .yellow] {
                view.color = color
                view.setNeedsDisplay()
            }
            #expect(view.drawCount == 1)  // only recorded so far
            await h.step()
            #expect(view.drawCount == 2)
            #expect(colorsSeen == [.yellow])
            #expect(Color.yellow.matches(h.screenColor(10, 10)))
        }

        @Test("Rule 3: two dirty rects draw once with their union; only the two rects are redrawn and damaged")
        func twoDirtyRectsDrawTheirUnionOnce() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 60, height: 40), color: .red)
            h.root.addSubview(view)
            await h.settle()
            let commitsBefore = h.commitCount
            view.color = .blue
            view.setNeedsDisplay(CGRect(x: 5, y: 5, width: 10, height: 10))
            view.setNeedsDisplay(CGRect(x: 50, y: 30, width: 20, height: 20))  // sticks out
            await h.step()
            #expect(view.drawCount == 2)
            let union = CGRect(x: 5, y: 5, width: 55, height: 35)
            #expect(view.drawnRects.last == union)
            #expect(h.commitCount == commitsBefore + 1)
            // The context is clipped to the two rects (as AppKit's getRectsBeingDrawn), so the
            // pixels between them keep their colour and are not damaged.
            #expect(
                h.lastDamage
                    == Region(rects: [
                        CGRect(x: 15, y: 15, width: 10, height: 10), CGRect(x: 60, y: 40, width: 10, height: 10),
                    ]))
            #expect(Color.red.matches(h.screenColor(40, 20)))
            #expect(Color.blue.matches(h.screenColor(16, 16)))
            #expect(Color.blue.matches(h.screenColor(69, 49)))
            #expect(Color.red.matches(h.screenColor(12, 12)))
            #expect(Color.red.matches(h.screenColor(69, 12)))
        }

        @Test("Rule 3: setNeedsDisplay only records; nothing is drawn before the pass")
        func setNeedsDisplayOnlyRecords() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            view.setNeedsDisplay()
            view.setNeedsDisplay(CGRect(x: 0, y: 0, width: 2, height: 2))
            #expect(view.drawCount == 1)
            #expect(view.layer.needsDisplay)
        }

        @Test("Rule 3: the pass queued by a turn's first invalidation runs before later-queued work")
        func passQueuedByFirstInvalidationRunsBeforeLaterWork() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            view.setNeedsDisplay()
            var drawsSeenByLaterWork = -1
            DispatchQueue.main.async { drawsSeenByLaterWork = view.drawCount }
            view.color = .blue  // still the same turn: part of the same pass
            view.setNeedsDisplay()
            await nextTurn()
            #expect(drawsSeenByLaterWork == 2)
            #expect(view.drawCount == 2)
            #expect(Color.blue.matches(h.screenColor(5, 5)))
        }

        // Rule 4
        @Test("Rule 4: layout runs before display in the same pass")
        func layoutRunsBeforeDisplayInTheSamePass() async {
            let h = Harness()
            final class Container: View {
                var log: [String] = []
                let child = SolidView(frame: .zero)
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    child.contentMode = .redraw  // draws to its size, so a new width redraws
                    addSubview(child)
                    child.onDraw = { [unowned self] rect in
                        self.log.append("draw \(Int(rect.width))")
                    }
                }
                override func layoutSubviews() {
                    log.append("layout")
                    child.frame = CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height)
                }
            }
            let container = Container(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
            h.root.addSubview(container)
            await nextTurn()
            #expect(container.log == ["layout", "draw 20"])
            #expect(h.commitCount == 1)
            container.frame.size.width = 60
            await h.step()
            #expect(container.log == ["layout", "draw 20", "layout", "draw 30"])
            #expect(h.commitCount == 2)
        }

        // Rule 5
        @Test("Rule 5: displayIfNeeded on a clean view calls no draw; on a marked one draws now")
        func displayIfNeededDrawsOnlyWhenMarked() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            view.displayIfNeeded()
            #expect(view.drawCount == 1)
            view.setNeedsDisplay()
            view.displayIfNeeded()
            #expect(view.drawCount == 2)
            view.displayIfNeeded()
            #expect(view.drawCount == 2)
        }

        // Rule 6
        @Test("Rule 6: displayNow has drawn before it returns; flush commits at once")
        func displayNowDrawsBeforeReturningAndFlushCommits() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await nextTurn()  // first commit; a frame callback is now outstanding
            #expect(h.surface.hasPendingFrameRequest)
            view.color = .blue
            view.displayNow()
            #expect(view.drawCount == 2)
            #expect(h.commitCount == 1)
            h.window.flush()
            #expect(h.commitCount == 2)
            #expect(Color.blue.matches(h.screenColor(5, 5)))
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 20, height: 20)))
        }

        // Rule 7
        @Test("Rule 7: a standalone layer with a drawing delegate works without a view")
        func standaloneLayerWithDelegateDraws() throws {
            final class CircleDrawer: LayerDelegate {
                var draws = 0
                func draw(_ layer: Layer, in context: GraphicsContext) {
                    draws += 1
                    context.setFillColor(.red)
                    context.fillEllipse(in: layer.bounds)
                }
            }
            let drawer = CircleDrawer()
            let blue = Layer()
            blue.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            blue.backgroundColor = .blue
            blue.delegate = drawer
            #expect(blue.contents == nil)
            blue.display()
            #expect(drawer.draws == 1)
            let contents = try #require(blue.contents)
            #expect(contents.width == 40)
            #expect(Color.red.matches(contents.color(x: 20, y: 20)))
            let image = try blue.renderImage()
            #expect(Color.red.matches(image.color(x: 20, y: 20)))
            #expect(Color.blue.matches(image.color(x: 1, y: 1)))
        }

        @Test("Rule 7: a delegate that implements display(_:) sets contents and gets no store")
        func displayingDelegateSetsContentsWithoutBackingStore() throws {
            final class Supplier: LayerDelegate {
                let bitmap: Bitmap
                init() throws {
                    bitmap = try Bitmap(width: 8, height: 8)
                    bitmap.fill(.green)
                }
                func display(_ layer: Layer) { layer.contents = bitmap }
            }
            let supplier = try Supplier()
            let layer = Layer()
            layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            layer.delegate = supplier
            layer.display()
            #expect(layer.contents === supplier.bitmap)
            #expect(layer.backingStoreByteCount == 0)
        }

        @Test("Rule 7: backing stores are bounds × contentsScale and freed on leaving the tree")
        func backingStoreSizeFollowsScaleAndIsFreedOnRemoval() async throws {
            let h = Harness(scale: 2)
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 15, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            let store = try #require(view.layer.contents)
            #expect(store.width == 30 && store.height == 20)
            #expect(view.layer.backingStoreByteCount == 30 * 20 * 4)
            let before = h.window.statistics.liveBackingStoreBytes
            view.removeFromSuperview()
            #expect(view.layer.backingStoreByteCount == 0)
            #expect(h.window.statistics.liveBackingStoreBytes == before - 30 * 20 * 4)
        }

        // Rule 8
        @Test("Rule 8: a view that does not override draw allocates no backing store")
        func nonDrawingViewAllocatesNoBackingStore() async {
            let h = Harness()
            // Teach the window that PlainView does not draw.
            h.root.addSubview(PlainView(frame: CGRect(x: 0, y: 0, width: 5, height: 5)))
            await h.settle()
            let bytesBefore = h.window.statistics.liveBackingStoreBytes
            let allocationsBefore = h.window.statistics.backingStoreAllocationCount
            var views: [PlainView] = []
            for index in 0..<10 {
                let view = PlainView(frame: CGRect(x: index * 8, y: 10, width: 8, height: 8))
                view.backgroundColor = .green
                views.append(view)
                h.root.addSubview(view)
            }
            h.window.flush()  // synchronous: no other test can allocate meanwhile
            #expect(h.window.statistics.backingStoreAllocationCount == allocationsBefore)
            #expect(h.window.statistics.liveBackingStoreBytes == bytesBefore)
            #expect(views.allSatisfy { $0.layer.backingStoreByteCount == 0 && $0.layer.contents == nil })
            // The background is painted by compositing.
            #expect(Color.green.matches(h.screenColor(3, 13)))
        }

        // Rule 9
        @Test("Rule 9: contents are cached; a redisplay with nothing invalidated calls no draw")
        func redisplayWithoutInvalidationCallsNoDraw() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            h.window.setNeedsDisplay()  // recomposite everything
            h.window.flush()
            #expect(view.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(10, 10)))
            #expect(h.lastDamage == Region(CGRect(x: 0, y: 0, width: 100, height: 80)))
            h.window.displayIfNeeded()
            #expect(view.drawCount == 1)
        }

        // Rule 10
        @Test("Rule 10: a bounds change redraws with .redraw")
        func boundsChangeRedrawsWithRedrawMode() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            view.contentMode = .redraw
            h.root.addSubview(view)
            await h.settle()
            view.frame.size = CGSize(width: 30, height: 20)
            await h.step()
            #expect(view.drawCount == 2)
            #expect(view.drawnRects.last == CGRect(x: 0, y: 0, width: 30, height: 20))
        }

        @Test("Rule 10: a bounds change with .scaleToFill stretches the cached contents")
        func boundsChangeStretchesWithScaleToFill() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
            view.contentMode = .scaleToFill
            view.onDraw = { _ in
                // Left half red, right half blue.
                GraphicsContext.current?.setFillColor(.blue)
                GraphicsContext.current?.fill(CGRect(x: 10, y: 0, width: 10, height: 10))
            }
            view.color = .red
            h.root.addSubview(view)
            await h.settle()
            #expect(Color.blue.matches(h.screenColor(15, 5)))
            view.frame.size = CGSize(width: 40, height: 10)
            await h.step()
            #expect(view.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(15, 5)))  // the red half now spans 0..<20
            #expect(Color.blue.matches(h.screenColor(35, 5)))
        }

        @Test("Rule 10: .center and .topLeft place the cached contents without drawing")
        func centerAndTopLeftPlaceCachedContents() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            view.contentMode = .center
            h.root.addSubview(view)
            await h.settle()
            view.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
            await h.step()
            #expect(view.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(15, 15)))
            #expect(!Color.red.matches(h.screenColor(5, 5)))
            view.contentMode = .topLeft
            await h.step()
            #expect(view.drawCount == 1)
            #expect(Color.red.matches(h.screenColor(5, 5)))
            #expect(!Color.red.matches(h.screenColor(15, 15)))
        }

        // Rule 11
        @Test("Rule 11: background, alpha, hidden, move and transform changes call no draw")
        func compositingPropertyChangesCallNoDraw() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            var commits = h.commitCount
            let changes: [(String, () -> Void)] = [
                ("background", { view.backgroundColor = .green }),
                ("alpha", { view.alpha = 0.5 }),
                ("hidden", { view.isHidden = true }),
                ("shown", { view.isHidden = false }),
                ("move", { view.center.x += 7 }),
                ("transform", { view.transform = CGAffineTransform(scaleX: 2, y: 2) }),
            ]
            for (name, change) in changes {
                change()
                await h.step()
                #expect(h.commitCount == commits + 1, "\(name) should repaint")
                #expect(!h.lastDamage.isEmpty, "\(name) should damage")
                commits = h.commitCount
            }
            #expect(view.drawCount == 1)
        }

        // Rule 12
        @Test("Rule 12: changes of one explicit transaction, across turns, land in one commit")
        func explicitTransactionBatchesChangesAcrossTurns() async {
            let h = Harness()
            let a = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let b = SolidView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
            h.root.addSubview(a)
            h.root.addSubview(b)
            await h.settle()
            let commits = h.commitCount
            Transaction.begin()
            a.color = .blue
            a.setNeedsDisplay()
            await nextTurn()
            Transaction.begin()  // nested
            b.color = .blue
            b.setNeedsDisplay()
            Transaction.commit()
            await nextTurn()
            #expect(h.commitCount == commits)
            Transaction.commit()
            await nextTurn()
            #expect(h.commitCount == commits + 1)
            #expect(Color.blue.matches(h.screenColor(5, 5)))
            #expect(Color.blue.matches(h.screenColor(25, 5)))
            #expect(
                h.lastDamage
                    == Region(rects: [
                        CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 20, y: 0, width: 10, height: 10),
                    ]))
        }

        @Test("Rule 12: an open transaction holds back only the windows changed while it is open")
        func openTransactionHoldsOnlyTheWindowsItChanged() async {
            let held = Harness(), other = Harness()
            let a = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let b = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            held.root.addSubview(a)
            other.root.addSubview(b)
            await held.settle()
            await other.settle()
            let (heldCommits, otherCommits) = (held.commitCount, other.commitCount)
            Transaction.begin()
            a.color = .blue
            a.setNeedsDisplay()
            await nextTurn()
            b.color = .blue
            b.setNeedsDisplay()
            Transaction.commit()  // b changed inside too: both are held until here
            await nextTurn()
            #expect(held.commitCount == heldCommits + 1)
            #expect(other.commitCount == otherCommits + 1)

            // A window nothing touched inside the transaction presents while it is open.
            Transaction.begin()
            a.setNeedsDisplay()
            await nextTurn()
            #expect(held.window.isHeldByTransaction)
            #expect(!other.window.isHeldByTransaction)
            await held.step()  // the frame callback of the first commit; the change still waits
            let stillHeld = held.commitCount
            Transaction.commit()
            #expect(!held.window.isHeldByTransaction)
            await held.step()
            #expect(held.commitCount == stillHeld + 1)
            #expect(!Transaction.isOpen)
        }

        @Test("Every window discovers by itself which views do not draw, so two windows count the same draws")
        func nonDrawingViewsAreLearnedPerWindow() async {
            var counts: [Int] = []
            for _ in 0..<2 {
                let h = Harness()
                let plain = PlainView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                h.root.addSubview(plain)
                await h.settle()
                plain.setNeedsDisplay()
                await h.step()
                counts.append(plain.layer.displayCount)
            }
            #expect(counts[0] == counts[1], "display counts per window: \(counts)")
            #expect(counts[0] == 1, "the first display learns the view does not draw; the second skips it")
        }

        @Test("Rule 12: the implicit transaction of a turn presents its changes in one commit")
        func implicitTransactionPresentsATurnInOneCommit() async {
            let h = Harness()
            let views = (0..<4).map { SolidView(frame: CGRect(x: $0 * 10, y: 0, width: 10, height: 10)) }
            views.forEach(h.root.addSubview)
            await h.settle()
            let commits = h.commitCount
            for view in views {
                view.color = .green
                view.setNeedsDisplay()
                view.center.y += 1
            }
            await h.step()
            #expect(h.commitCount == commits + 1)
            #expect(views.allSatisfy { $0.drawCount == 2 })
        }

        @Test("Rule 12: Transaction.flush presents at once")
        func transactionFlushPresentsAtOnce() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await nextTurn()
            let commits = h.commitCount
            view.backgroundColor = .blue
            Transaction.flush()
            #expect(h.commitCount == commits + 1)
        }

        // Rule 13
        @Test("Rule 13: a change made after awaiting background work is presented in that turn")
        func changeAfterBackgroundAwaitIsPresentedInTheSameTurn() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            let commits = h.commitCount
            let value = await Task.detached { () -> Int in
                (1...1000).reduce(0, +)
            }.value
            view.color = value == 500_500 ? .green : .black
            view.setNeedsDisplay()
            await nextTurn()
            #expect(h.commitCount == commits + 1)
            #expect(Color.green.matches(h.screenColor(5, 5)))
        }

        @Test("Rule 13: afterNextDisplay runs once, right after the next display pass")
        func afterNextDisplayRunsOnceAfterThePass() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            var seen: [Int] = []
            h.window.afterNextDisplay { seen.append(view.drawCount) }
            #expect(seen.isEmpty)
            await nextTurn()
            #expect(seen == [1])
            await nextTurn()
            h.frame()
            #expect(seen == [1])
        }

        // Rule 14
        @Test("Rule 14: a display link gets a callback per frame only while active")
        func displayLinkRunsOnlyWhileActive() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            #expect(!h.surface.hasPendingFrameRequest)
            var stamps: [UInt32] = []
            let link = DisplayLink(window: h.window) { _, timestamp in
                stamps.append(timestamp)
                view.center.x += 1
                view.displayNow()
            }
            #expect(h.surface.hasPendingFrameRequest)
            let commits = h.commitCount
            h.surface.fireFrame(timestamp: 100)
            h.surface.fireFrame(timestamp: 116)
            #expect(stamps == [100, 116])
            #expect(h.commitCount == commits + 2)
            link.isPaused = true
            h.surface.fireFrame(timestamp: 132)  // the request made before pausing
            #expect(stamps == [100, 116])
            #expect(!h.surface.hasPendingFrameRequest)
            link.isPaused = false
            #expect(h.surface.hasPendingFrameRequest)
            h.surface.fireFrame(timestamp: 148)
            #expect(stamps == [100, 116, 148])
            link.invalidate()
            h.frame()
            #expect(!h.surface.hasPendingFrameRequest)
        }

        // Rule 15
        @Test("Rule 15: hit testing skips hidden, transparent and non-interactive views")
        func hitTestingSkipsHiddenTransparentAndNonInteractiveViews() {
            let h = Harness()
            let back = PlainView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            let front = PlainView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            h.root.addSubview(back)
            h.root.addSubview(front)
            let point = CGPoint(x: 10, y: 10)
            #expect(h.window.hitTest(point) === front)
            front.isHidden = true
            #expect(h.window.hitTest(point) === back)
            front.isHidden = false
            front.alpha = 0.009
            #expect(h.window.hitTest(point) === back)
            front.alpha = 0.01
            #expect(h.window.hitTest(point) === front)
            front.isUserInteractionEnabled = false
            #expect(h.window.hitTest(point) === back)
            #expect(h.window.hitTest(CGPoint(x: 70, y: 70)) === h.root)
        }

        @Test("Rule 15: events climb the responder chain to the application")
        func eventsClimbTheResponderChain() {
            let h = Harness()
            final class Recorder: View {
                var log: [String] = []
                let consumes: Bool
                init(frame: CGRect, consumes: Bool) {
                    self.consumes = consumes
                    super.init(frame: frame)
                }
                override func pointerDown(_ event: PointerEvent) {
                    log.append("down")
                    if !consumes { super.pointerDown(event) }
                }
            }
            let outer = Recorder(frame: CGRect(x: 0, y: 0, width: 50, height: 50), consumes: true)
            let inner = Recorder(frame: CGRect(x: 10, y: 10, width: 10, height: 10), consumes: false)
            outer.addSubview(inner)
            h.root.addSubview(outer)
            #expect(inner.next === outer)
            #expect(h.root.next === h.window)
            #expect(h.window.next === Application.shared)
            h.window.dispatch(.pointer(PointerEvent(kind: .moved, location: CGPoint(x: 15, y: 15))))
            h.window.dispatch(.pointer(PointerEvent(kind: .down, location: CGPoint(x: 15, y: 15), button: .left)))
            #expect(inner.log == ["down"])
            #expect(outer.log == ["down"])
            let unhandled = Application.shared.unhandledEventCount
            h.window.dispatch(.pointer(PointerEvent(kind: .up, location: CGPoint(x: 15, y: 15), button: .left)))
            #expect(Application.shared.unhandledEventCount == unhandled + 1)
        }
    }
}

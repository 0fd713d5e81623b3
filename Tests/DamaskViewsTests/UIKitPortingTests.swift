// Deliberately imports neither DamaskGraphics nor Foundation: `import DamaskViews` brings
// what a `draw(_:)` needs (Color, GraphicsContext, Bitmap, CGRect), as `import UIKit` does.
import Testing

@testable import DamaskViews

/// A view that supplies its contents in `display(_:)`, as UIKit views may.
private final class ContentsView: View {
    var drawCalls = 0
    var displayCalls = 0
    override func display(_ layer: Layer) {
        displayCalls += 1
        guard let bitmap = try? Bitmap(width: 10, height: 10) else { return }
        bitmap.fill(.blue)
        layer.contents = bitmap
    }
    override func draw(_ rect: CGRect) {
        drawCalls += 1
        GraphicsContext.current?.setFillColor(.red)
        GraphicsContext.current?.fill(bounds)
    }
}

/// A view whose `draw(_:)` calls `super` first, as Apple's documentation allows.
private final class SuperCallingView: View {
    var drawCalls = 0
    override func draw(_ rect: CGRect) {
        super.draw(rect)
        drawCalls += 1
        GraphicsContext.current?.setFillColor(.green)
        GraphicsContext.current?.fill(bounds)
    }
}

/// A view that draws only once it has something to show, and calls `super` first.
private final class ConditionalView: View {
    var isOn = false
    override func draw(_ rect: CGRect) {
        super.draw(rect)
        guard isOn, let context = GraphicsContext.current else { return }
        context.setFillColor(.yellow)
        context.fill(bounds)
    }
}

/// A view far wider than even a tiled store may be, filled red on the left and blue elsewhere.
private final class HugeView: View {
    var drawCalls = 0
    override func draw(_ rect: CGRect) {
        drawCalls += 1
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(.blue)
        context.fill(bounds)
        context.setFillColor(.red)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: bounds.height))
    }
}

extension ViewsTests {
    @Suite("UIKit ports: no silent traps") @MainActor struct UIKitPorting {
        @Test("A view overriding display(_:) is displayed by it: no draw(_:), no backing store")
        func displayOverrideIsUsedInsteadOfDrawing() async {
            let h = Harness()
            let view = ContentsView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            await h.settle()
            #expect(view.displayCalls == 1)
            #expect(view.drawCalls == 0)
            #expect(view.layer.backingStoreByteCount == 0)
            #expect(view.layer.contents != nil)
            #expect(Color.blue.matches(h.screenColor(5, 5)))
        }

        @Test("super.draw from an override is harmless: the class draws, in a second instance too")
        func superDrawKeepsTheClassDrawing() async {
            let h = Harness()
            let first = SuperCallingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(first)
            await h.settle()
            #expect(first.drawCalls == 1)
            #expect(first.layer.backingStoreByteCount == 10 * 10 * 4)
            #expect(Color.green.matches(h.screenColor(5, 5)))
            let second = SuperCallingView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
            h.root.addSubview(second)
            await h.step()
            #expect(second.drawCalls == 1)
            #expect(Color.green.matches(h.screenColor(25, 5)))
            first.setNeedsDisplay()
            await h.step()
            #expect(first.drawCalls == 2)
            #expect(Color.green.matches(h.screenColor(5, 5)))
        }

        @Test("A class whose first drawing was empty still draws once it has something to draw")
        func detectionNeverDisablesAClassThatDraws() async {
            let h = Harness()
            let empty = ConditionalView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(empty)
            await h.settle()
            #expect(empty.layer.backingStoreByteCount == 0)
            // A later instance of the same class draws.
            let later = ConditionalView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
            later.isOn = true
            h.root.addSubview(later)
            await h.step()
            #expect(Color.yellow.matches(h.screenColor(25, 5)))
            // And so does the first one once it has something to show.
            empty.isOn = true
            empty.setNeedsDisplay()
            await h.step()
            #expect(Color.yellow.matches(h.screenColor(5, 5)))
        }

        @Test("A plain view still gets no backing store after a redisplay (the probe allocates none)")
        func plainViewStaysWithoutStoreWhenRedisplayed() async {
            let h = Harness()
            let plain = PlainView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(plain)
            await h.settle()
            let allocations = Layer.backingStoreAllocationCount
            plain.setNeedsDisplay()
            h.window.flush()
            #expect(Layer.backingStoreAllocationCount == allocations)
            #expect(plain.layer.backingStoreByteCount == 0)
        }

        @Test("A layer too large even for a tiled store is reported and stays marked, never silently cleared")
        func oversizedLayerIsReportedAndStaysMarked() async {
            let h = Harness(scale: 2)
            // 4·10⁹ pixels wide: beyond the 32-bit pixel coordinates tiles are placed with.
            let view = HugeView(frame: CGRect(x: 0, y: 0, width: 2_000_000_000, height: 40))
            h.root.addSubview(view)
            let reports = Layer.oversizedBackingStoreReportCount
            await h.settle()
            #expect(Layer.oversizedBackingStoreReportCount > reports)
            #expect(view.layer.needsDisplay)
            #expect(view.drawCalls == 0)
            #expect(view.layer.backingStoreByteCount == 0)
            // Once it fits, it draws.
            view.frame.size.width = 50
            await h.step()
            await h.step()
            #expect(!view.layer.needsDisplay)
            #expect(view.drawCalls == 1)
            #expect(Color.red.matches(h.screenColor(2, 2)))
            #expect(Color.blue.matches(h.screenColor(30, 2)))
        }
    }

    @Suite("UIKit ports: the API a UIKit programmer types") @MainActor struct UIKitAPI {
        @Test("Views default to UIKit's isOpaque = true and contentMode = .scaleToFill")
        func defaults() {
            let view = View()
            #expect(view.isOpaque)
            #expect(view.contentMode == .scaleToFill)
            #expect(!view.layer.needsDisplayOnBoundsChange)
        }

        @Test("A default view resized stretches its old pixels without draw(_:)")
        func defaultViewScalesOnResize() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 10), color: .red)
            view.onDraw = { _ in
                GraphicsContext.current?.setFillColor(.blue)
                GraphicsContext.current?.fill(CGRect(x: 10, y: 0, width: 10, height: 10))
            }
            h.root.addSubview(view)
            await h.settle()
            view.frame.size = CGSize(width: 40, height: 10)
            await h.step()
            #expect(view.drawCount == 1, "no draw(_:) on a resize with .scaleToFill")
            #expect(Color.red.matches(h.screenColor(15, 5)), "the red half now covers 0..<20")
            #expect(Color.blue.matches(h.screenColor(25, 5)))
            #expect(Color.blue.matches(h.screenColor(38, 5)))
        }

        @Test("A .redraw view resized draws again at its new size")
        func redrawViewRedrawsOnResize() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 10), color: .red)
            view.contentMode = .redraw
            view.onDraw = { _ in
                GraphicsContext.current?.setFillColor(.blue)
                GraphicsContext.current?.fill(CGRect(x: 10, y: 0, width: 10, height: 10))
            }
            h.root.addSubview(view)
            await h.settle()
            view.frame.size = CGSize(width: 40, height: 10)
            await h.step()
            #expect(view.drawCount == 2)
            #expect(Color.blue.matches(h.screenColor(15, 5)), "drawn anew: blue at 10..<20 only")
            #expect(Color.red.matches(h.screenColor(25, 5)))
        }

        @Test("ContentMode has UIKit's 13 cases with UIKit's raw values")
        func contentModeCasesMatchUIKit() {
            #expect(ContentMode.allCases.count == 13)
            #expect(ContentMode.scaleToFill.rawValue == 0)
            #expect(ContentMode.redraw.rawValue == 3)
            #expect(ContentMode.bottomRight.rawValue == 12)
            let modes = ContentMode.allCases.filter { $0 != .redraw && $0 != .scaleToFill }
            #expect(Set(modes.map { "\($0.gravity)" }).count == modes.count, "each mode places contents its own way")
        }

        @Test("contentMode .bottomRight keeps the drawn pixels at the bottom-right corner on resize")
        func bottomRightModePlacesContents() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .green)
            view.contentMode = .bottomRight
            h.root.addSubview(view)
            await h.settle()
            view.frame.size = CGSize(width: 30, height: 30)
            await h.step()
            #expect(view.drawCount == 1, "no redraw outside .redraw")
            #expect(Color.green.matches(h.screenColor(25, 25)))
            #expect(!Color.green.matches(h.screenColor(5, 5)))
        }

        @Test("hitTest(_:with:) and point(inside:with:) receive the event being delivered")
        func hitTestingReceivesTheEvent() async {
            let h = Harness()
            let view = EventRecordingView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            await h.settle()
            let down = PointerEvent(kind: .down, location: CGPoint(x: 5, y: 5), button: .left)
            h.window.dispatch(.pointer(down))
            #expect(view.eventsSeen == [.pointer(down)])
            #expect(h.window.hitTest(CGPoint(x: 5, y: 5)) === view)
            #expect(view.eventsSeen.count == 2 && view.eventsSeen[1] == nil, "asked outside delivery")
        }

        @Test("addSubview lays out the superview in the next pass")
        func addSubviewTriggersLayout() async {
            let h = Harness()
            let container = LayoutCountingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            h.root.addSubview(container)
            await h.settle()
            let layouts = container.layoutCount
            #expect(!container.needsLayout)
            container.addSubview(View(frame: CGRect(x: 0, y: 0, width: 5, height: 5)))
            #expect(container.needsLayout)
            await h.step()
            #expect(container.layoutCount == layouts + 1)
        }

        @Test("DisplayLink times are seconds: timestamp, duration and targetTimestamp")
        func displayLinkTimesInSeconds() async {
            let h = Harness()
            await h.settle()
            var seen: [(TimeInterval, TimeInterval, TimeInterval)] = []
            let link = DisplayLink(window: h.window) { link in
                seen.append((link.timestamp, link.duration, link.targetTimestamp))
            }
            for step in 1...3 { h.surface.fireFrame(timestamp: UInt32(step) * 20 + 5000) }
            #expect(seen.count == 3)
            #expect(abs(seen[0].0 - 5.020) < 1e-9)
            #expect(abs(seen[2].0 - 5.060) < 1e-9)
            #expect(abs(seen[2].1 - 0.020) < 1e-9, "duration: 20 ms between frames")
            #expect(abs(seen[2].2 - 5.080) < 1e-9, "target: the next frame")
            link.preferredFramesPerSecond = 25
            #expect(abs(link.targetTimestamp - 5.100) < 1e-9, "target: the next frame the link gets")
            // The frame clock's milliseconds wrap; the seconds keep counting.
            link.preferredFramesPerSecond = 0
            h.surface.fireFrame(timestamp: UInt32.max - 9)
            h.surface.fireFrame(timestamp: 30)
            #expect(link.frameCallbackTimestamp == 30)
            let step = seen[seen.count - 1].0 - seen[seen.count - 2].0
            #expect(abs(step - 0.040) < 1e-6, "40 ms across the wrap: \(step)")
            link.invalidate()
        }

        @Test("Layer.setNeedsDisplay(_:) adds a rect, as CALayer's does")
        func layerSetNeedsDisplayRect() async {
            let h = Harness()
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            h.root.addSubview(view)
            await h.settle()
            view.layer.setNeedsDisplay(CGRect(x: 10, y: 10, width: 5, height: 5))
            await h.step()
            #expect(view.drawnRects.last == CGRect(x: 10, y: 10, width: 5, height: 5))
        }
    }
}

/// Records the events its hit-testing is asked with.
private final class EventRecordingView: View {
    var eventsSeen: [Event?] = []
    override func point(inside point: CGPoint, with event: Event?) -> Bool {
        eventsSeen.append(event)
        return super.point(inside: point, with: event)
    }
}

/// Counts its layout passes.
private final class LayoutCountingView: View {
    var layoutCount = 0
    override func layoutSubviews() { layoutCount += 1 }
}

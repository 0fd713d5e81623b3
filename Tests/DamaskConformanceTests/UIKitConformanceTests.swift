// Imports only DamaskViews (and Testing): everything a UIKit programmer's `draw(_:)` uses
// — GraphicsContext, Color, CGRect — must come with it, as it comes with `import UIKit`.
import DamaskViews
import Testing

// MARK: Views a ported UIKit program would write

/// Supplies its contents in `display(_:)`, as a UIKit view may as its layer's delegate.
private final class DisplayingView: View {
    var displayCalls = 0
    var drawCalls = 0
    override func display(_ layer: Layer) {
        displayCalls += 1
        guard let bitmap = try? Bitmap(width: 4, height: 4) else { return }
        bitmap.fill(.blue)
        layer.contents = bitmap
    }
    override func draw(_ rect: CGRect) {
        drawCalls += 1
    }
}

/// Calls `super.draw(rect)` first, as Apple's documentation allows.
private final class SuperCallingView: View {
    var drawCalls = 0
    override func draw(_ rect: CGRect) {
        super.draw(rect)
        drawCalls += 1
        GraphicsContext.current?.setFillColor(.green)
        GraphicsContext.current?.fill(bounds)
    }
}

/// Four coloured quadrants: red, blue / green, yellow (top-left, top-right / bottom-left,
/// bottom-right).
private final class QuadrantView: View {
    var drawCalls = 0
    var drawnRects: [CGRect] = []
    override func draw(_ rect: CGRect) {
        drawCalls += 1
        drawnRects.append(rect)
        guard let context = GraphicsContext.current else { return }
        let half = CGSize(width: bounds.width / 2, height: bounds.height / 2)
        for (color, x, y) in [(Color.red, 0.0, 0.0), (.blue, 1, 0), (.green, 0, 1), (.yellow, 1, 1)] {
            context.setFillColor(color)
            context.fill(CGRect(x: x * half.width, y: y * half.height, width: half.width, height: half.height))
        }
    }
}

/// Draws through the layer-delegate method, which must be `open`.
private final class LayerDelegateDrawingView: View {
    var calls = 0
    override func draw(_ layer: Layer, in context: GraphicsContext) {
        calls += 1
        context.setFillColor(.red)
        context.fill(bounds)
    }
}

/// Records the event hit-testing receives; accepts points inside only for pointer events
/// and queries (a UIKit view may filter on the event).
private final class EventFilteringView: View {
    var pointInsideEvents: [Event?] = []
    var hitTestEvents: [Event?] = []
    override func point(inside point: CGPoint, with event: Event?) -> Bool {
        pointInsideEvents.append(event)
        return super.point(inside: point, with: event)
    }
    override func hitTest(_ point: CGPoint, with event: Event?) -> View? {
        hitTestEvents.append(event)
        return super.hitTest(point, with: event)
    }
}

/// Counts `layoutSubviews()`.
private final class LayoutCountingView: View {
    var layouts = 0
    override func layoutSubviews() {
        super.layoutSubviews()
        layouts += 1
    }
}

/// Stripes 10 points wide whose colour tells their index, across a very wide view.
private final class WideStripesView: View {
    static func color(_ index: Int) -> Color {
        Color(red: CGFloat(index % 5) / 4, green: CGFloat((index / 5) % 4) / 3, blue: 0.5)
    }
    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let first = Int(rect.minX / 10)
        let last = Int((rect.maxX / 10).rounded(.up))
        for index in first...last {
            context.setFillColor(Self.color(index))
            context.fill(CGRect(x: CGFloat(index) * 10, y: 0, width: 10, height: bounds.height))
        }
    }
}

extension Conformance {
    @Suite("No silent traps", .timeLimit(.minutes(5))) @MainActor struct NoSilentTraps {
        @Test("A view overriding display(_:) is displayed by it: no draw(_:), 0 bytes of backing store")
        func displayOverrideIsHonoured() {
            let h = ConformanceHarness()
            let view = DisplayingView(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
            h.root.addSubview(view)
            h.present()
            #expect(view.displayCalls == 1)
            #expect(view.drawCalls == 0)
            #expect(view.layer.backingStoreByteCount == 0)
            #expect(Color.blue.isSame(as: h.pixel(1, 1)))
        }

        @Test("super.draw(rect) is harmless: the class draws, and a second instance draws too")
        func superDrawIsHarmless() {
            let h = ConformanceHarness()
            let first = SuperCallingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(first)
            h.present()
            #expect(first.drawCalls == 1)
            #expect(first.layer.backingStoreByteCount == 10 * 10 * 4)
            #expect(Color.green.isSame(as: h.pixel(5, 5)))
            let second = SuperCallingView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
            h.root.addSubview(second)
            h.present()
            #expect(second.drawCalls == 1)
            #expect(Color.green.isSame(as: h.pixel(25, 5)))
            #expect(Color.green.isSame(as: h.pixel(5, 5)), "the first instance's pixels stay")
            first.setNeedsDisplay()
            h.present()
            #expect(first.drawCalls == 2, "the class keeps drawing after super.draw")
            #expect(Color.green.isSame(as: h.pixel(5, 5)))
        }

        @Test("A layer wider than 32,767 pixels draws: the right pixels where it is visible")
        func hugeLayerDraws() throws {
            let h = ConformanceHarness(width: 100, height: 40, scale: 2)
            let clip = View(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            clip.clipsToBounds = true
            let wide = WideStripesView(frame: CGRect(x: 0, y: 0, width: 20_000, height: 40))
            clip.addSubview(wide)
            h.root.addSubview(clip)
            clip.bounds.origin.x = 17_000
            h.present()
            #expect(!wide.layer.needsDisplay)
            for x in stride(from: 5, to: 100, by: 10) {
                let stripe = (17_000 + x) / 10
                #expect(WideStripesView.color(stripe).isSame(as: h.pixel(2 * x, 20)), "at x = \(x)")
            }
            #expect(wide.layer.backingStoreByteCount > 0)
            #expect(wide.layer.backingStoreByteCount < 40_000 * 80 * 4 / 10, "only near-visible tiles")
        }
    }

    @Suite("The API a UIKit programmer types", .timeLimit(.minutes(5))) @MainActor struct API {
        @Test("Defaults are UIKit's: contentMode .scaleToFill, isOpaque true")
        func defaults() {
            let view = View()
            #expect(view.contentMode == .scaleToFill)
            #expect(view.isOpaque)
            #expect(!view.layer.needsDisplayOnBoundsChange)
        }

        @Test("draw(_:in:) is open: a subclass's override draws")
        func layerDelegateDrawIsOpen() {
            let h = ConformanceHarness()
            let view = LayerDelegateDrawingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            h.root.addSubview(view)
            h.present()
            #expect(view.calls == 1)
            #expect(Color.red.isSame(as: h.pixel(5, 5)))
        }

        /// Where a 10×10 drawing lands in a 30×20 view, per content mode (UIKit's rules,
        /// written out here rather than taken from the library).
        nonisolated static let expectedFrames: [(ContentMode, CGRect)] = [
            (.scaleToFill, CGRect(x: 0, y: 0, width: 30, height: 20)),
            (.scaleAspectFit, CGRect(x: 5, y: 0, width: 20, height: 20)),
            (.scaleAspectFill, CGRect(x: 0, y: -5, width: 30, height: 30)),
            (.redraw, CGRect(x: 0, y: 0, width: 30, height: 20)),
            (.center, CGRect(x: 10, y: 5, width: 10, height: 10)),
            (.top, CGRect(x: 10, y: 0, width: 10, height: 10)),
            (.bottom, CGRect(x: 10, y: 10, width: 10, height: 10)),
            (.left, CGRect(x: 0, y: 5, width: 10, height: 10)),
            (.right, CGRect(x: 20, y: 5, width: 10, height: 10)),
            (.topLeft, CGRect(x: 0, y: 0, width: 10, height: 10)),
            (.topRight, CGRect(x: 20, y: 0, width: 10, height: 10)),
            (.bottomLeft, CGRect(x: 0, y: 10, width: 10, height: 10)),
            (.bottomRight, CGRect(x: 20, y: 10, width: 10, height: 10)),
        ]

        @Test("All 13 content modes place the drawn pixels where UIKit does", arguments: expectedFrames)
        func contentModePlacesPixels(mode: ContentMode, frame: CGRect) {
            let h = ConformanceHarness(width: 40, height: 30)
            let view = QuadrantView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            view.contentMode = mode
            h.root.addSubview(view)
            h.present()
            view.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
            h.present()
            #expect(view.drawCalls == (mode == .redraw ? 2 : 1))
            let quadrants: [(Color, CGFloat, CGFloat)] = [(.red, 0.25, 0.25), (.blue, 0.75, 0.25), (.green, 0.25, 0.75), (.yellow, 0.75, 0.75)]
            for (color, fx, fy) in quadrants {
                let x = Int(frame.minX + fx * frame.width)
                let y = Int(frame.minY + fy * frame.height)
                #expect(color.isSame(as: h.pixel(x, y)), "\(mode): \(color) at (\(x), \(y))")
            }
            // Inside the view but outside the contents: none of the drawn colours.
            for (x, y) in [(1, 1), (28, 1), (1, 18), (28, 18), (15, 1), (15, 18), (1, 10), (28, 10)]
            where !frame.insetBy(dx: -1, dy: -1).contains(CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)) {
                let pixel = h.pixel(x, y)
                #expect(![Color.red, .blue, .green, .yellow].contains { $0.isSame(as: pixel) }, "\(mode): (\(x), \(y))")
            }
        }

        @Test("setNeedsDisplay(_:) redraws only the rect asked for")
        func rectInvalidation() {
            let h = ConformanceHarness()
            let view = QuadrantView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            h.root.addSubview(view)
            h.present()
            view.setNeedsDisplay(CGRect(x: 2, y: 3, width: 5, height: 6))
            h.present()
            #expect(view.drawCalls == 2)
            let rect = view.drawnRects.last ?? .null
            #expect(rect.contains(CGRect(x: 2, y: 3, width: 5, height: 6)))
            #expect(rect.width < 40 && rect.height < 40)
            view.layer.setNeedsDisplay(CGRect(x: 30, y: 30, width: 4, height: 4))
            h.present()
            #expect(view.drawCalls == 3)
            #expect((view.drawnRects.last ?? .null).contains(CGRect(x: 30, y: 30, width: 4, height: 4)))
        }

        @Test("hitTest(_:with:) and point(inside:with:) are open and get the delivered event")
        func hitTestingWithEvent() {
            let h = ConformanceHarness()
            let view = EventFilteringView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            h.root.addSubview(view)
            h.present()
            let down = PointerEvent(kind: .down, location: CGPoint(x: 5, y: 5), button: .left)
            h.window.dispatch(.pointer(down))
            #expect(view.hitTestEvents.first == .some(.pointer(down)))
            #expect(view.pointInsideEvents.first == .some(.pointer(down)))
            #expect(h.window.hitTest(CGPoint(x: 5, y: 5)) === view)
            #expect(view.hitTestEvents.last == .some(nil), "asked outside delivery")
            #expect(view.pointInsideEvents.last == .some(nil))
        }

        @Test("addSubview lays out the superview in the next pass")
        func addSubviewLaysOutSuperview() {
            let h = ConformanceHarness()
            let container = LayoutCountingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            h.root.addSubview(container)
            h.present()
            let layouts = container.layouts
            #expect(!container.needsLayout)
            container.addSubview(View(frame: CGRect(x: 0, y: 0, width: 5, height: 5)))
            #expect(container.needsLayout)
            h.present()
            #expect(container.layouts == layouts + 1)
        }

        @Test("DisplayLink: timestamp, targetTimestamp and duration in seconds; a frame-rate preference")
        func displayLinkInSeconds() {
            let h = ConformanceHarness()
            h.present()
            var seen: [(timestamp: Double, target: Double, duration: Double)] = []
            let link = DisplayLink(window: h.window) { link in
                seen.append((link.timestamp, link.targetTimestamp, link.duration))
            }
            for frame in 1...4 { h.surface.fireFrame(timestamp: 10_000 + UInt32(frame) * 16) }
            #expect(seen.count == 4)
            #expect(abs((seen.last?.timestamp ?? 0) - 10.064) < 1e-9)
            #expect(abs((seen.last?.duration ?? 0) - 0.016) < 1e-9)
            #expect(abs((seen.last?.target ?? 0) - 10.080) < 1e-9)
            // At 30 per second the link skips every other 16 ms frame.
            link.preferredFramesPerSecond = 30
            let before = seen.count
            for frame in 5...12 { h.surface.fireFrame(timestamp: 10_000 + UInt32(frame) * 16) }
            let fired = seen.count - before
            #expect(fired >= 3 && fired <= 5, "8 frames at 62.5 Hz → about 4 ticks at 30 Hz, got \(fired)")
            link.invalidate()
        }
    }
}

// Deliberately imports neither DamaskGraphics nor Foundation: `import DamaskViews` brings
// what a `draw(_:)` needs (Color, GraphicsContext, Bitmap, CGRect), as `import UIKit` does.
import Testing

@testable import DamaskViews

// What a UIKit port may rely on through the public API alone (display(_:) overrides,
// super.draw, defaults, hit-testing with the event, addSubview's layout) is pinned in
// Tests/DamaskConformanceTests; this file keeps what needs the library's internals
// (allocation counters, oversized stores, the frame clock).

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
    @Suite("UIKit ports: no silent traps", .shared, .timeLimit(.minutes(5))) @MainActor struct UIKitPorting {
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
            let allocations = h.window.statistics.backingStoreAllocationCount
            plain.setNeedsDisplay()
            h.window.flush()
            #expect(h.window.statistics.backingStoreAllocationCount == allocations)
            #expect(plain.layer.backingStoreByteCount == 0)
        }

        @Test("A layer too large even for a tiled store is reported and stays marked, never silently cleared")
        func oversizedLayerIsReportedAndStaysMarked() async {
            let h = Harness(scale: 2)
            // 4·10⁹ pixels wide: beyond the 32-bit pixel coordinates tiles are placed with.
            let view = HugeView(frame: CGRect(x: 0, y: 0, width: 2_000_000_000, height: 40))
            h.root.addSubview(view)
            let reports = h.window.statistics.oversizedBackingStoreReportCount
            await h.settle()
            #expect(h.window.statistics.oversizedBackingStoreReportCount > reports)
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

    @Suite("UIKit ports: the API a UIKit programmer types", .shared, .timeLimit(.minutes(5))) @MainActor struct UIKitAPI {
        /// A 20×10 view, red with its right half drawn blue, shown and then widened to 40.
        private func widenedHalfBlueView(contentMode: ContentMode, in h: Harness) async -> SolidView {
            let view = SolidView(frame: CGRect(x: 0, y: 0, width: 20, height: 10), color: .red)
            view.contentMode = contentMode
            view.onDraw = { _ in
                GraphicsContext.current?.setFillColor(.blue)
                GraphicsContext.current?.fill(CGRect(x: 10, y: 0, width: 10, height: 10))
            }
            h.root.addSubview(view)
            await h.settle()
            view.frame.size = CGSize(width: 40, height: 10)
            await h.step()
            return view
        }

        @Test("A default view resized stretches its old pixels without draw(_:)")
        func defaultViewScalesOnResize() async {
            let h = Harness()
            let view = await widenedHalfBlueView(contentMode: .scaleToFill, in: h)
            #expect(view.drawCount == 1, "no draw(_:) on a resize with .scaleToFill")
            #expect(Color.red.matches(h.screenColor(15, 5)), "the red half now covers 0..<20")
            #expect(Color.blue.matches(h.screenColor(25, 5)))
            #expect(Color.blue.matches(h.screenColor(38, 5)))
        }

        @Test("A .redraw view resized draws again at its new size")
        func redrawViewRedrawsOnResize() async {
            let h = Harness()
            let view = await widenedHalfBlueView(contentMode: .redraw, in: h)
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

        @Test("DisplayLink times are seconds: timestamp, duration and targetTimestamp")
        func displayLinkTimesInSeconds() async {
            let h = Harness()
            h.surface.refreshInterval = 20  // the frames below come 20 ms apart: a 50 Hz display
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

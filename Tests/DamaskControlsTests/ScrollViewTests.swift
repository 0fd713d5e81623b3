import DamaskControls
import Foundation
import Testing

/// A view filled with one colour that counts its draws.
final class CountingView: View {
    var color: Color = .red
    private(set) var drawCount = 0

    override func draw(_ rect: CGRect) {
        drawCount += 1
        GraphicsContext.current?.setFillColor(color)
        GraphicsContext.current?.fill(bounds)
    }
}

extension ControlsTests {
    @Suite("ScrollView", .timeLimit(.minutes(5))) @MainActor struct ScrollViewTests {
        /// A 100×100 scroll view over 100×1000 points of content: ten coloured blocks.
        private func makeScrollView(in harness: ControlsHarness) -> (ScrollView, [CountingView]) {
            let scrollView = ScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            scrollView.contentSize = CGSize(width: 100, height: 1000)
            var blocks: [CountingView] = []
            for index in 0..<10 {
                let block = CountingView(frame: CGRect(x: 0, y: CGFloat(index) * 100, width: 100, height: 100))
                block.color = Color(red: CGFloat(index) / 10, green: 0.5, blue: 1 - CGFloat(index) / 10)
                scrollView.addSubview(block)
                blocks.append(block)
            }
            harness.root.addSubview(scrollView)
            harness.present()
            return (scrollView, blocks)
        }

        /// Whether two colours agree within one 8-bit step per channel (rounding).
        static func isClose(_ a: Color, _ b: Color) -> Bool {
            let pa = a.premultipliedARGB32, pb = b.premultipliedARGB32
            return stride(from: 0, to: 32, by: 8).allSatisfy { shift in
                abs(Int((pa >> UInt32(shift)) & 0xFF) - Int((pb >> UInt32(shift)) & 0xFF)) <= 1
            }
        }

        @Test("a wheel detent scrolls lineScrollDistance; a high-resolution half detent half of it")
        func wheelAndValue120() {
            let harness = ControlsHarness(width: 100, height: 100)
            let (scrollView, _) = makeScrollView(in: harness)
            harness.wheel(120, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == 40)
            harness.wheel(60, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == 60)
            harness.wheel(-15, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == 55)
            harness.wheel(120 * 100, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == 900, "clamped at the end")
            harness.wheel(-120 * 100, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == 0, "clamped at the start")
        }

        @Test("scrolling draws nothing again: the content is composited at its new place, the viewport is damaged")
        func scrollingRedrawsNothing() {
            let harness = ControlsHarness(width: 100, height: 100)
            let (scrollView, blocks) = makeScrollView(in: harness)
            let drawsBefore = harness.window.drawCount
            #expect(blocks[0].drawCount == 1)
            harness.wheel(120, at: CGPoint(x: 50, y: 50))
            harness.present()
            #expect(scrollView.contentOffset.y == 40)
            #expect(harness.window.drawCount == drawsBefore, "nothing draws (the blocks below drew in the first pass)")
            #expect(blocks[0].drawCount == 1)
            #expect(blocks[1].drawCount == 1)
            #expect(harness.lastDamage.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
            // Block 0's colour at the top, block 1's below 60.
            let top = harness.surface.presentedBitmap?.color(x: 50, y: 10)
            let lower = harness.surface.presentedBitmap?.color(x: 50, y: 70)
            #expect(top.map { ScrollViewTests.isClose($0, blocks[0].color) } == true)
            #expect(lower.map { ScrollViewTests.isClose($0, blocks[1].color) } == true)
            #expect(lower.map { ScrollViewTests.isClose($0, blocks[0].color) } == false)
            harness.wheel(-120, at: CGPoint(x: 50, y: 50))
            harness.present()
            #expect(harness.window.drawCount == drawsBefore, "scrolling back draws nothing")
        }

        @Test("content inset extends the range; scrollRectToVisible moves the least distance")
        func insetAndScrollRectToVisible() {
            let harness = ControlsHarness(width: 100, height: 100)
            let (scrollView, _) = makeScrollView(in: harness)
            scrollView.contentInset = .init(top: 20, left: 0, bottom: 30, right: 0)
            #expect(scrollView.minimumContentOffset.y == -20)
            #expect(scrollView.maximumContentOffset.y == 930)
            scrollView.scrollRectToVisible(CGRect(x: 0, y: 450, width: 10, height: 20), animated: false)
            #expect(scrollView.contentOffset.y == 370, "bottom edge of the rect at the bottom")
            scrollView.scrollRectToVisible(CGRect(x: 0, y: 400, width: 10, height: 20), animated: false)
            #expect(scrollView.contentOffset.y == 370, "already visible: no move")
            scrollView.scrollRectToVisible(CGRect(x: 0, y: 100, width: 10, height: 20), animated: false)
            #expect(scrollView.contentOffset.y == 100, "top edge at the top")
            harness.wheel(-120 * 10, at: CGPoint(x: 50, y: 50))
            #expect(scrollView.contentOffset.y == -20)
        }

        @Test("a touchpad flick keeps scrolling after the fingers lift, slowing down until it stops")
        func kineticDeceleration() {
            let harness = ControlsHarness(width: 100, height: 100)
            let (scrollView, _) = makeScrollView(in: harness)
            var time: UInt32 = 1000
            for _ in 0..<5 {
                harness.window.dispatch(.scroll(ScrollEvent(
                    location: CGPoint(x: 50, y: 50), deltaY: 8, source: .finger, timestamp: time)))
                time += 10
            }
            #expect(scrollView.contentOffset.y == 40)
            harness.window.dispatch(.scroll(ScrollEvent(
                location: CGPoint(x: 50, y: 50), source: .finger, endsGesture: true, timestamp: time)))
            #expect(scrollView.isDecelerating)
            #expect(scrollView.velocity.y > 500, "about 40 points in 50 ms")
            var offsets: [CGFloat] = [scrollView.contentOffset.y]
            var frames = 0
            while scrollView.isDecelerating, frames < 2000 {
                harness.present()
                offsets.append(scrollView.contentOffset.y)
                frames += 1
            }
            #expect(!scrollView.isDecelerating, "stops")
            #expect(frames > 10)
            let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }.filter { $0 > 0 }
            #expect(steps.count > 10)
            #expect(zip(steps.dropFirst(), steps).allSatisfy { $0 <= $1 + 0.001 }, "each step no longer than the last")
            #expect(scrollView.contentOffset.y > 200, "a flick travels well past where the fingers stopped")
            // A wheel event stops a kinetic scroll at once.
            harness.window.dispatch(.scroll(ScrollEvent(location: CGPoint(x: 50, y: 50), deltaY: 30, source: .finger, timestamp: time + 5)))
            harness.window.dispatch(.scroll(ScrollEvent(location: CGPoint(x: 50, y: 50), source: .finger, endsGesture: true, timestamp: time + 10)))
            #expect(scrollView.isDecelerating)
            harness.wheel(120, at: CGPoint(x: 50, y: 50))
            #expect(!scrollView.isDecelerating)
        }

        @Test("both scroll indicators look as the reference, partway through wide and tall content")
        func indicatorsReferenceImage() throws {
            let harness = ControlsHarness(width: 120, height: 90)
            let scrollView = ScrollView(frame: CGRect(x: 0, y: 0, width: 120, height: 90))
            scrollView.backgroundColor = .white
            scrollView.contentSize = CGSize(width: 480, height: 360)
            for index in 0..<4 {
                let block = CountingView(frame: CGRect(x: CGFloat(index) * 110 + 10, y: CGFloat(index) * 80 + 10, width: 90, height: 60))
                block.color = Color(red: 0.9, green: 0.6 + CGFloat(index) / 10, blue: 0.3)
                scrollView.addSubview(block)
            }
            harness.root.addSubview(scrollView)
            scrollView.contentOffset = CGPoint(x: 120, y: 90)
            harness.present()
            try ReferenceImage.check(try #require(harness.surface.presentedBitmap), named: "scroll-indicators")
        }

        @Test("the vertical indicator shows where the visible part is; hidden when the content fits")
        func indicators() {
            let harness = ControlsHarness(width: 100, height: 100)
            let (scrollView, _) = makeScrollView(in: harness)
            let indicator = scrollView.verticalIndicator
            #expect(!indicator.isHidden)
            #expect(scrollView.horizontalIndicator.isHidden)
            // One tenth of the track (96 points), at the top.
            #expect(indicator.frame == CGRect(x: 94, y: 2, width: 4, height: 10))
            scrollView.contentOffset = CGPoint(x: 0, y: 900)
            #expect(indicator.frame == CGRect(x: 94, y: 900 + 88, width: 4, height: 10))
            scrollView.contentSize = CGSize(width: 100, height: 80)
            scrollView.layoutIfNeeded()
            #expect(indicator.isHidden)
        }
    }
}

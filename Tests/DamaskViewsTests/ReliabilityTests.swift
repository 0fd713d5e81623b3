import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@testable import DamaskViews

/// Faults of the surface the views must survive, on a memory surface where the test plays
/// the compositor: frame callbacks that stop and come back, buffers the compositor never
/// gives back, and a storm of scale changes.
extension ViewsTests {
    @Suite("Reliability", .shared, .timeLimit(.minutes(5))) @MainActor struct Reliability {
        /// A drawing view moved and redrawn by a display link every frame, over a plain
        /// coloured backdrop.
        @MainActor struct AnimatedScene {
            let harness: Harness
            let mover = SolidView(frame: CGRect(x: 2, y: 2, width: 12, height: 12), color: .blue)
            let link: DisplayLink

            init(_ harness: Harness) {
                self.harness = harness
                let backdrop = PlainView(frame: CGRect(x: 0, y: 40, width: 100, height: 20))
                backdrop.backgroundColor = .green
                harness.root.addSubview(backdrop)
                harness.root.addSubview(mover)
                link = DisplayLink(window: harness.window) { [mover] link, _ in
                    mover.frame.origin.x = CGFloat(2 + link.frameCount % 80)
                    mover.color = link.frameCount % 2 == 0 ? .blue : .red
                    mover.setNeedsDisplay()
                }
            }
        }

        @Test("A display link whose frame callbacks stop runs no pass and allocates nothing, and rendering resumes with them")
        func stoppedFrameCallbacksNeitherSpinNorAllocateAndRenderingResumes() async throws {
            let h = Harness(release: .afterNextPresent)
            let scene = AnimatedScene(h)
            await h.settle()
            for _ in 0..<5 { h.frame() }
            let (commits, passes, buffers) = (h.commitCount, h.window.passCount, h.surface.liveBufferCount)
            let draws = scene.mover.drawCount
            #expect(h.surface.hasPendingFrameRequest, "the link keeps a frame requested")

            // The window is hidden: the compositor sends no frame callbacks for a while.
            for _ in 0..<200 { await nextTurn() }
            #expect(h.window.passCount == passes)
            #expect(h.commitCount == commits)
            #expect(scene.mover.drawCount == draws)
            #expect(h.surface.liveBufferCount == buffers)
            #expect(h.surface.frameRequestCount <= commits + 1, "frame requests do not pile up")

            // Shown again: frames come back and every frame is drawn and presented.
            for _ in 0..<3 { h.frame() }
            #expect(h.commitCount == commits + 3)
            #expect(scene.mover.drawCount == draws + 3)
            let screen = try #require(h.surface.presentedBitmap)
            #expect(pixelsEqual(screen, try h.window.renderImage()))
        }

        @Test("A compositor that holds every buffer: the pool stops at its cap, events still run, and no held buffer is written")
        func heldBuffersStopThePoolWithoutTearing() async throws {
            let h = Harness(capacity: 3, release: .never)
            let scene = AnimatedScene(h)
            await h.settle()
            for _ in 0..<30 {
                h.frame()
                await nextTurn()
            }
            #expect(h.surface.liveBufferCount == 3)
            #expect(h.commitCount == 3)
            // Every buffer holds exactly what it had when it was presented: nothing drew
            // into a buffer the compositor was reading.
            for buffer in h.surface.buffers {
                let presented = try #require(h.surface.commits.last { $0.bufferIdentifier == buffer.identifier }?.snapshot)
                #expect(buffer.isBusy)
                #expect(pixelsEqual(buffer.bitmap, presented), "buffer \(buffer.identifier) was written while busy")
            }
            // The main loop keeps running: events reach views while no buffer is free.
            let target = SolidView(frame: CGRect(x: 60, y: 2, width: 20, height: 20))
            h.root.addSubview(target)
            var handled = false
            DispatchQueue.main.async { handled = true }
            await nextTurn()
            #expect(handled)
            #expect(h.window.hitTest(CGPoint(x: 70, y: 10)) === target)

            // The compositor lets go: the next frame presents the current state.
            h.surface.releaseAllBuffers()
            await nextTurn()
            h.frame()
            #expect(h.commitCount > 3)
            #expect(scene.link.frameCount >= 30)
            let screen = try #require(h.surface.presentedBitmap)
            #expect(pixelsEqual(screen, try h.window.renderImage()))
        }

        @Test("A storm of scale and size changes between 1, 2 and fractional scales ends with the right pixels and bounded buffers")
        func scaleStormEndsWithTheRightPixels() async throws {
            let h = Harness(width: 100, height: 80, release: .afterNextPresent)
            let scene = AnimatedScene(h)
            let label = SolidView(frame: CGRect(x: 30, y: 10, width: 33, height: 17), color: .black)
            h.root.addSubview(label)
            await h.settle()
            let scales: [CGFloat] = [1, 2, 1.25, 1.5, 1.75, 2.5, 3, 1]
            var random = SeededRandom(seed: 42)
            var maximumBuffers = 0
            for step in 0..<400 {
                let scale = scales.randomElement(using: &random)!
                let size = CGSize(width: 60 + Int.random(in: 0..<80, using: &random), height: 50 + Int.random(in: 0..<60, using: &random))
                h.surface.resize(to: size, scale: scale)
                // Sometimes several changes land in one turn, sometimes a frame passes.
                if step % 3 == 0 { await nextTurn() }
                if step % 5 == 0 { h.frame() }
                maximumBuffers = max(maximumBuffers, h.surface.liveBufferCount)
            }
            h.surface.resize(to: CGSize(width: 90, height: 70), scale: 1.5)
            await h.step()
            h.frame()
            #expect(maximumBuffers <= 3)
            #expect(h.surface.pixelWidth == 135 && h.surface.pixelHeight == 105)
            let screen = try #require(h.surface.presentedBitmap)
            let fresh = try h.window.renderImage()
            #expect(screen.width == fresh.width && screen.height == fresh.height)
            #expect(differingPixels(screen, fresh).isEmpty, "\(differingPixels(screen, fresh).prefix(5))")
            #expect(scene.mover.layer.contents?.width == 18, "the moving view is drawn at scale 1.5")
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The repaint that copies one layer's opaque contents without planning the tree: used only
/// when those contents alone show in the repaint region, and pixel for pixel what the plan
/// paints.
extension ViewsTests {
    @Suite("Opaque contents repaint", .shared, .timeLimit(.minutes(5))) @MainActor struct OpaqueContentsRepaintRules {
        /// A window with an opaque canvas filling it and a small overlay in its top-right
        /// corner, settled.
        private func scene(scale: CGFloat = 1, overlay: Color = .red) async -> (Harness, SolidView, SolidView) {
            let h = Harness(width: 100, height: 80, scale: scale)
            let canvas = SolidView(frame: CGRect(x: 0, y: 0, width: 100, height: 80), color: .blue)
            let front = SolidView(frame: CGRect(x: 60, y: 0, width: 40, height: 20), color: overlay)
            h.root.addSubview(canvas)
            h.root.addSubview(front)
            await h.settle()
            return (h, canvas, front)
        }

        /// Whether the screen equals a fresh full OVER composite of the window.
        private func screenMatchesFullRender(_ h: Harness) throws -> Bool {
            let reference = try h.window.renderImage()
            guard let screen = h.surface.presentedBitmap else { return false }
            return pixelsEqual(screen, reference)
        }

        @Test("A redraw of opaque contents with nothing in front is copied without a plan, with the plan's pixels")
        func redrawWithNothingInFrontIsCopied() async throws {
            for scale: CGFloat in [1, 2] {
                let (h, canvas, _) = await scene(scale: scale)
                let before = h.window.statistics.copiedRepaintCount
                h.window.statistics.visitedLayerCount = 0
                canvas.color = .green
                canvas.setNeedsDisplay(CGRect(x: 10, y: 40, width: 30, height: 30))
                await h.step()
                #expect(h.window.statistics.copiedRepaintCount == before + 1, "scale \(scale)")
                #expect(h.lastDamage == Region(CGRect(x: 10 * scale, y: 40 * scale, width: 30 * scale, height: 30 * scale)))
                // The canvas, the content view and the root layer: no other layer is planned.
                #expect(h.window.statistics.visitedLayerCount == 3)
                #expect(Color.green.matches(h.screenColor(Int(20 * scale), Int(50 * scale))))
                #expect(Color.blue.matches(h.screenColor(Int(50 * scale), Int(50 * scale))))
                #expect(try screenMatchesFullRender(h))
            }
        }

        @Test("A redraw under a layer in front of it is planned, and the layer in front stays on top")
        func redrawUnderAnotherLayerIsPlanned() async throws {
            let (h, canvas, _) = await scene()
            let before = h.window.statistics.copiedRepaintCount
            canvas.color = .green
            canvas.setNeedsDisplay(CGRect(x: 50, y: 0, width: 30, height: 30))
            await h.step()
            #expect(h.window.statistics.copiedRepaintCount == before)
            #expect(Color.red.matches(h.screenColor(70, 10)), "the overlay is still on top")
            #expect(Color.green.matches(h.screenColor(55, 10)))
            #expect(try screenMatchesFullRender(h))
        }

        @Test("Translucent contents, a translucent view, or a sublayer in the region are planned")
        func notOpaqueOrCoveredIsPlanned() async throws {
            // Contents that are not opaque everywhere.
            do {
                let (h, canvas, _) = await scene()
                let before = h.window.statistics.copiedRepaintCount
                canvas.color = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
                canvas.setNeedsDisplay(CGRect(x: 10, y: 40, width: 30, height: 30))
                await h.step()
                #expect(h.window.statistics.copiedRepaintCount == before)
                #expect(try screenMatchesFullRender(h))
            }
            // Opaque contents shown at alpha 0.5.
            do {
                let (h, canvas, _) = await scene()
                canvas.alpha = 0.5
                await h.step()
                h.frame()
                let before = h.window.statistics.copiedRepaintCount
                canvas.color = .green
                canvas.setNeedsDisplay(CGRect(x: 10, y: 40, width: 30, height: 30))
                await h.step()
                #expect(h.window.statistics.copiedRepaintCount == before)
                #expect(try screenMatchesFullRender(h))
            }
            // A subview of the redrawn view inside the region.
            do {
                let (h, canvas, _) = await scene()
                let child = SolidView(frame: CGRect(x: 20, y: 50, width: 5, height: 5), color: .black)
                canvas.addSubview(child)
                await h.step()
                h.frame()
                let before = h.window.statistics.copiedRepaintCount
                canvas.color = .green
                canvas.setNeedsDisplay(CGRect(x: 10, y: 40, width: 30, height: 30))
                await h.step()
                #expect(h.window.statistics.copiedRepaintCount == before)
                #expect(Color.black.matches(h.screenColor(22, 52)), "the subview is still on top")
                #expect(try screenMatchesFullRender(h))
            }
        }
    }
}

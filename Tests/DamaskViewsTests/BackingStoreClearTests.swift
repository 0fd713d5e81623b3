import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// The clear before a partial redraw (``View/clearsContextBeforeDrawing``): the backing
/// store zeroes the dirty pixels itself instead of asking pixman for a CLEAR composite, and
/// must leave exactly the pixels the context's own clear leaves.
extension ViewsTests {
    @Suite("Backing-store clear before a partial redraw", .shared, .timeLimit(.minutes(2)))
    @MainActor struct BackingStoreClear {
        /// A red view at (7, 5), `width` × 33 points, bounds origin (3, 2) (the store's
        /// transform translates), drawn once at `scale`; its store and a copy of it.
        private func drawnRedView(
            width: CGFloat, scale: CGFloat, clears: Bool = true
        ) async throws -> (harness: Harness, view: SolidView, store: Bitmap, reference: Bitmap) {
            let h = Harness(scale: scale)
            let view = SolidView(frame: CGRect(x: 7, y: 5, width: width, height: 33), color: .red)
            view.bounds.origin = CGPoint(x: 3, y: 2)
            view.clearsContextBeforeDrawing = clears
            h.root.addSubview(view)
            await h.settle()
            let store = try #require(view.layer.contents)
            return (h, view, store, try store.copy())
        }

        @Test(
            "A partial redraw clears exactly the pixels the context's clear would, at whole and fractional scales",
            arguments: [1.0, 2.0, 1.5, 1.25])
        func partialRedrawClearsWhatTheContextClears(scale: Double) async throws {
            let s = CGFloat(scale)
            for clears in [true, false] {
                let (h, view, store, reference) = try await drawnRedView(width: 41, scale: s, clears: clears)

                let translucent = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
                view.color = translucent
                let dirty = CGRect(x: 10.3, y: 6.7, width: 12.2, height: 9.9)
                view.setNeedsDisplay(dirty)
                await h.step()
                #expect(view.layer.contents === store, "redrawn in place")
                #expect(view.drawnRects.count == 2)

                // What the context itself does for this redraw: clip, clear, draw.
                let context = GraphicsContext(bitmap: reference)
                context.scaleBy(x: s, y: s)
                context.translateBy(x: -3, y: -2)
                let aligned = view.layer.alignedToPixels(dirty.intersection(view.bounds), scale: s)
                context.clip(to: aligned)
                if clears { context.clear(aligned) }
                context.setFillColor(translucent)
                context.fill(view.bounds)
                let differences = differingPixels(store, reference)
                #expect(differences.isEmpty, "scale \(scale), clears \(clears): \(differences.prefix(4))")

                // And the redraw did reach the pixels: in the middle of the dirty rect, the
                // translucent colour alone when cleared, blended over the red when not.
                let middle = (Int((dirty.midX - 3) * s), Int((dirty.midY - 2) * s))
                let pixel = store.color(x: middle.0, y: middle.1)
                #expect(translucent.matches(pixel) == clears, "scale \(scale), clears \(clears): \(pixel)")
            }
        }

        @Test("A redraw that fills its rect opaquely keeps the contents known opaque; one that then clears a part does not")
        func opaqueRedrawKeepsTheContentsOpaque() async throws {
            let (h, view, store, _) = try await drawnRedView(width: 41, scale: 2)
            #expect(view.layer.contentsAreOpaque)
            let dirty = CGRect(x: 10, y: 6, width: 12, height: 10)
            view.color = .blue
            view.setNeedsDisplay(dirty)
            await h.step()
            #expect(view.layer.contents === store, "redrawn in place")
            #expect(view.layer.contentsAreOpaque)
            #expect(Color.blue.matches(store.color(x: (16 - 3) * 2, y: (11 - 2) * 2)))
            #expect(Color.red.matches(store.color(x: (30 - 3) * 2, y: (11 - 2) * 2)), "outside the dirty rect")

            // A hole cleared after the fill: the compositor must no longer treat the
            // contents as opaque (it would skip what lies beneath).
            view.onDraw = { _ in GraphicsContext.current?.clear(CGRect(x: 12, y: 8, width: 2, height: 2)) }
            view.setNeedsDisplay(dirty)
            await h.step()
            #expect(!view.layer.contentsAreOpaque)
            #expect(store.pixel(x: (13 - 3) * 2, y: (9 - 2) * 2) == 0)
            #expect(Color.blue.matches(store.color(x: (16 - 3) * 2, y: (11 - 2) * 2)))
        }

        @Test(
            "A redraw of separate dirty rects clears exactly the pixels the context's clear of each would",
            arguments: [1.0, 2.0, 1.5])
        func separateDirtyRectsClearWhatTheContextClears(scale: Double) async throws {
            let s = CGFloat(scale)
            let (h, view, store, reference) = try await drawnRedView(width: 61, scale: s)

            let translucent = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
            view.color = translucent
            let dirty = [CGRect(x: 5.3, y: 6.7, width: 8.2, height: 9.9), CGRect(x: 41.6, y: 12.1, width: 7.7, height: 15.2)]
            for rect in dirty { view.setNeedsDisplay(rect) }
            await h.step()
            #expect(view.layer.contents === store, "redrawn in place")

            let context = GraphicsContext(bitmap: reference)
            context.scaleBy(x: s, y: s)
            context.translateBy(x: -3, y: -2)
            let pieces = dirty.map { view.layer.alignedToPixels($0.intersection(view.bounds), scale: s) }
            context.clip(to: pieces)
            for piece in pieces { context.clear(piece) }
            context.setFillColor(translucent)
            context.fill(view.bounds)
            let differences = differingPixels(store, reference)
            #expect(differences.isEmpty, "scale \(scale): \(differences.prefix(4))")
            // Each piece was cleared, then drawn: the translucent colour alone in its middle.
            for rect in dirty {
                let pixel = store.color(x: Int((rect.midX - 3) * s), y: Int((rect.midY - 2) * s))
                #expect(translucent.matches(pixel), "scale \(scale), \(rect): \(pixel)")
            }
            // Between them, the red stays.
            #expect(Color.red.matches(store.color(x: Int((30 - 3) * s), y: Int((20 - 2) * s))))
        }
    }
}

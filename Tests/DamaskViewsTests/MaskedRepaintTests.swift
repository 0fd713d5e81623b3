import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// Partial repaints inside a view that clips its subviews. Written for the mutant of
/// scripts/mutants.txt that skipped every clipping subtree in a partial repaint, which no
/// test caught: the randomized tests toggle clipping but compare whole frames only after
/// full repaints of clipped subtrees.
extension ViewsTests {
    @Suite("Partial repaints inside clipping views", .shared, .timeLimit(.minutes(5))) @MainActor struct MaskedRepaint {
        @Test("A subview of a clipping view that redraws shows its new content, with damage exactly its frame")
        func subviewOfAClippingViewRepaints() async {
            let h = Harness()
            let clip = PlainView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
            clip.clipsToBounds = true
            let child = SolidView(frame: CGRect(x: 5, y: 5, width: 20, height: 20), color: .red)
            clip.addSubview(child)
            h.root.addSubview(clip)
            await h.settle()
            #expect(h.surface.presentedBitmap?.pixel(x: 20, y: 20) == Color.red.premultipliedARGB32)
            child.color = .blue
            child.setNeedsDisplay()
            await h.settle()
            #expect(h.lastDamage == Region(CGRect(x: 15, y: 15, width: 20, height: 20)), "\(h.lastDamage)")
            #expect(h.surface.presentedBitmap?.pixel(x: 20, y: 20) == Color.blue.premultipliedARGB32, "the new colour is shown")
        }

        @Test("A subview moving inside a clipping view is composited at its new place and cut at the clip's edge")
        func subviewMovingInsideAClippingView() async {
            let h = Harness()
            let clip = PlainView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
            clip.clipsToBounds = true
            let child = SolidView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: .red)
            clip.addSubview(child)
            h.root.addSubview(clip)
            await h.settle()
            child.frame.origin = CGPoint(x: 35, y: 35)
            await h.settle()
            let bitmap = h.surface.presentedBitmap
            #expect(bitmap?.pixel(x: 47, y: 47) == Color.red.premultipliedARGB32, "the part inside the clip")
            #expect(bitmap?.pixel(x: 52, y: 52) != Color.red.premultipliedARGB32, "the part outside is cut")
            #expect(bitmap?.pixel(x: 12, y: 12) != Color.red.premultipliedARGB32, "the old place is repainted")
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

@Suite("CGAffineTransform", .timeLimit(.minutes(5)))
struct CGAffineTransformTests {
    private func close(_ a: CGPoint, _ b: CGPoint) -> Bool {
        abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9
    }

    @Test("concatenating applies the receiver first, then the argument")
    func concatenationOrder() {
        let scale = CGAffineTransform(scaleX: 2, y: 3)
        let move = CGAffineTransform(translationX: 10, y: 20)
        let p = CGPoint(x: 1, y: 1)
        #expect(close(p.applying(scale.concatenating(move)), CGPoint(x: 12, y: 23)))
        #expect(close(p.applying(move.concatenating(scale)), CGPoint(x: 22, y: 63)))
    }

    @Test("translatedBy, scaledBy and rotated act before the existing transform, as in CG")
    func prependingOperations() {
        let base = CGAffineTransform(translationX: 100, y: 0)
        #expect(close(CGPoint(x: 1, y: 0).applying(base.scaledBy(x: 5, y: 5)), CGPoint(x: 105, y: 0)))
        #expect(close(CGPoint.zero.applying(base.translatedBy(x: 1, y: 2)), CGPoint(x: 101, y: 2)))
        #expect(close(CGPoint(x: 1, y: 0).applying(base.rotated(by: .pi / 2)), CGPoint(x: 100, y: 1)))
    }

    @Test("a positive rotation turns +x towards +y (clockwise on a y-down screen)")
    func rotationDirection() {
        let p = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(p, CGPoint(x: 0, y: 1)))
    }

    @Test("inverted undoes the transform; a singular transform inverts to itself")
    func inversion() {
        let t = CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 2, y: 0.5).translatedBy(x: 7, y: -3)
        let p = CGPoint(x: 4, y: 9)
        #expect(close(p.applying(t).applying(t.inverted()), p))
        #expect(t.concatenating(t.inverted()).a.distance(to: 1) < 1e-12)
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        #expect(singular.inverted() == singular)
        #expect(!singular.isInvertible)
        #expect(CGAffineTransform.identity.isIdentity)
        #expect(!t.isIdentity)
    }

    @Test("rect applying gives the bounding box of the transformed corners")
    func rectBoundingBox() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(r.minX + 20) < 1e-9 && abs(r.width - 20) < 1e-9 && abs(r.height - 10) < 1e-9)
        let size = CGSize(width: 3, height: 4).applying(CGAffineTransform(scaleX: 2, y: -1))
        #expect(size == CGSize(width: 6, height: -4))
    }
}

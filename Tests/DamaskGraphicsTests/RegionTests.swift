import DamaskGraphics
import Foundation
import Testing

@Suite("Region", .timeLimit(.minutes(5)))
struct RegionTests {
    @Test("a fractional rect rounds outward to whole pixels")
    func outwardRounding() {
        let r = Region(CGRect(x: 0.5, y: 1.2, width: 2, height: 2))
        #expect(r.rects == [CGRect(x: 0, y: 1, width: 3, height: 3)])
        #expect(r.area == 9)
    }

    @Test("empty, null, NaN and infinite rects give the empty region")
    func invalidRects() {
        #expect(Region(CGRect.zero).isEmpty)
        #expect(Region(CGRect.null).isEmpty)
        #expect(Region(CGRect(x: CGFloat.nan, y: 0, width: 4, height: 4)).isEmpty)
        #expect(Region(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 4)).isEmpty)
        #expect(Region(CGRect(x: 0, y: 0, width: -4, height: 4)).area == 16)  // standardized
        #expect(Region.empty.boundingBox == .zero)
    }

    @Test("union, intersection and subtraction follow set algebra on pixels")
    func setAlgebra() {
        let a = Region(CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = Region(CGRect(x: 5, y: 5, width: 10, height: 10))
        #expect(a.union(b).area == 175)
        #expect(a.intersection(b) == Region(CGRect(x: 5, y: 5, width: 5, height: 5)))
        #expect(a.subtracting(b).area == 75)
        #expect(a.union(b).boundingBox == CGRect(x: 0, y: 0, width: 15, height: 15))
        var c = a
        c.subtract(a)
        #expect(c.isEmpty)
        #expect(!a.isEmpty)  // copy-on-write kept the original
        c.formUnion(CGRect(x: 1, y: 1, width: 1, height: 1))
        c.formIntersection(a)
        #expect(c.area == 1)
    }

    @Test("formUnion grows a region in place and leaves its copies as they were")
    func formUnionInPlace() {
        let first = CGRect(x: 0, y: 0, width: 10, height: 10), second = CGRect(x: 20.5, y: 3, width: 5, height: 4)
        var grown = Region(first)
        let copy = grown
        grown.formUnion(second)  // shared storage: a new one
        #expect(copy == Region(first) && copy.area == 100)
        #expect(grown == Region(rects: [first, second]) && grown.area == 100 + 6 * 4)
        grown.formUnion(CGRect(x: 5, y: 5, width: 10, height: 10))  // its own storage: in place
        grown.formUnion(.null)
        grown.formUnion(CGRect(x: 1, y: 1, width: 0, height: 9))
        #expect(grown == Region(rects: [first, second, CGRect(x: 5, y: 5, width: 10, height: 10)]))
        var fresh = Region()  // empty, its own storage: the rect is copied in
        fresh.formUnion(second)
        #expect(fresh == Region(second) && Region.empty.isEmpty)
        var gathered = Region()
        var expected: [CGRect] = []
        for index in 0..<12 {
            let rect = CGRect(x: index * 7 % 40, y: index * 5 % 30, width: 6, height: 3)
            gathered.formUnion(Region(rect))
            expected.append(rect)
            #expect(gathered == Region(rects: expected), "after \(index + 1) rects")
        }
        let snapshot = gathered
        gathered.formUnion(Region(CGRect(x: 100, y: 100, width: 1, height: 1)))
        #expect(snapshot == Region(rects: expected) && gathered.area == snapshot.area + 1)
    }

    @Test("translate moves by whole pixels and scale rounds outward")
    func translateAndScale() {
        let a = Region(CGRect(x: 1, y: 1, width: 3, height: 3))
        #expect(a.translatedBy(dx: 2, dy: -1).boundingBox == CGRect(x: 3, y: 0, width: 3, height: 3))
        #expect(a.scaled(by: 1.5).boundingBox == CGRect(x: 1, y: 1, width: 5, height: 5))
        #expect(a.scaled(by: .nan).isEmpty)
    }

    @Test("contains tests the pixel under a point; intersects tests overlap")
    func containment() {
        let a = Region(rects: [CGRect(x: 0, y: 0, width: 2, height: 2), CGRect(x: 10, y: 0, width: 2, height: 2)])
        #expect(a.contains(CGPoint(x: 1.9, y: 1.9)))
        #expect(!a.contains(CGPoint(x: 2, y: 0)))
        #expect(!a.contains(CGPoint(x: CGFloat.nan, y: 0)))
        #expect(a.intersects(CGRect(x: 11, y: 1, width: 5, height: 5)))
        #expect(!a.intersects(CGRect(x: 3, y: 0, width: 5, height: 5)))
        #expect(a.rects.count == 2)
        #expect(a.description == "Region[(0, 0, 2, 2), (10, 0, 2, 2)]")
    }

    @Test("equality compares covered pixels, not construction history")
    func equality() {
        let split = Region(rects: [CGRect(x: 0, y: 0, width: 5, height: 5), CGRect(x: 5, y: 0, width: 5, height: 5)])
        #expect(split == Region(CGRect(x: 0, y: 0, width: 10, height: 5)))
        #expect(split != Region(CGRect(x: 0, y: 0, width: 10, height: 6)))
    }

    @Test("a region's rectangles read one by one by index are its rects, for none, one and several")
    func rectanglesByIndex() {
        let several = Region(rects: [
            CGRect(x: 0, y: 0, width: 10, height: 4), CGRect(x: 20, y: 0, width: 5, height: 8),
            CGRect(x: 3, y: 30, width: 7, height: 2),
        ])
        for region in [Region(), Region(CGRect(x: 2, y: 3, width: 4, height: 5)), several] {
            var read: [CGRect] = []
            for index in 0..<region.rectCount { read.append(region.rect(at: index)) }
            #expect(read == region.rects, "\(region)")
        }
        #expect(several.rectCount > 2)
    }

    @Test("huge rects are clamped instead of overflowing")
    func hugeRects() {
        let r = Region(CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300))
        #expect(!r.isEmpty)
        #expect(r.contains(CGPoint(x: 123456, y: -98765)))
    }
}

import DamaskGraphics
import Foundation
import Testing

/// The shortcuts `Region` takes before asking pixman (one region inside the other, disjoint
/// extents, a non-positive scale), each against the answer pixel by pixel. Written for the
/// mutants of scripts/mutants.txt that RegionTests let through: a shortcut that returned
/// the larger operand, or emptied a subtraction the wrong way round, passed every test.
@Suite("Region shortcuts", .timeLimit(.minutes(5)))
struct RegionShortcutTests {
    /// The pixels of `region` inside 0..<40 × 0..<40, as a set of (x, y).
    func pixels(_ region: Region) -> Set<[Int]> {
        var result: Set<[Int]> = []
        for y in 0..<40 {
            for x in 0..<40 where region.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) { result.insert([x, y]) }
        }
        return result
    }

    let big = Region(CGRect(x: 2, y: 2, width: 30, height: 30))
    let small = Region(CGRect(x: 10, y: 10, width: 5, height: 5))
    /// Not a rectangle, inside `big`.
    let twoPieces = Region(rects: [CGRect(x: 4, y: 4, width: 3, height: 3), CGRect(x: 20, y: 20, width: 4, height: 4)])

    @Test("Intersecting a rectangle with a region inside it gives the inner region, in either order")
    func intersectionWithAContainedRegion() {
        for inner in [small, twoPieces] {
            #expect(big.intersection(inner) == inner, "\(big) ∩ \(inner)")
            #expect(inner.intersection(big) == inner, "\(inner) ∩ \(big)")
            #expect(pixels(big.intersection(inner)) == pixels(big).intersection(pixels(inner)))
        }
    }

    @Test("Subtracting a contained region leaves the rest; subtracting a containing rectangle leaves nothing")
    func subtractionWithContainment() {
        #expect(pixels(big.subtracting(small)) == pixels(big).subtracting(pixels(small)))
        #expect(big.subtracting(small).area == 900 - 25)
        #expect(big.subtracting(twoPieces).area == 900 - 9 - 16)
        #expect(small.subtracting(big).isEmpty)
        #expect(twoPieces.subtracting(big).isEmpty)
    }

    @Test("Regions whose edges touch, or overlap by one pixel, combine exactly")
    func touchingAndOneColumnOverlap() {
        let left = Region(CGRect(x: 0, y: 0, width: 10, height: 10))
        for (dx, dy) in [(10, 0), (9, 0), (0, 10), (0, 9), (9, 9)] {
            let other = Region(CGRect(x: dx, y: dy, width: 10, height: 10))
            #expect(pixels(left.intersection(other)) == pixels(left).intersection(pixels(other)), "offset \(dx), \(dy)")
            #expect(pixels(left.subtracting(other)) == pixels(left).subtracting(pixels(other)), "offset \(dx), \(dy)")
            #expect(left.intersects(CGRect(x: dx, y: dy, width: 10, height: 10)) == !pixels(left).isDisjoint(with: pixels(other)))
        }
    }

    @Test("Scaling by zero, a negative or a non-finite factor gives the empty region")
    func nonPositiveScales() {
        for factor in [0, -1, -2.5, CGFloat.nan, CGFloat.infinity] {
            #expect(big.scaled(by: factor).isEmpty, "factor \(factor)")
        }
        #expect(small.scaled(by: 2) == Region(CGRect(x: 20, y: 20, width: 10, height: 10)))
    }
}

/// One rectangle or none is held inline, two or more on the heap: a region that an operation
/// brings to one rectangle must equal the same rectangle made directly, and copies stay
/// apart when one is changed in place.
@Suite("Region representation", .timeLimit(.minutes(5)))
struct RegionRepresentationTests {
    let left = CGRect(x: 0, y: 0, width: 10, height: 10)
    let right = CGRect(x: 10, y: 0, width: 10, height: 10)
    let apart = CGRect(x: 30, y: 30, width: 5, height: 5)

    @Test("Two rectangles that join into one equal that rectangle, however they were joined")
    func joinedRectanglesEqualOneRectangle() {
        let whole = Region(CGRect(x: 0, y: 0, width: 20, height: 10))
        #expect(Region(left).union(Region(right)) == whole)
        #expect(Region(rects: [left, right]) == whole)
        var growing = Region(left)
        growing.formUnion(right)
        #expect(growing == whole)
        #expect(growing.isRectangle)
        #expect(growing.rects == [CGRect(x: 0, y: 0, width: 20, height: 10)])
    }

    @Test("A region of several rectangles changed in place down to one rectangle equals it")
    func complexRegionShrinksToABox() {
        var region = Region(rects: [left, apart])
        #expect(!region.isRectangle)
        #expect(region.rects.count == 2)
        region.formUnion(CGRect(x: 0, y: 0, width: 35, height: 35))  // covers both
        #expect(region.isRectangle)
        #expect(region == Region(CGRect(x: 0, y: 0, width: 35, height: 35)))
        let pieces = Region(rects: [left, apart])
        #expect(pieces.subtracting(Region(apart)) == Region(left))
        #expect(pieces.intersection(Region(CGRect(x: 0, y: 0, width: 20, height: 20))) == Region(left))
        #expect(pieces != Region(left))
        #expect(pieces != Region())
    }

    @Test("A copy keeps its pixels when the original is changed in place")
    func copiesStayApart() {
        var original = Region(rects: [left, apart])
        let copy = original
        original.formUnion(CGRect(x: 50, y: 50, width: 2, height: 2))
        original.formUnion(Region(CGRect(x: 60, y: 60, width: 2, height: 2)))
        #expect(copy.area == 125)
        #expect(original.area == 133)
        var box = Region(left)
        let boxCopy = box
        box.formUnion(apart)
        #expect(boxCopy == Region(left))
        #expect(box.area == 125)
    }

    @Test("Boxes meet in a box; moved regions keep their shape")
    func boxIntersectionAndTranslation() {
        let a = Region(CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = Region(CGRect(x: 5, y: 3, width: 10, height: 10))
        #expect(a.intersection(b) == Region(CGRect(x: 5, y: 3, width: 5, height: 7)))
        #expect(a.intersection(b).area == 35)
        #expect(a.translatedBy(dx: 3, dy: -2) == Region(CGRect(x: 3, y: -2, width: 10, height: 10)))
        let pieces = Region(rects: [left, apart]).translatedBy(dx: 1, dy: 1)
        #expect(pieces == Region(rects: [left.offsetBy(dx: 1, dy: 1), apart.offsetBy(dx: 1, dy: 1)]))
        #expect(Region().translatedBy(dx: 5, dy: 5).isEmpty)
        #expect(a.contains(CGPoint(x: 9.5, y: 9.5)) && !a.contains(CGPoint(x: 10, y: 5)))
        #expect(a.intersects(CGRect(x: 9, y: 9, width: 1, height: 1)) && !a.intersects(CGRect(x: 10, y: 0, width: 5, height: 5)))
        #expect(!Region().intersects(CGRect(x: 0, y: 0, width: 5, height: 5)))
    }
}

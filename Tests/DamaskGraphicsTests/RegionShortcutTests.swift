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

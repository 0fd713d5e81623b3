import DamaskGraphics
import Foundation
import Testing

@testable import DamaskViews

/// A layer's dirty pieces are made fewer only where their union stays exactly the same.
@MainActor @Suite("Dirty pieces", .timeLimit(.minutes(1)))
struct DirtyPiecesTests {
    /// The exact union of `rects`.
    private func union(_ rects: [CGRect]) -> Region {
        var region = Region()
        for rect in rects { region.formUnion(rect) }
        return region
    }

    @Test("A typed key's pieces become one: a caret inside the strip, a strip the scroll uncovered beside it in the same rows, touching or overlapping")
    func typedKeyPiecesBecomeOne() {
        var caretInside = [CGRect(x: 44, y: 8, width: 2, height: 24), CGRect(x: 26, y: 2, width: 20, height: 36)]
        DirtyPieces.coalesce(&caretInside)
        #expect(caretInside == [CGRect(x: 26, y: 2, width: 20, height: 36)])
        var scrolled = [
            CGRect(x: 402, y: 2, width: 10, height: 36), CGRect(x: 391, y: 2, width: 11, height: 36),
            CGRect(x: 400, y: 8, width: 2, height: 24),
        ]
        DirtyPieces.coalesce(&scrolled)
        #expect(scrolled == [CGRect(x: 391, y: 2, width: 21, height: 36)])
    }

    @Test("Pieces whose union is not a rectangle stay apart: a gap between them, different rows, an overlap that is not a containment")
    func nonRectangularUnionsStay() {
        let cases: [[CGRect]] = [
            [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 11, y: 0, width: 10, height: 10)],
            [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 5, y: 2, width: 10, height: 10)],
            [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 10, y: 0, width: 10, height: 11)],
        ]
        for rects in cases {
            var pieces = rects
            DirtyPieces.coalesce(&pieces)
            #expect(pieces == rects)
        }
    }

    @Test("Random pieces keep their exact union, never grow in number, and end with no piece inside another and no pair making a rectangle")
    func randomPiecesKeepTheirUnion() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let rects = (0..<Int.random(in: 2...Layer.dirtyPieceLimit, using: &generator)).map { _ in
                // A coarse grid, so that shared rows, touching edges and containment are common.
                CGRect(
                    x: 4 * Int.random(in: 0...5, using: &generator), y: 4 * Int.random(in: 0...3, using: &generator),
                    width: 4 * Int.random(in: 1...4, using: &generator), height: 4 * Int.random(in: 1...3, using: &generator))
            }
            var pieces = rects
            DirtyPieces.coalesce(&pieces)
            #expect(union(pieces) == union(rects), "\(rects) became \(pieces)")
            #expect(pieces.count <= rects.count)
            for i in pieces.indices {
                for j in pieces.indices where i != j {
                    #expect(DirtyPieces.rectangularUnion(pieces[i], pieces[j]) == nil, "\(pieces[i]) and \(pieces[j]) left apart")
                }
            }
        }
    }
}

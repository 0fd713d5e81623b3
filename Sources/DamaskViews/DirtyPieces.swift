import Foundation

/// The rectangles of a layer's dirty area, aligned to pixels, made fewer where that loses
/// nothing: a rectangle inside another goes, and two whose union is a rectangle (the same
/// rows, with columns that overlap or touch, or the same columns, with rows that do)
/// become that rectangle. The union is unchanged, so what is redrawn and damaged is
/// exactly what was marked. A typed key marks its carets and the strip around them (and,
/// when the field scrolls, the strip the scroll uncovers): aligned to pixels, they are
/// usually one rectangle, which the backing store clips to without building a region.
enum DirtyPieces {
    /// Coalesces `pieces` in place. Quadratic in their count (at most
    /// ``Layer/dirtyPieceLimit``), and again after each merge: a grown piece may take in
    /// one it could not before. Loops, not closures: this runs per key.
    static func coalesce(_ pieces: inout [CGRect]) {
        var index = 0
        while index < pieces.count {
            var merged = false
            for other in pieces.indices where other != index {
                guard let union = rectangularUnion(pieces[index], pieces[other]) else { continue }
                pieces[index] = union
                pieces.remove(at: other)
                merged = true
                break
            }
            index = merged ? 0 : index + 1
        }
    }

    /// The union of `a` and `b` when it is a rectangle: one contains the other, or they
    /// share their rows (columns) and their columns (rows) overlap or touch; else nil.
    static func rectangularUnion(_ a: CGRect, _ b: CGRect) -> CGRect? {
        if a.contains(b) { return a }
        if b.contains(a) { return b }
        if a.minY == b.minY, a.maxY == b.maxY, a.minX <= b.maxX, b.minX <= a.maxX { return a.union(b) }
        if a.minX == b.minX, a.maxX == b.maxX, a.minY <= b.maxY, b.minY <= a.maxY { return a.union(b) }
        return nil
    }
}

import Foundation

extension Region {
    /// A region of at most `count` rects (`rects.count`) that contains this one, grown as
    /// little as a greedy search finds: the two rects whose bounding box adds the least
    /// area are replaced by it (taking in any rect it then overlaps) until few enough are
    /// left. Distant changes stay apart, where the single bounding box would cover all the
    /// space between them. Above ``coalescingLimit`` rects (the search is quadratic) the
    /// result is the bounding box. Returns `self` when it already has at most `count`.
    public func coalesced(toAtMost count: Int) -> Region {
        var current = self
        let target = max(1, count)
        var goal = target
        while current.rectCount > target {  // counted, not built: most frames have few rects
            var boxes = current.rects
            guard boxes.count <= Region.coalescingLimit else { return Region(current.boundingBox) }
            // Banding can split disjoint boxes into more rects: then aim lower.
            let stop = min(goal, boxes.count - 1)
            goal = max(1, goal / 2)
            while boxes.count > stop {
                var best = (i: 0, j: 1, waste: CGFloat.infinity)
                for i in 0..<boxes.count {
                    for j in (i + 1)..<boxes.count {
                        let merged = boxes[i].union(boxes[j])
                        let waste = merged.width * merged.height - boxes[i].width * boxes[i].height
                            - boxes[j].width * boxes[j].height
                        if waste < best.waste { best = (i, j, waste) }
                    }
                }
                var merged = boxes[best.i].union(boxes[best.j])
                boxes.remove(at: best.j)
                boxes.remove(at: best.i)
                var absorbed = true
                while absorbed {
                    absorbed = false
                    var index = 0
                    while index < boxes.count {
                        if boxes[index].intersects(merged) {
                            merged = merged.union(boxes.remove(at: index))
                            absorbed = true
                        } else {
                            index += 1
                        }
                    }
                }
                boxes.append(merged)
            }
            current = Region(rects: boxes)
        }
        return current
    }

    /// Above this many rects ``coalesced(toAtMost:)`` returns the bounding box.
    public static let coalescingLimit = 64
}

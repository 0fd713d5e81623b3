/// The changed pixels of one commit grouped into separate changes: pixels closer than
/// ``gap`` pixels (horizontally or vertically) to a group's bounding box join that group, so
/// a commit that changes a bar and, elsewhere, two digits of a label has three boxes, not
/// one box spanning all three.
///
/// This is the client-independent yardstick for over-damage: damage area ÷ the boxes' area
/// says how much more a client asked the compositor to repaint than the separate changes'
/// bounding boxes, where the single bounding box of all changed pixels would forgive any
/// damage lying between two distant changes. Fed row by row, top to bottom, with runs of
/// changed pixels (``add(row:from:to:)``), then ``finish()``. Plain value; not shared.
public struct ChangeClusters: Sendable, Equatable {
    /// Changed pixels at most this many pixels apart (gap between them, Chebyshev) belong
    /// to one change: a glyph's strokes, the letters of a word, a word and its neighbour.
    public static let gap = 8
    /// Above this many boxes the grouping stops and every box is replaced by their common
    /// bounding box (``isCollapsed``), which keeps the cost linear for noise-like changes.
    public static let limit = 1024

    /// The groups' bounding boxes; disjoint and at least ``gap`` apart after ``finish()``.
    public private(set) var boxes: [PixelRect] = []
    /// Whether the grouping gave up (more than ``limit`` boxes) and ``boxes`` is the one
    /// bounding box of all changed pixels.
    public private(set) var isCollapsed = false

    public init() {}

    /// The total area of ``boxes`` (they are disjoint after ``finish()``).
    public var area: Int { boxes.reduce(0) { $0 + $1.area } }

    /// Adds the changed pixels `start..<end` of row `y` (rows in increasing order).
    public mutating func add(row y: Int, from start: Int, to end: Int) {
        guard end > start else { return }
        var box = PixelRect(x: start, y: y, width: end - start, height: 1)
        var index = 0
        while index < boxes.count {
            if Self.near(boxes[index], box) {
                box = Self.union(boxes[index], box)
                boxes.swapAt(index, boxes.count - 1)
                boxes.removeLast()
            } else {
                index += 1
            }
        }
        boxes.append(box)
        if boxes.count > Self.limit { collapse() }
    }

    /// Merges boxes that grew near each other after they were formed, until every two
    /// boxes are more than ``gap`` apart.
    public mutating func finish() {
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < boxes.count {
                var j = i + 1
                while j < boxes.count {
                    if Self.near(boxes[i], boxes[j]) {
                        boxes[i] = Self.union(boxes[i], boxes[j])
                        boxes.swapAt(j, boxes.count - 1)
                        boxes.removeLast()
                        merged = true
                    } else {
                        j += 1
                    }
                }
                i += 1
            }
        }
    }

    private mutating func collapse() {
        guard var all = boxes.first else { return }
        for box in boxes.dropFirst() { all = Self.union(all, box) }
        boxes = [all]
        isCollapsed = true
    }

    /// Whether the gap between `a` and `b` is at most ``gap`` pixels on both axes.
    static func near(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x - gap <= b.maxX && b.x - gap <= a.maxX && a.y - gap <= b.maxY && b.y - gap <= a.maxY
    }

    static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return PixelRect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }
}

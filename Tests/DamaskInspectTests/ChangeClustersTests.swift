@testable import DamaskInspect
import Foundation
import Testing

@Suite("Changed-pixel clusters", .timeLimit(.minutes(5)))
struct ChangeClustersTests {
    /// A 100×40 XRGB snapshot whose pixels in `changed` (x, y) are white, the rest black.
    static func snapshot(_ changed: [(Int, Int)]) -> ContentSnapshot {
        var bytes = [UInt8](repeating: 0, count: 100 * 40 * 4)
        for (x, y) in changed { for i in 0..<3 { bytes[(y * 100 + x) * 4 + i] = 255 } }
        return ContentSnapshot(width: 100, height: 40, format: BufferFormat(code: 1), bytes: bytes)
    }

    static func comparison(_ changed: [(Int, Int)], damage: [PixelRect] = []) -> ContentComparison {
        ContentComparison(
            previous: snapshot([]), current: snapshot(changed),
            damage: DamageRegion(damage, clippedTo: PixelRect(x: 0, y: 0, width: 100, height: 40)))
    }

    @Test("Two changes far apart are two boxes; a pixel at most the gap away joins a box, one more is apart")
    func distantChangesAreSeparate() {
        let gap = ChangeClusters.gap
        let result = Self.comparison([(2, 3), (4, 5), (5 + gap, 4), (90, 30), (91, 31)])
        #expect(Set(result.changedBoxes) == [
            PixelRect(x: 2, y: 3, width: gap + 4, height: 3), PixelRect(x: 90, y: 30, width: 2, height: 2),
        ])
        #expect(result.changedBounds == PixelRect(x: 2, y: 3, width: 90, height: 29))
        #expect(result.changedBoxes.reduce(0) { $0 + $1.area } == (gap + 4) * 3 + 4)
        let apart = Self.comparison([(2, 3), (4, 5), (6 + gap, 4)])
        #expect(apart.changedBoxes.count == 2)
    }

    @Test("Boxes that grow towards each other row by row end as one box")
    func boxesMergeWhenTheyMeet() {
        // A "V": two strokes that start far apart and meet at the bottom.
        let pixels = (0..<13).flatMap { y in [(10 + 2 * y, y), (60 - 2 * y, y)] }
        let result = Self.comparison(pixels)
        #expect(result.changedBoxes == [PixelRect(x: 10, y: 0, width: 51, height: 13)])
        // Stopped two rows earlier the strokes stay more than the gap apart.
        let apart = Self.comparison((0..<9).flatMap { y in [(10 + 2 * y, y), (60 - 2 * y, y)] })
        #expect(apart.changedBoxes.count == 2)
    }

    @Test("A commit record's damage ÷ boxes ratio does not forgive damage between two changes")
    func recordRatioUsesTheBoxes() {
        let result = Self.comparison([(0, 0), (99, 39)], damage: [PixelRect(x: 0, y: 0, width: 100, height: 40)])
        var record = CommitRecord(kind: .buffer, time: 0, client: 1, surface: 3, role: "toplevel", commit: 2)
        record.content = .compared
        record.damagePixels = 4000
        record.changedPixels = result.changedPixels
        record.changedBounds = result.changedBounds
        record.changedBoxes = result.changedBoxes
        #expect(record.overDamageOfBounds == 1)
        #expect(record.overDamageOfBoxes == 2000)
        #expect(record.jsonLine.contains("\"changed_boxes\":[[0,0,1,1],[99,39,1,1]]") || record.jsonLine.contains("\"changed_boxes\":[[99,39,1,1],[0,0,1,1]]"))
    }

    @Test("More boxes than the limit collapse to the bounding box")
    func tooManyBoxesCollapse() {
        var clusters = ChangeClusters()
        let step = ChangeClusters.gap + 2
        for index in 0...ChangeClusters.limit { clusters.add(row: 0, from: index * step, to: index * step + 1) }
        clusters.finish()
        #expect(clusters.isCollapsed)
        #expect(clusters.boxes == [PixelRect(x: 0, y: 0, width: ChangeClusters.limit * step + 1, height: 1)])
    }
}

import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The demo's sidebar under a real seat (Weston nested in Xvfb, xdotool): the row under the
/// pointer gets a hover highlight distinct from the selection, and each change damages
/// exactly the rows whose look changed.
@Suite("Demo sidebar: hover highlight (real seat)", .serialized, .exclusive, .integration, .timeLimit(.minutes(10)))
struct DemoSidebarHoverTests {
    /// The sidebar's background, the hovered row's fill and the selected row's (DemoStyle).
    static let (background, hovered, selected): (UInt32, UInt32, UInt32) = (0x2B3342, 0x404A5E, 0x4278D9)

    /// Row `index`'s rect in buffer pixels of the decorated window at scale 1 (the sidebar
    /// is 180 points wide; rows are 36 points tall from y 64).
    static func row(_ index: Int) -> [Int] {
        DemoButtonTests.buffer([0, 64 + 36 * index, 180, 36])
    }

    /// A point of row `index`'s fill left of its key number (content points).
    static func fillPoint(_ index: Int) -> (x: Int, y: Int) { (12, 64 + 36 * index + 8) }

    /// A point on row `index`'s title (content points), where a user would point.
    static func titlePoint(_ index: Int) -> (x: Int, y: Int) { (90, 64 + 36 * index + 18) }

    /// Waits until content point `point` shows `color`; whether it did.
    static func shows(_ demo: DemoOnSeat, _ color: UInt32, at point: (x: Int, y: Int)) -> Bool {
        demo.waitForColor(color, at: point).map { DemoOnSeat.isClose($0, color) } == true
    }

    @Test("The row under the pointer lights up (not like the selected row), moving on redraws only the two rows, the selected row does not change under the pointer")
    func rowHover() throws {
        let demo = try DemoOnSeat(arguments: ["--scene", "progress"])
        try demo.move(toScreen: 0, 0)
        #expect(Self.shows(demo, Self.selected, at: Self.fillPoint(0)), "the first row is selected")
        #expect(Self.shows(demo, Self.background, at: Self.fillPoint(2)))
        let before = try demo.content(of: try demo.screenshot())

        // Onto row 3 (Paths): only that row is damaged, and it shows the hover fill.
        var count = demo.commitCount
        try demo.move(to: Self.titlePoint(2).x, Self.titlePoint(2).y)
        #expect(try DemoButtonTests().damageAfter(demo, count) == [[Self.row(2)]], "hover damages the row only")
        #expect(Self.shows(demo, Self.hovered, at: Self.fillPoint(2)), "hovered row")
        // Every pixel that changed is inside the row (apart from the pointer's own image,
        // which the screenshot shows at the pointer).
        let hovering = try demo.content(of: try demo.screenshot())
        let pointer = Self.titlePoint(2)
        let changed = Self.changedPoints(before, hovering).filter {
            !((pointer.x - 4)..<(pointer.x + 40)).contains($0.x) || !((pointer.y - 4)..<(pointer.y + 40)).contains($0.y)
        }
        #expect(!changed.isEmpty && changed.allSatisfy { (136..<172).contains($0.y) && $0.x < 180 },
            "pixels changed outside row 3: \(changed.prefix(5))")

        // To row 5: rows 3 and 5 are redrawn, nothing else.
        count = demo.commitCount
        try demo.move(to: Self.titlePoint(4).x, Self.titlePoint(4).y)
        #expect(try DemoButtonTests().damageAfter(demo, count).map { $0.sorted { $0[1] < $1[1] } } == [[Self.row(2), Self.row(4)]])
        #expect(Self.shows(demo, Self.hovered, at: Self.fillPoint(4)))
        #expect(Self.shows(demo, Self.background, at: Self.fillPoint(2)), "row 3 plain again")

        // Out into the scene: row 5 plain again, only it damaged.
        count = demo.commitCount
        try demo.move(to: 400, 300)
        #expect(try DemoButtonTests().damageAfter(demo, count) == [[Self.row(4)]])
        #expect(Self.shows(demo, Self.background, at: Self.fillPoint(4)))

        // Over the selected row nothing changes (no commit): the next commit is row 2's.
        count = demo.commitCount
        try demo.move(to: Self.titlePoint(0).x, Self.titlePoint(0).y)
        try demo.move(to: Self.titlePoint(1).x, Self.titlePoint(1).y)
        #expect(try DemoButtonTests().damageAfter(demo, count) == [[Self.row(1)]])
        #expect(Self.shows(demo, Self.selected, at: Self.fillPoint(0)), "the selection is unchanged")
        #expect(Self.shows(demo, Self.hovered, at: Self.fillPoint(1)))

        // A click selects the hovered row: the selection fill, not the hover one.
        try demo.click()
        #expect(Self.shows(demo, Self.selected, at: Self.fillPoint(1)), "clicked row selected")
        #expect(Self.shows(demo, Self.background, at: Self.fillPoint(0)), "old selection plain")
        #expect(demo.quit() == 0)
    }

    /// The content points where two content screenshots differ.
    static func changedPoints(_ a: Bitmap, _ b: Bitmap) -> [(x: Int, y: Int)] {
        var points: [(x: Int, y: Int)] = []
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                points.append((x, y))
            }
        }
        return points
    }
}

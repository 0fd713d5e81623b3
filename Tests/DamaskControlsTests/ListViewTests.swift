import DamaskControls
import Foundation
import Testing

/// A data source of `count` rows titled "Row N", counting the cells it configures.
@MainActor final class NumberedRows: ListViewDataSource, ListViewDelegate {
    let count: Int
    /// Only rows that are a multiple of this get a title (the others are empty), so that a
    /// test that shows every one of 100,000 rows does not spend minutes shaping text.
    let titleEvery: Int
    private(set) var configuredRows: [Int] = []
    private(set) var selections: [Int] = []

    init(count: Int, titleEvery: Int = 1) {
        self.count = count
        self.titleEvery = titleEvery
    }

    func numberOfRows(in listView: ListView) -> Int { count }

    func listView(_ listView: ListView, cellForRow row: Int) -> ListViewCell {
        configuredRows.append(row)
        let cell = listView.dequeueReusableCell(withIdentifier: "row")
        cell.text = row % titleEvery == 0 ? "Row \(row)" : ""
        return cell
    }

    func listView(_ listView: ListView, didSelectRow row: Int) {
        selections.append(row)
    }
}

extension ControlsTests {
    @Suite("ListView", .timeLimit(.minutes(5))) @MainActor struct ListViewTests {
        private func makeList(
            rows: Int, in harness: ControlsHarness, frame: CGRect, titleEvery: Int = 1
        ) -> (ListView, NumberedRows) {
            let list = ListView(frame: frame)
            list.rowHeight = 20
            let source = NumberedRows(count: rows, titleEvery: titleEvery)
            list.dataSource = source
            list.listDelegate = source
            harness.root.addSubview(list)
            harness.present()
            return (list, source)
        }

        @Test("scrolling by one row draws only the reused cell; the viewport is damaged")
        func oneRowScrollDrawsOneCell() {
            let harness = ControlsHarness(width: 120, height: 100)
            let (list, source) = makeList(rows: 1000, in: harness, frame: CGRect(x: 0, y: 0, width: 120, height: 100))
            #expect(list.visibleRows == 0..<5)
            let drawsBefore = harness.window.drawCount
            let configuredBefore = source.configuredRows.count
            for step in 1...30 {
                list.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 20)
                harness.present()
                #expect(harness.window.drawCount == drawsBefore + step, "one draw per row scrolled (step \(step))")
                #expect(source.configuredRows.last == step + 4)
                #expect(harness.lastDamage.boundingBox == CGRect(x: 0, y: 0, width: 120, height: 100))
            }
            #expect(source.configuredRows.count == configuredBefore + 30)
            #expect(list.createdCellCount <= 6, "cells are reused")
            #expect(list.visibleRows == 30..<35)
            #expect(list.cellForRow(at: 34)?.text == "Row 34")
        }

        @Test("100,000 rows: memory after scrolling through all of them stays at the first screen's")
        func hundredThousandRowsFlatMemory() {
            let harness = ControlsHarness(width: 200, height: 220)
            let (list, source) = makeList(
                rows: 100_000, in: harness, frame: CGRect(x: 0, y: 0, width: 40, height: 220), titleEvery: 333)
            let firstScreenBytes = harness.window.statistics.liveBackingStoreBytes
            let firstCells = list.createdCellCount
            #expect(list.contentSize.height == 2_000_000)
            var offset: CGFloat = 0
            while offset < list.maximumContentOffset.y {
                offset = min(offset + 200, list.maximumContentOffset.y)  // ten rows per frame
                list.contentOffset = CGPoint(x: 0, y: offset)
                harness.present()
            }
            #expect(list.visibleRows.upperBound == 100_000)
            #expect(list.cellForRow(at: 99_999) != nil)
            #expect(source.configuredRows.last == 99_999)
            #expect(list.createdCellCount <= firstCells + 1)
            #expect(harness.window.statistics.liveBackingStoreBytes <= firstScreenBytes + firstScreenBytes / 10)
            #expect(source.configuredRows.count >= 100_000, "every row was shown")
        }

        @Test("↑ ↓ Home End Page Up Page Down select and scroll the selection into view")
        func keyboardNavigation() {
            let harness = ControlsHarness(width: 120, height: 100)
            let (list, source) = makeList(rows: 50, in: harness, frame: CGRect(x: 0, y: 0, width: 120, height: 100))
            #expect(list.becomeFirstResponder())
            harness.press(0xff54)  // Down
            #expect(list.selectedRow == 0)
            harness.press(0xff54)
            #expect(list.selectedRow == 1)
            harness.press(0xff52)  // Up
            #expect(list.selectedRow == 0)
            harness.press(0xff56)  // Page Down: a screenful (5 rows) less one
            #expect(list.selectedRow == 4)
            harness.press(0xff57)  // End
            #expect(list.selectedRow == 49)
            #expect(list.contentOffset.y == 900)
            #expect(list.cellForRow(at: 49)?.isSelected == true)
            harness.press(0xff55)  // Page Up
            #expect(list.selectedRow == 45)
            harness.press(0xff50)  // Home
            #expect(list.selectedRow == 0)
            #expect(list.contentOffset.y == 0)
            harness.press(0xff52)  // Up at the top stays
            #expect(list.selectedRow == 0)
            #expect(source.selections == [0, 1, 0, 4, 49, 45, 0, 0])
        }

        @Test("a press selects the row under the pointer and redraws only the cells that changed")
        func pressSelects() {
            let harness = ControlsHarness(width: 120, height: 100)
            let (list, source) = makeList(rows: 50, in: harness, frame: CGRect(x: 0, y: 0, width: 120, height: 100))
            list.contentOffset = CGPoint(x: 0, y: 30)
            harness.present()
            let drawsBefore = harness.window.drawCount
            harness.window.dispatch(.pointer(PointerEvent(kind: .down, location: CGPoint(x: 30, y: 15), button: .left, clickCount: 1)))
            harness.window.dispatch(.pointer(PointerEvent(kind: .up, location: CGPoint(x: 30, y: 15), button: .left)))
            harness.present()
            #expect(list.selectedRow == 2, "y 15 + offset 30 = 45: row 2")
            #expect(source.selections == [2])
            #expect(harness.window.drawCount == drawsBefore + 1)
            #expect(harness.lastDamage.boundingBox == CGRect(x: 0, y: 10, width: 120, height: 20))
        }

        @Test("the list and its scroll indicator look as the reference")
        func referenceImage() throws {
            let harness = ControlsHarness(width: 240, height: 160)
            let (list, source) = makeList(rows: 40, in: harness, frame: CGRect(x: 0, y: 0, width: 240, height: 160))
            list.rowHeight = 32
            list.selectRow(3)
            list.contentOffset = CGPoint(x: 0, y: 48)
            harness.present()
            let image = try #require(harness.surface.presentedBitmap)
            try ReferenceImage.check(image, named: "list")
            withExtendedLifetime(source) {}
        }
    }
}

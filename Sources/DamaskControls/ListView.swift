import DamaskGraphics
import DamaskViews
import Foundation

/// Supplies a ``ListView``'s rows (UIKit's `UITableViewDataSource`).
@MainActor public protocol ListViewDataSource: AnyObject {
    /// How many rows the list has.
    func numberOfRows(in listView: ListView) -> Int
    /// The cell for `row`: one from ``ListView/dequeueReusableCell(withIdentifier:)``,
    /// configured for the row.
    func listView(_ listView: ListView, cellForRow row: Int) -> ListViewCell
}

/// Told of a ``ListView``'s selection (UIKit's `UITableViewDelegate`).
@MainActor public protocol ListViewDelegate: AnyObject {
    /// The user selected `row` (pointer or keyboard).
    func listView(_ listView: ListView, didSelectRow row: Int)
}

/// A scrolling list of rows of one height, with cell reuse, selection and keyboard
/// navigation (UIKit's `UITableView`, plain style, one section).
///
/// Only the rows on screen have cells: when a row scrolls out, its cell goes to a reuse
/// pool per identifier, and the data source gets it back for the row scrolling in, so a
/// list of 100,000 rows holds as many cells as fit on screen (plus one) however far it is
/// scrolled. Scrolling moves the cells by compositing; the only drawing is the cell that
/// was reused for a new row (the newly exposed strip).
///
/// Keys (while the list is the first responder): ↑ ↓ select the previous or next row,
/// Home and End the first and last, Page Up and Page Down move by a screenful; the
/// selected row is scrolled into view. A press selects the row under the pointer.
open class ListView: ScrollView {
    /// Supplies the rows (weak).
    public weak var dataSource: (any ListViewDataSource)? {
        didSet { reloadData() }
    }
    /// Told of selections (weak).
    public weak var listDelegate: (any ListViewDelegate)?

    /// The height of every row, in points.
    open var rowHeight: CGFloat = 44 {
        didSet { if rowHeight != oldValue { reloadData() } }
    }

    /// The selected row, if any.
    public private(set) var selectedRow: Int?

    /// The number of rows, as the data source said at the last ``reloadData()``.
    public private(set) var numberOfRows = 0

    /// The cells on screen, by row.
    private var visibleCellsByRow: [Int: ListViewCell] = [:]
    /// Cells waiting for reuse, by identifier (hidden subviews: reusing one needs no
    /// change of the view tree).
    private var reusePool: [String: [ListViewCell]] = [:]
    /// Registered cell classes, by identifier.
    private var registeredClasses: [String: ListViewCell.Type] = [:]

    /// How many cells the list ever created (for tests and the bench: it stays at about
    /// a screenful however far the list scrolls).
    public private(set) var createdCellCount = 0

    /// Creates a list.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        appliedBackground = effectiveAppearance.palette.panel
        backgroundColor = appliedBackground
        showsHorizontalScrollIndicator = false
    }

    // MARK: Appearance

    /// The background this list gave itself from the palette (a background set by the
    /// application differs from it and is kept).
    private var appliedBackground: Color?

    /// Redraws every cell (on screen and waiting for reuse) in the new appearance.
    open override func appearanceDidChange() {
        super.appearanceDidChange()
        let panel = effectiveAppearance.palette.panel
        if backgroundColor == appliedBackground, panel != appliedBackground {
            appliedBackground = panel
            backgroundColor = panel
        }
        for cell in visibleCellsByRow.values { cell.setNeedsDisplay() }
        for cell in reusePool.values.joined() { cell.setNeedsDisplay() }
    }

    open override var canBecomeFirstResponder: Bool { true }
    open override var canBecomeFocused: Bool { true }

    // MARK: Cells

    /// Makes ``dequeueReusableCell(withIdentifier:)`` create `cellClass` cells for
    /// `identifier` when the pool is empty.
    public func register(_ cellClass: ListViewCell.Type, forCellReuseIdentifier identifier: String) {
        registeredClasses[identifier] = cellClass
    }

    /// A spare cell for `identifier`, after its ``ListViewCell/prepareForReuse()``, or a new
    /// one of the registered class (``ListViewCell`` when none is registered).
    public func dequeueReusableCell(withIdentifier identifier: String) -> ListViewCell {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            cell.prepareForReuse()
            return cell
        }
        createdCellCount += 1
        return (registeredClasses[identifier] ?? ListViewCell.self).init(reuseIdentifier: identifier)
    }

    /// The cells on screen, top to bottom.
    public var visibleCells: [ListViewCell] {
        visibleCellsByRow.keys.sorted().compactMap { visibleCellsByRow[$0] }
    }

    /// The rows that have cells now.
    public var visibleRows: Range<Int> {
        guard let low = visibleCellsByRow.keys.min(), let high = visibleCellsByRow.keys.max() else { return 0..<0 }
        return low..<(high + 1)
    }

    /// The cell showing `row`, if it is on screen.
    public func cellForRow(at row: Int) -> ListViewCell? {
        visibleCellsByRow[row]
    }

    /// The rectangle of `row` in the list's content coordinates.
    public func rectForRow(_ row: Int) -> CGRect {
        CGRect(x: 0, y: CGFloat(row) * rowHeight, width: bounds.width, height: rowHeight)
    }

    /// The row at `point` (content coordinates), if any.
    public func row(at point: CGPoint) -> Int? {
        guard rowHeight > 0, point.y >= 0 else { return nil }
        let row = Int(point.y / rowHeight)
        return row < numberOfRows ? row : nil
    }

    /// Asks the data source again for the row count and every visible row.
    public func reloadData() {
        numberOfRows = dataSource?.numberOfRows(in: self) ?? 0
        for (_, cell) in visibleCellsByRow { enqueue(cell) }
        visibleCellsByRow.removeAll()
        if let selected = selectedRow, selected >= numberOfRows { selectedRow = nil }
        contentSize = CGSize(width: bounds.width, height: CGFloat(numberOfRows) * rowHeight)
        contentOffset = clamped(contentOffset)
        tileRows()
    }

    private func enqueue(_ cell: ListViewCell) {
        cell.isHidden = true
        guard let identifier = cell.reuseIdentifier else {
            cell.removeFromSuperview()
            return
        }
        reusePool[identifier, default: []].append(cell)
    }

    /// Gives every row in the visible area a cell and sends the others' cells to the pool.
    private func tileRows() {
        guard rowHeight > 0, bounds.height > 0, let dataSource else { return }
        let top = max(0, Int((contentOffset.y / rowHeight).rounded(.down)))
        let bottom = min(numberOfRows, Int(((contentOffset.y + bounds.height) / rowHeight).rounded(.up)))
        let wanted = top < bottom ? top..<bottom : 0..<0
        for (row, cell) in visibleCellsByRow where !wanted.contains(row) {
            enqueue(cell)
            visibleCellsByRow[row] = nil
        }
        for row in wanted {
            if let cell = visibleCellsByRow[row] {
                let frame = rectForRow(row)
                if cell.frame != frame { cell.frame = frame }
                continue
            }
            let cell = dataSource.listView(self, cellForRow: row)
            cell.frame = rectForRow(row)
            cell.isSelected = row == selectedRow
            cell.isHidden = false
            if cell.superview !== self { insertSubview(cell, at: 0) }
            visibleCellsByRow[row] = cell
        }
    }

    // MARK: Selection

    /// Selects `row` (nil: none), redrawing only the two cells that change, and scrolls it
    /// into view when `scrollsToVisible`.
    public func selectRow(_ row: Int?, animated: Bool = false, scrollsToVisible: Bool = true) {
        let target = row.map { min(max($0, 0), numberOfRows - 1) }
        if let old = selectedRow { visibleCellsByRow[old]?.isSelected = false }
        selectedRow = (target ?? -1) >= 0 ? target : nil
        if let new = selectedRow {
            visibleCellsByRow[new]?.isSelected = true
            if scrollsToVisible { scrollRectToVisible(rectForRow(new), animated: animated) }
        }
    }

    private func userSelect(_ row: Int) {
        selectRow(row)
        if let selected = selectedRow { listDelegate?.listView(self, didSelectRow: selected) }
    }

    // MARK: Layout and scrolling

    open override func layoutSubviews() {
        if contentSize.width != bounds.width {
            contentSize = CGSize(width: bounds.width, height: CGFloat(numberOfRows) * rowHeight)
        }
        tileRows()
        super.layoutSubviews()
    }

    open override func contentOffsetDidChange(from oldOffset: CGPoint) {
        tileRows()
        super.contentOffsetDidChange(from: oldOffset)
    }

    // MARK: Input

    open override func pointerDown(_ event: PointerEvent) {
        if canBecomeFirstResponder, !isFirstResponder { _ = becomeFirstResponder() }
        if let row = row(at: event.location(in: self)) { userSelect(row) }
    }

    open override func keyDown(_ event: KeyEvent) {
        guard numberOfRows > 0 else { return super.keyDown(event) }
        let page = max(1, Int(bounds.height / max(rowHeight, 1)) - 1)
        let current = selectedRow
        switch event.keysym {
        case 0xff52: userSelect((current ?? 1) - 1)  // Up
        case 0xff54: userSelect(current.map { $0 + 1 } ?? 0)  // Down
        case 0xff50: userSelect(0)  // Home
        case 0xff57: userSelect(numberOfRows - 1)  // End
        case 0xff55: userSelect((current ?? 0) - page)  // Page Up
        case 0xff56: userSelect((current ?? 0) + page)  // Page Down
        default: super.keyDown(event)
        }
    }
}

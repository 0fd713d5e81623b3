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
/// scrolled. The rows are drawn into one viewport-sized view over the visible area (the
/// cells draw there; they are not subviews): a scroll moves its pixels with
/// ``View/scrollContents(dx:dy:)`` and draws only the rows that scroll in, in the cells
/// reused for them. A cell that changes (``ListViewCell/isSelected``, its text) redraws
/// its row.
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

    /// The view the rows are drawn into, over the visible area.
    private let rowCanvas = ListRowCanvasView()
    /// The content offset the canvas was last drawn at.
    private var canvasOffset: CGPoint = .zero

    /// How many cells the list ever created (for tests and the bench: it stays at about
    /// a screenful however far the list scrolls).
    public private(set) var createdCellCount = 0

    /// Creates a list.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
        showsHorizontalScrollIndicator = false
        rowCanvas.owner = self
        insertSubview(rowCanvas, at: 0)
        rowCanvas.frame = CGRect(origin: .zero, size: frame.size)
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
        rowCanvas.setNeedsDisplay()
        tileRows()
    }

    private func enqueue(_ cell: ListViewCell) {
        cell.list = nil
        guard let identifier = cell.reuseIdentifier else { return }
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
            visibleCellsByRow[row] = cell
            cell.list = self
            setNeedsDisplay(ofRow: row)
        }
    }

    // MARK: Drawing

    /// Marks `row`'s part of the canvas for redrawing.
    private func setNeedsDisplay(ofRow row: Int) {
        let rect = rectForRow(row).offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y)
        guard rect.intersects(rowCanvas.bounds) else { return }
        rowCanvas.setNeedsDisplay(rect)
    }

    /// A visible cell changed: its row is drawn again.
    func cellNeedsDisplay(_ cell: ListViewCell) {
        guard let row = visibleCellsByRow.first(where: { $0.value === cell })?.key else { return }
        setNeedsDisplay(ofRow: row)
    }

    /// Draws the rows crossing `rect` (canvas coordinates; the canvas shows the content
    /// from ``canvasOffset``): the background, then each row's cell in its place.
    func drawRows(in rect: CGRect, context: GraphicsContext) {
        context.setFillColor(backgroundColor ?? .white)
        context.fill(rect)
        guard rowHeight > 0 else { return }
        let content = rect.offsetBy(dx: canvasOffset.x, dy: canvasOffset.y)
        let first = max(0, Int((content.minY / rowHeight).rounded(.down)))
        let last = min(numberOfRows, Int((content.maxY / rowHeight).rounded(.up)))
        guard first < last else { return }
        for row in first..<last {
            guard let cell = visibleCellsByRow[row] else { continue }
            let place = rectForRow(row)
            context.saveGState()
            context.translateBy(x: place.minX - canvasOffset.x, y: place.minY - canvasOffset.y)
            context.clip(to: CGRect(origin: .zero, size: place.size))
            cell.draw(CGRect(origin: .zero, size: place.size))
            context.restoreGState()
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
        if rowCanvas.bounds.size != bounds.size || rowCanvas.frame.origin != contentOffset {
            rowCanvas.frame = CGRect(origin: contentOffset, size: bounds.size)
            canvasOffset = contentOffset
            rowCanvas.setNeedsDisplay()
        }
        tileRows()
        super.layoutSubviews()
    }

    /// Moves the canvas's pixels by the scroll (only the strip that scrolls in is drawn),
    /// then gives the rows scrolling in their cells.
    open override func contentOffsetDidChange(from oldOffset: CGPoint) {
        let offset = contentOffset
        rowCanvas.frame = CGRect(origin: offset, size: bounds.size)
        let dx = offset.x - canvasOffset.x, dy = offset.y - canvasOffset.y
        canvasOffset = offset
        rowCanvas.scrollContents(dx: -dx, dy: -dy)
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

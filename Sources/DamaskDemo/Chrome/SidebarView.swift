import DamaskGraphics
import DamaskViews
import Foundation

/// The list of scenes on the left: one row per scene with its key (1–9) and title.
///
/// The selected row is filled with the accent colour; the row under the pointer, when it is
/// another one, gets a faint highlight, as a desktop sidebar's rows do. Selecting a row, or
/// the pointer moving to another row, redraws only the rows whose look changed
/// (`setNeedsDisplay(_:)` with their rects). Main-actor.
final class SidebarView: View {
    /// The row titles, top to bottom.
    let titles: [String]
    /// Called with the row index when a row is clicked.
    var onSelect: @MainActor (Int) -> Void = { _ in }
    /// The highlighted row.
    var selectedIndex = 0 {
        didSet {
            guard selectedIndex != oldValue else { return }
            setNeedsDisplay(rowRect(oldValue))
            setNeedsDisplay(rowRect(selectedIndex))
            updateRowElements()
        }
    }
    /// The row under the pointer, or `nil` when the pointer is elsewhere.
    private(set) var hoveredIndex: Int? {
        didSet {
            // Hovering the selected row changes nothing on screen, so only a hovered row
            // other than the selected one counts.
            let (old, new) = (highlight(for: oldValue), highlight(for: hoveredIndex))
            guard old != new else { return }
            if let old { setNeedsDisplay(rowRect(old)) }
            if let new { setNeedsDisplay(rowRect(new)) }
        }
    }

    /// The top of the first row, in sidebar points.
    static let firstRowTop: CGFloat = 64
    /// The height of one row in points.
    static let rowHeight: CGFloat = 36

    /// Creates a sidebar listing `titles`.
    init(frame: CGRect, titles: [String]) {
        self.titles = titles
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        backgroundColor = DemoStyle.sidebarBackground
        accessibilityLabel = "Scenes"  // a list of rows (SidebarView+Accessibility.swift)
        accessibilityContainerType = .list
    }

    /// The rows as accessibility elements, made when an assistive technology first asks.
    var rowElements: [AccessibilityElement]?

    override var accessibilityElements: [any Accessible]? {
        get { makeRowElements() }
        set { super.accessibilityElements = newValue }
    }

    /// The rect of row `index`, in sidebar points.
    func rowRect(_ index: Int) -> CGRect {
        CGRect(x: 0, y: Self.firstRowTop + CGFloat(index) * Self.rowHeight, width: bounds.width, height: Self.rowHeight)
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        if rect.minY < Self.firstRowTop {
            context.draw("Damask", at: CGPoint(x: 20, y: 36), font: DemoStyle.titleFont, color: .white)
        }
        for (index, title) in titles.enumerated() {
            let row = rowRect(index)
            guard row.intersects(rect) else { continue }
            if index == selectedIndex {
                context.setFillColor(DemoStyle.sidebarSelection)
                context.fill(row.insetBy(dx: 8, dy: 3))
            } else if index == hoveredIndex {
                context.setFillColor(DemoStyle.sidebarHover)
                context.fill(row.insetBy(dx: 8, dy: 3))
            }
            let baseline = (row.minY + 23).rounded()
            context.draw("\(index + 1)", at: CGPoint(x: 22, y: baseline), font: DemoStyle.buttonFont, color: DemoStyle.sidebarText)
            context.draw(title, at: CGPoint(x: 44, y: baseline), font: DemoStyle.bodyFont, color: .white)
        }
        guard showsHints else { return }
        for (index, line) in Self.hints.enumerated() {
            let baseline = bounds.height - 60 + CGFloat(index) * 17
            guard rect.maxY > baseline - 14 else { continue }
            context.draw(line, at: CGPoint(x: 20, y: baseline), font: DemoStyle.captionFont, color: DemoStyle.sidebarText)
        }
    }

    /// The key hints at the bottom.
    static let hints = ["D  flash damage", "S  statistics", "Ctrl+Q  quit"]

    /// Whether the key hints fit below the last row (with an 8-point gap); in a shorter
    /// sidebar they are left out rather than drawn over the rows and the header.
    var showsHints: Bool {
        bounds.height - 60 - 14 >= rowRect(titles.count - 1).maxY + 8
    }

    /// The row at `point` (sidebar points), or `nil` outside the rows.
    func rowIndex(at point: CGPoint) -> Int? {
        guard bounds.contains(point), point.y >= Self.firstRowTop else { return nil }
        let index = Int(((point.y - Self.firstRowTop) / Self.rowHeight).rounded(.down))
        return titles.indices.contains(index) ? index : nil
    }

    /// `index` when hovering it shows (it is not the selected row), else `nil`.
    private func highlight(for index: Int?) -> Int? {
        index == selectedIndex ? nil : index
    }

    override func pointerEntered(_ event: PointerEvent) {
        hoveredIndex = rowIndex(at: event.location(in: self))
    }

    override func pointerMoved(_ event: PointerEvent) {
        // During a press that began here the moves keep coming outside the sidebar (the
        // implicit grab): a location outside the bounds hovers nothing.
        hoveredIndex = rowIndex(at: event.location(in: self))
    }

    override func pointerExited(_ event: PointerEvent) {
        hoveredIndex = nil
    }

    /// Tab reaches the sidebar; Up and Down (and Home, End) then select the scene above or
    /// below, and focus stays on the sidebar.
    override var canBecomeFocused: Bool { true }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard event.modifiers.intersection(commandKeys).isEmpty, !titles.isEmpty else { return super.keyDown(event) }
        let target: Int
        switch event.keysym {
        case 0xFF52: target = max(0, selectedIndex - 1)  // Up
        case 0xFF54: target = min(titles.count - 1, selectedIndex + 1)  // Down
        case 0xFF50: target = 0  // Home
        case 0xFF57: target = titles.count - 1  // End
        default: return super.keyDown(event)
        }
        if target != selectedIndex { onSelect(target) }
    }

    override func pointerDown(_ event: PointerEvent) {
        guard let index = rowIndex(at: event.location(in: self)) else { return }
        onSelect(index)
    }
}

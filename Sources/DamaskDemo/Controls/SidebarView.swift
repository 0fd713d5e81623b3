import DamaskGraphics
import DamaskViews
import Foundation

/// The list of scenes on the left: one row per scene with its key (1–9) and title.
///
/// Selecting a row redraws only the old and the new row (`setNeedsDisplay(_:)` with their
/// rects). Main-actor.
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

    override func pointerDown(_ event: PointerEvent) {
        let point = event.location(in: self)
        let index = Int(((point.y - Self.firstRowTop) / Self.rowHeight).rounded(.down))
        guard point.y >= Self.firstRowTop, titles.indices.contains(index) else { return }
        onSelect(index)
    }
}

import DamaskViews
import Foundation

/// The sidebar's rows to assistive technologies: a list whose rows are elements (the
/// sidebar draws them; they are not views), each named by its scene's title, selected when
/// it is the current scene, and activated (a screen reader's "press", AT-SPI's
/// `SelectChild`) by showing that scene, as a click does.
extension SidebarView {
    /// The row elements, made on first use (no assistive technology: never) and kept.
    func makeRowElements() -> [any Accessible] {
        let rows =
            rowElements
            ?? titles.indices.map { index in
                let row = AccessibilityElement(accessibilityContainer: self)
                row.accessibilityLabel = titles[index]
                row.accessibilityHint = "Shows the \(titles[index]) scene (key \(index + 1))"
                row.onActivate = { [weak self] in self?.onSelect(index) }
                return row
            }
        rowElements = rows
        for (index, row) in rows.enumerated() {
            row.accessibilityFrameInContainerSpace = rowRect(index)
            row.accessibilityTraits = index == selectedIndex ? [.listItem, .selected] : .listItem
        }
        return rows
    }

    /// Follows a new selection (once the rows exist) and tells observers.
    func updateRowElements() {
        guard rowElements != nil else { return }
        _ = makeRowElements()
        AccessibilityNotification.selectionChanged(self).post()
    }
}

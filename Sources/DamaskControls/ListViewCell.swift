import DamaskGraphics
import DamaskViews
import Foundation

/// One row of a ``ListView`` (UIKit's `UITableViewCell`): a line of text on an opaque
/// background, a separator at the bottom, a highlight while selected. Its colours are the
/// appearance's unless set; its list redraws it when the appearance changes.
///
/// Cells are reused: a ``ListView`` keeps only the cells on screen and a few spare ones
/// per ``reuseIdentifier``, and hands a spare one to its data source for the next row that
/// scrolls in (``ListView/dequeueReusableCell(withIdentifier:)``). Subclass and override
/// ``draw(_:)`` for other contents; reset per-row state in ``prepareForReuse()``.
open class ListViewCell: View {
    /// The identifier the cell is reused under (nil: never reused).
    public let reuseIdentifier: String?

    /// The row's text.
    open var text: String = "" {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }

    /// Whether the row is selected (drawn with ``selectionColor``).
    open var isSelected = false {
        didSet { if isSelected != oldValue { setNeedsDisplay() } }
    }

    /// The text's font.
    open var font = Font.system(size: 15) {
        didSet { setNeedsDisplay() }
    }
    /// The text's colour; nil (the default): the appearance's ``Palette/text``.
    open var textColor: Color?
    /// The text's colour while selected; nil: the appearance's ``Palette/textOnAccent``.
    open var selectedTextColor: Color?
    /// The background of a selected row; nil: the appearance's ``Palette/accent``.
    open var selectionColor: Color?
    /// The row's background when not selected; nil: the appearance's ``Palette/panel``.
    open var cellBackgroundColor: Color?
    /// The separator line along the bottom edge; nil: the appearance's ``Palette/separator``.
    open var separatorColor: Color?
    /// The text's distance from the leading edge.
    open var textInset: CGFloat = 16

    /// Creates a cell reused under `reuseIdentifier`.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
        isOpaque = true
        layer.needsDisplayOnBoundsChange = true
    }

    /// Resets the cell before it shows another row. The default clears the selection;
    /// the text is set again by the data source.
    open func prepareForReuse() {
        isSelected = false
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let palette = effectiveAppearance.palette
        context.setFillColor(isSelected ? selectionColor ?? palette.accent : cellBackgroundColor ?? palette.panel)
        context.fill(bounds)
        if !isSelected {
            context.setFillColor(separatorColor ?? palette.separator)
            context.fill(CGRect(x: bounds.minX + textInset, y: bounds.maxY - 1, width: bounds.width - textInset, height: 1))
        }
        guard !text.isEmpty else { return }
        let baseline = bounds.minY + ((bounds.height - font.lineHeight) / 2).rounded() + font.ascent
        context.draw(
            text, at: CGPoint(x: bounds.minX + textInset, y: baseline.rounded()), font: font,
            color: isSelected ? selectedTextColor ?? palette.textOnAccent : textColor ?? palette.text)
    }
}

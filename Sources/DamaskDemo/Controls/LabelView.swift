import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws one or more lines of text, top-left aligned, always inside its
/// bounds: lines break at `\n` and wrap to the view's width at line-break opportunities
/// (after spaces, between CJK characters), measured by shaped width; when the lines do not
/// all fit the view's height, the last one that fits ends with "…".
///
/// Changing ``text`` redraws only the glyphs that differ from what is on screen: per line,
/// the ink of the old and new glyphs that do not keep their place
/// (``Font/changedGlyphBounds(from:to:scale:)``), so the window's damage follows the
/// changed pixels, not the label's frame. A new width, font or
/// colour redraws it all (it wraps anew). Main-actor.
final class LabelView: View {
    /// The text; `\n` starts a new line.
    var text: String {
        didSet {
            guard text != oldValue else { return }
            invalidateChangedGlyphs()
            AccessibilityNotification.propertyChanged(self, .label).post()
        }
    }
    /// The lines on screen (last drawn) and the size they were wrapped for.
    private var drawnLines: [String]?
    private var drawnSize: CGSize = .zero
    /// The font.
    var font: Font {
        didSet { setNeedsDisplay() }
    }
    /// The text colour.
    var textColor: Color {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }
    /// The width the label was made with: scenes narrow it to their width, never beyond
    /// this (see ``DemoScene``).
    let preferredWidth: CGFloat

    /// Creates a label showing `text` in `frame`.
    init(frame: CGRect, text: String = "", font: Font = DemoStyle.bodyFont, color: Color = DemoStyle.text) {
        self.text = text
        self.font = font
        self.textColor = color
        preferredWidth = frame.width
        super.init(frame: frame)
        isUserInteractionEnabled = false
        contentMode = .redraw  // a new width wraps anew
        isAccessibilityElement = true  // static text, named by its text
        accessibilityTraits = .staticText
    }

    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? text }
        set { super.accessibilityLabel = newValue }
    }

    /// Marks, line by line, the ink of the glyphs that differ between the lines on screen
    /// and the lines of the new text (``Font/changedGlyphBounds(from:to:scale:)``): glyphs
    /// that keep their place are not redrawn, even between two changes.
    private func invalidateChangedGlyphs() {
        guard let old = drawnLines, drawnSize == bounds.size else { return setNeedsDisplay() }
        let new = displayedLines
        let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
        var baseline = font.ascent
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? old[index] : "", after = index < new.count ? new[index] : ""
            let origin = baseline.rounded()
            for box in font.changedGlyphBounds(from: before, to: after, scale: scale) {
                setNeedsDisplay(box.offsetBy(dx: 0, dy: origin))
            }
            baseline += font.lineHeight
        }
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        var baseline = font.ascent
        let lines = displayedLines
        drawnLines = lines
        drawnSize = bounds.size
        for line in lines {
            context.draw(line, at: CGPoint(x: 0, y: baseline.rounded()), font: font, color: textColor)
            baseline += font.lineHeight
        }
    }

    /// The lines drawn now: ``text`` wrapped to the width, cut to the lines the height
    /// holds (at least one), the last one ending in "…" when text was left out.
    var displayedLines: [String] {
        var lines = font.wrap(text, toWidth: bounds.width)
        let capacity = max(1, Int(((bounds.height - font.ascent - font.descent) / font.lineHeight).rounded(.down)) + 1)
        if lines.count > capacity {
            lines.removeSubrange(capacity...)
            lines[capacity - 1] = font.truncate(lines[capacity - 1] + "…", toWidth: bounds.width)
        }
        return lines
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws one or more lines of text, top-left aligned: lines break at `\n` and
/// wrap to the view's width at line-break opportunities (after spaces, between CJK
/// characters), measured by shaped width.
///
/// Changing ``text`` redraws the label only when the text differs. Main-actor.
final class LabelView: View {
    /// The text; `\n` starts a new line.
    var text: String {
        didSet { if text != oldValue { setNeedsDisplay() } }
    }
    /// The font.
    var font: Font {
        didSet { setNeedsDisplay() }
    }
    /// The text colour.
    var textColor: Color {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }

    /// Creates a label showing `text` in `frame`.
    init(frame: CGRect, text: String = "", font: Font = DemoStyle.bodyFont, color: Color = DemoStyle.text) {
        self.text = text
        self.font = font
        self.textColor = color
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        var baseline = font.ascent
        for line in font.wrap(text, toWidth: bounds.width) {
            context.draw(line, at: CGPoint(x: 0, y: baseline.rounded()), font: font, color: textColor)
            baseline += font.lineHeight
        }
    }
}

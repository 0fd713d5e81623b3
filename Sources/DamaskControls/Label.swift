import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws one or more lines of read-only text (UIKit's `UILabel`).
///
/// Lines break at `\n` and wrap to the label's width at line-break opportunities (after
/// spaces, between CJK characters), measured by shaped width, so every script the text
/// stack shapes (Latin, Cyrillic, Greek, CJK, Arabic and Hebrew right to left, Devanagari,
/// emoji) wraps and aligns. At most ``numberOfLines`` lines show (0: as many as the height
/// holds); when text is left out, the last line shown is shortened by ``lineBreakMode``.
/// Lines are aligned by ``textAlignment``; `.natural` aligns right-to-left lines right.
///
/// Changing ``text`` of a left-aligned label redraws only the glyphs that differ from what
/// is on screen (per line, ``Font/changedGlyphBounds(from:to:scale:)``), so the damage
/// follows the changed pixels, not the frame; any other change redraws the label. With no
/// ``textColor`` set it draws in the palette's text colour and follows
/// ``Appearance/current``. Main-actor.
open class Label: View, AppearanceFollowing, AppearanceOverriding {
    /// The text; `\n` starts a new line.
    open var text: String {
        didSet {
            guard text != oldValue else { return }
            invalidateChangedGlyphs()
            invalidateIntrinsicContentSize()
            AccessibilityNotification.propertyChanged(self, .label).post()
        }
    }
    /// The font.
    open var font: Font {
        didSet { setNeedsDisplay(); invalidateIntrinsicContentSize() }
    }
    /// The text colour; nil: the palette's colour for ``colorRole`` (it follows the
    /// appearance).
    open var textColor: Color? {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }
    /// Which palette colour the text takes when ``textColor`` is nil.
    open var colorRole = ColorRole.text {
        didSet { if colorRole != oldValue { setNeedsDisplay() } }
    }
    /// The appearance this label draws in; nil: inherited.
    open var overrideAppearance: Appearance? {
        didSet { if overrideAppearance != oldValue { setNeedsDisplay() } }
    }
    /// Where lines sit across the width.
    open var textAlignment = TextAlignment.natural {
        didSet { if textAlignment != oldValue { setNeedsDisplay() } }
    }
    /// The most lines shown; 0 (the default): as many as the height holds.
    open var numberOfLines = 0 {
        didSet { if numberOfLines != oldValue { setNeedsDisplay(); invalidateIntrinsicContentSize() } }
    }
    /// How the last line shown is shortened when text is left out.
    open var lineBreakMode = LineBreakMode.byTruncatingTail {
        didSet { if lineBreakMode != oldValue { setNeedsDisplay() } }
    }
    /// The width ``intrinsicContentSize`` wraps to (UIKit's `preferredMaxLayoutWidth`);
    /// 0: no wrapping but at `\n`.
    open var preferredMaxLayoutWidth: CGFloat = 0 {
        didSet { if preferredMaxLayoutWidth != oldValue { invalidateIntrinsicContentSize() } }
    }

    /// ``intrinsicContentSize`` as last measured; nil after a change that affects it.
    private var cachedIntrinsicSize: CGSize?
    /// The lines on screen (last drawn) and the size they were laid out for.
    private var drawnLines: [String]?
    private var drawnSize: CGSize = .zero

    /// The colour text is drawn in now.
    public var effectiveTextColor: Color { textColor ?? effectiveAppearance.palette.color(for: colorRole) }

    /// The font a label has unless given one: the system font at 13 points. Made once and
    /// shared (a `Font` is immutable), so that making a label looks no font up.
    public static let defaultFont = Font.system(size: 13)

    /// Creates a label showing `text` in `frame`.
    public init(frame: CGRect = .zero, text: String = "", font: Font = Label.defaultFont, color: Color? = nil) {
        self.text = text
        self.font = font
        self.textColor = color
        super.init(frame: frame)
        isUserInteractionEnabled = false
        contentMode = .redraw  // a new width wraps anew
        isAccessibilityElement = true  // static text, named by its text
        accessibilityTraits = .staticText
        AppearanceRegistry.shared.register(self)
    }

    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? text }
        set { super.accessibilityLabel = newValue }
    }

    /// Redraws in the new appearance when the colour comes from the palette.
    open func appearanceDidChange() {
        if textColor == nil { setNeedsDisplay() }
    }

    // MARK: Sizing

    /// The lines' widest width and their height, wrapped to ``preferredMaxLayoutWidth``.
    ///
    /// Measured once per change of what it depends on (text, font, ``numberOfLines``,
    /// ``preferredMaxLayoutWidth``: each calls ``invalidateIntrinsicContentSize()``), not
    /// once per question: a stack asks for it while computing its own size and again while
    /// laying out.
    open override var intrinsicContentSize: CGSize {
        if let cachedIntrinsicSize { return cachedIntrinsicSize }
        let size = size(forWidth: preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : .greatestFiniteMagnitude)
        cachedIntrinsicSize = size
        return size
    }

    /// Forgets the measured intrinsic size, then lays the superview out again.
    open override func invalidateIntrinsicContentSize() {
        cachedIntrinsicSize = nil
        super.invalidateIntrinsicContentSize()
    }

    /// The size of the text wrapped to `size.width` (at most ``numberOfLines`` lines).
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        self.size(forWidth: size.width > 0 ? size.width : .greatestFiniteMagnitude)
    }

    private func size(forWidth width: CGFloat) -> CGSize {
        var lines = wrappedText(toWidth: width)
        if numberOfLines > 0, lines.count > numberOfLines { lines.removeSubrange(numberOfLines...) }
        let widest = lines.map { font.measure($0).width }.max() ?? 0
        let height = font.ascent + font.descent + CGFloat(max(lines.count, 1) - 1) * font.lineHeight
        return CGSize(width: widest.rounded(.up), height: height.rounded(.up))
    }

    /// ``text`` wrapped to `width`, as `Font.wrap(_:toWidth:)` wraps it, without the
    /// splitting into paragraphs and characters that `wrap` does before finding that a text
    /// with no line break fits on one line (most labels): then it is the one line.
    private func wrappedText(toWidth width: CGFloat) -> [String] {
        if !Self.containsLineBreak(text), font.measure(text).width <= width { return [text] }
        return font.wrap(text, toWidth: width)
    }

    /// Whether `text` has a character that `Character.isNewline` calls a line break (LF,
    /// VT, FF, CR, CR LF, NEL, LS, PS: each a grapheme cluster of its own, so looking at
    /// the scalars finds the same ones without breaking the text into clusters).
    private static func containsLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
    }

    // MARK: Drawing

    /// The lines drawn now: ``text`` wrapped to the width, cut to the lines allowed and
    /// the height holds (at least one), the last one shortened by ``lineBreakMode`` when
    /// text was left out.
    public var displayedLines: [String] {
        var lines = wrappedText(toWidth: bounds.width)
        let fitting = max(1, Int(((bounds.height - font.ascent - font.descent) / font.lineHeight).rounded(.down)) + 1)
        let capacity = numberOfLines > 0 ? min(numberOfLines, fitting) : fitting
        if lines.count > capacity {
            let last = lineBreakMode == .byTruncatingTail || lineBreakMode == .byClipping
                ? lines[capacity - 1] : lines[(capacity - 1)...].joined(separator: " ")
            lines.removeSubrange(capacity...)
            lines[capacity - 1] = shorten(last, toWidth: bounds.width)
        }
        return lines
    }

    private func shorten(_ text: String, toWidth width: CGFloat) -> String {
        switch lineBreakMode {
        case .byTruncatingTail:
            return font.truncate(text + "…", toWidth: width)
        case .byClipping:
            return text
        case .byTruncatingHead:
            // Keep the longest suffix that fits after "…".
            let characters = Array(text)
            var start = characters.count
            while start > 0, font.measure("…" + String(characters[(start - 1)...])).width <= width { start -= 1 }
            return "…" + String(characters[start...])
        case .byTruncatingMiddle:
            let characters = Array(text)
            var head = 0, tail = 0
            // Grow both ends alternately while the result fits.
            while head + tail < characters.count {
                let growHead = head <= tail
                let candidate = String(characters[..<(head + (growHead ? 1 : 0))]) + "…"
                    + String(characters[(characters.count - tail - (growHead ? 0 : 1))...])
                guard font.measure(candidate).width <= width else { break }
                if growHead { head += 1 } else { tail += 1 }
            }
            return String(characters[..<head]) + "…" + String(characters[(characters.count - tail)...])
        }
    }

    /// The x where `line` starts, by ``textAlignment``.
    private func lineOrigin(_ line: String) -> CGFloat {
        let width = font.measure(line).width
        switch textAlignment {
        case .left: return 0
        case .center: return ((bounds.width - width) / 2).rounded()
        case .right: return (bounds.width - width).rounded()
        case .natural: return font.isRightToLeft(line) ? (bounds.width - width).rounded() : 0
        }
    }

    /// Marks, line by line, the ink of the glyphs that differ between the lines on screen
    /// and the lines of the new text: glyphs that keep their place are not redrawn. Only
    /// for left-aligned left-to-right lines (elsewhere a change moves every glyph).
    private func invalidateChangedGlyphs() {
        guard let old = drawnLines, drawnSize == bounds.size else { return setNeedsDisplay() }
        let new = displayedLines
        let movesGlyphs: (String) -> Bool = { [font, textAlignment] line in
            switch textAlignment {
            case .left: return false
            case .natural: return font.isRightToLeft(line)
            case .center, .right: return true
            }
        }
        guard !old.contains(where: movesGlyphs), !new.contains(where: movesGlyphs) else { return setNeedsDisplay() }
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

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        var baseline = font.ascent
        let lines = displayedLines
        drawnLines = lines
        drawnSize = bounds.size
        let color = effectiveTextColor
        for line in lines {
            context.draw(line, at: CGPoint(x: lineOrigin(line), y: baseline.rounded()), font: font, color: color)
            baseline += font.lineHeight
        }
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A scrolling, editable multi-line text (UIKit's `UITextView`): lines separated by
/// newlines, a caret, a selection that spans lines, the keyboard and the pointer.
///
/// The editing state is an ``EditableText`` (the text field's editing core: clusters,
/// undo steps); positions are `Character` offsets into ``text``. Lines wrap at the view's
/// width by the text stack's line breaking (``Font/lineRanges(wrapping:toWidth:)``: after
/// spaces, between CJK characters, inside a word only when it is wider than the view);
/// with ``wrapsLines`` off a long line widens the content, which scrolls sideways.
///
/// Scrolling costs what is new: the text is drawn by one viewport-sized view that stays
/// over the visible area, and a scroll moves its retained pixels
/// (``View/scrollContents(dx:dy:)``) and draws only the lines uncovered. An edit redraws
/// only the lines it touches (every line below when the line count changes).
///
/// Keys while first responder: typing, Return, Backspace, Delete, ← → ↑ ↓, Home and End
/// (of the line; with Ctrl of the text), Page Up and Page Down, with Shift to extend the
/// selection; Ctrl+A selects everything, Ctrl+Z undoes; Ctrl+C, Ctrl+X and Ctrl+V (and
/// Shift+Insert) copy, cut and paste through the window's clipboard, as ``TextField`` does.
/// A press places the caret, a drag selects (and offers the selection as the primary
/// selection), a middle click pastes the primary selection.
///
/// The caret blinks as ``TextField``'s does: every ``TextField/blinkInterval`` ms, stopping
/// (shown) after ``TextField/maximumBlinks`` blinks without input; a blink redraws only the
/// caret's rectangle. Input methods reach it through ``TextInput``: they are told the
/// paragraph around the caret and the caret's rectangle, and compose into it with a preedit
/// underlined inline.
open class TextView: ScrollView, TextInput {
    /// The text.
    open var text: String {
        get { editor.text }
        set {
            editor = EditableText(newValue, caret: 0)
            textDidChange(redrawingFrom: 0)
        }
    }

    /// The font of every line (a new one wraps the lines again).
    open var font = Font.system(size: 15) {
        didSet {
            wrapCache = [:]
            rebuildLines()
            updateContentSize()
            canvas.setNeedsDisplay()
        }
    }
    /// The text's colour; nil (the default): the appearance's ``Palette/text``.
    open var textColor: Color? {
        didSet { canvas.setNeedsDisplay() }
    }
    /// The selection's background; nil (the default): the appearance's ``Palette/selection``.
    open var selectionColor: Color?
    /// The background behind the text; nil (the default): the appearance's ``Palette/panel``.
    open var textBackgroundColor: Color? {
        didSet {
            backgroundColor = effectiveTextBackgroundColor
            canvas.setNeedsDisplay()
        }
    }

    /// The text's colour now: ``textColor`` or the appearance's.
    public var effectiveTextColor: Color { textColor ?? effectiveAppearance.palette.text }
    /// The background now: ``textBackgroundColor`` or the appearance's.
    public var effectiveTextBackgroundColor: Color { textBackgroundColor ?? effectiveAppearance.palette.panel }
    /// Space between the view's edges and the text (a new one wraps the lines again).
    open var textInset: CGFloat = 6 {
        didSet {
            rebuildLines()
            updateContentSize()
            canvas.setNeedsDisplay()
        }
    }

    /// Whether the user can change the text (selection works either way).
    open var isEditable = true

    /// Whether lines wrap at the view's width (the default, as UIKit's); off, a long line
    /// widens the content.
    open var wrapsLines = true {
        didSet {
            guard wrapsLines != oldValue else { return }
            textDidChange(redrawingFrom: 0)
        }
    }

    /// How many times the caret changed visibility by blinking.
    public internal(set) var blinkCount = 0
    /// Whether the caret is drawn now (it blinks while the view is first responder).
    public internal(set) var isCaretVisible = true

    /// Called after every change the user makes to the text.
    public var onTextChange: ((TextView) -> Void)?

    /// The editing state: text, caret and selection.
    public private(set) var editor = EditableText()

    /// The selected range, in characters (empty at the caret).
    public var selectedRange: Range<Int> { editor.selection }

    /// The offset of each line's first character (at least one line).
    public private(set) var lineStarts: [Int] = [0]

    /// The view that draws the visible lines: viewport-sized, kept over the visible area.
    private let canvas = TextCanvasView()
    /// The lines' texts, parallel to ``lineStarts`` (a wrapped line keeps the spaces it
    /// ends with).
    private var lines: [String] = [""]
    /// Whether each line ends its paragraph (else it wraps on to the next).
    private var lineEndsParagraph: [Bool] = [true]
    /// The width the lines were wrapped to (0: not wrapped).
    private var wrappedWidth: CGFloat = 0
    /// Each paragraph's wrapped line ranges at ``wrappedWidth`` in ``font``: an edit wraps
    /// again only the paragraphs it changed. Holds the current paragraphs only.
    private var wrapCache: [Substring: [Range<Int>]] = [:]
    /// The blink's timer while the caret blinks (owned here; invalidated when it stops).
    var blinkTimer: FrameTimer?
    /// Blinks since the last key, click or edit.
    var blinksSinceInput = 0
    /// The content offset the canvas was last drawn at.
    private var canvasOffset: CGPoint = .zero
    /// Whether a press is held that a drag extends into a selection.
    private var isSelectingByDrag = false

    /// Creates a text view.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        canvas.owner = self
        insertSubview(canvas, at: 0)
        canvas.frame = CGRect(origin: .zero, size: frame.size)
        backgroundColor = effectiveTextBackgroundColor
    }

    /// Redraws the visible text in the new appearance (colours not set by the application
    /// come from the palette).
    open override func appearanceDidChange() {
        super.appearanceDidChange()
        backgroundColor = effectiveTextBackgroundColor
        canvas.setNeedsDisplay()
    }

    open override var canBecomeFirstResponder: Bool { true }
    open override var canBecomeFocused: Bool { true }

    // MARK: Lines

    /// The height of one line, in points.
    public var lineHeight: CGFloat { font.lineHeight.rounded(.up) }

    /// The line holding `position`.
    public func line(containing position: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The rectangle of `line` in content coordinates.
    public func rectForLine(_ line: Int) -> CGRect {
        CGRect(
            x: 0, y: textInset + CGFloat(line) * lineHeight,
            width: max(contentSize.width, bounds.width), height: lineHeight)
    }

    /// The caret's rectangle for `position`, in content coordinates.
    public func caretRect(for position: Int) -> CGRect {
        let index = line(containing: position)
        let column = position - lineStarts[index]
        let x = textInset + font.caretOffset(atCharacter: column, in: lines[index])
        return CGRect(x: x.rounded(), y: rectForLine(index).minY, width: 1, height: lineHeight)
    }

    /// The character position nearest `point` (content coordinates).
    public func position(closestTo point: CGPoint) -> Int {
        let index = min(max(Int(((point.y - textInset) / lineHeight).rounded(.down)), 0), lines.count - 1)
        let column = font.characterIndex(closestTo: point.x - textInset, in: lines[index])
        return lineStarts[index] + min(column, lastColumn(of: index))
    }

    /// The last caret column on `line`: its end, or before the space a wrapped line ends
    /// with (the position after it is the next line's start).
    private func lastColumn(of line: Int) -> Int {
        let count = lines[line].count
        guard !lineEndsParagraph[line], count > 0 else { return count }
        return count - 1
    }

    /// The width lines wrap to now (0: they do not).
    private var wrapWidth: CGFloat {
        wrapsLines ? max(bounds.width - 2 * textInset - 1, 0) : 0
    }

    private func rebuildLines() {
        let width = wrapWidth
        if width != wrappedWidth { wrapCache = [:] }
        wrappedWidth = width
        lines = []
        lineStarts = []
        lineEndsParagraph = []
        var start = 0
        var cache: [Substring: [Range<Int>]] = [:]
        for paragraph in editor.text.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(paragraph)
            let ranges: [Range<Int>]
            if width <= 0 {
                ranges = [0..<text.count]
            } else if let known = cache[paragraph] ?? wrapCache[paragraph] {
                ranges = known
                cache[paragraph] = known
            } else {
                ranges = font.lineRanges(wrapping: text, toWidth: width)
                cache[paragraph] = ranges
            }
            if ranges.count == 1 {
                lines.append(text)
                lineStarts.append(start)
                lineEndsParagraph.append(true)
            } else {
                let characters = Array(text)
                for (number, range) in ranges.enumerated() {
                    lines.append(String(characters[range]))
                    lineStarts.append(start + range.lowerBound)
                    lineEndsParagraph.append(number == ranges.count - 1)
                }
            }
            start += text.count + 1
        }
        wrapCache = cache
    }

    private func updateContentSize() {
        var widest: CGFloat = 0
        if !wrapsLines {
            for line in lines where !line.isEmpty { widest = max(widest, font.measure(line).width) }
        }
        contentSize = CGSize(
            width: wrapsLines ? bounds.width : (widest + 2 * textInset + 1).rounded(.up),
            height: CGFloat(lines.count) * lineHeight + 2 * textInset)
    }

    /// The text changed from line `firstLine` on: relays out and redraws from there (from
    /// the line before when lines wrap: a deletion may pull a word up onto it).
    private func textDidChange(redrawingFrom firstLine: Int) {
        let oldCount = lines.count
        rebuildLines()
        updateContentSize()
        let first = wrapsLines ? max(firstLine - 1, 0) : firstLine
        let from = lines.count == oldCount ? first : min(first, oldCount - 1)
        let top = rectForLine(max(from, 0)).minY - canvasOffset.y
        canvas.setNeedsDisplay(CGRect(x: 0, y: top, width: canvas.bounds.width, height: canvas.bounds.height - top))
    }

    // MARK: Drawing (called by the canvas)

    /// Draws the lines crossing `rect` (canvas coordinates, the canvas at ``canvasOffset``).
    func drawText(in rect: CGRect, context: GraphicsContext) {
        let textColor = effectiveTextColor
        let selectionColor = self.selectionColor ?? effectiveAppearance.palette.selection
        context.setFillColor(effectiveTextBackgroundColor)
        context.fill(rect)
        let offset = canvasOffset
        let contentRect = rect.offsetBy(dx: offset.x, dy: offset.y)
        let first = max(0, Int(((contentRect.minY - textInset) / lineHeight).rounded(.down)))
        let last = min(lines.count - 1, Int(((contentRect.maxY - textInset) / lineHeight).rounded(.down)))
        guard first <= last else { return }
        let selection = editor.selection
        for index in first...last {
            let lineRect = rectForLine(index).offsetBy(dx: -offset.x, dy: -offset.y)
            let start = lineStarts[index], end = start + lines[index].count
            if !selection.isEmpty, selection.lowerBound <= end, selection.upperBound > start {
                let from = max(selection.lowerBound, start) - start
                let to = min(selection.upperBound, end) - start
                var spans = from < to ? font.selectionRanges(forCharacters: from..<to, in: lines[index]) : []
                if selection.upperBound > end { spans.append((font.measure(lines[index]).width)...(font.measure(lines[index]).width + 6)) }
                context.setFillColor(selectionColor)
                for span in spans {
                    context.fill(CGRect(
                        x: lineRect.minX + textInset + span.lowerBound, y: lineRect.minY,
                        width: span.upperBound - span.lowerBound, height: lineRect.height))
                }
            }
            if !lines[index].isEmpty {
                let baseline = (lineRect.minY + font.ascent).rounded()
                context.draw(lines[index], at: CGPoint(x: lineRect.minX + textInset, y: baseline), font: font, color: textColor)
                // An input method's preedit: underlined, one point thick, two below the baseline.
                if let marked = editor.markedRange, marked.lowerBound < end, marked.upperBound > start {
                    let from = max(marked.lowerBound, start) - start, to = min(marked.upperBound, end) - start
                    context.setFillColor(textColor)
                    for span in font.selectionRanges(forCharacters: from..<to, in: lines[index]) {
                        context.fill(CGRect(
                            x: lineRect.minX + textInset + span.lowerBound, y: baseline + 2,
                            width: span.upperBound - span.lowerBound, height: 1))
                    }
                }
            }
        }
        if isFirstResponder, isCaretVisible, selection.isEmpty, !editor.isCaretHidden {
            context.setFillColor(textColor)
            context.fill(caretRect(for: editor.caret).offsetBy(dx: -offset.x, dy: -offset.y))
        }
    }

    // MARK: Scrolling

    open override func contentOffsetDidChange(from oldOffset: CGPoint) {
        super.contentOffsetDidChange(from: oldOffset)
        let offset = contentOffset
        canvas.frame = CGRect(origin: offset, size: bounds.size)
        let dx = offset.x - canvasOffset.x, dy = offset.y - canvasOffset.y
        canvasOffset = offset
        canvas.scrollContents(dx: -dx, dy: -dy)
        if isFirstResponder { window?.textInputDidChange() }  // the caret moved on the surface
    }

    open override func layoutSubviews() {
        if wrapWidth != wrappedWidth {
            rebuildLines()
            updateContentSize()
            contentOffset = clamped(contentOffset)
            canvas.setNeedsDisplay()
            window?.textInputDidChange()
        }
        if canvas.bounds.size != bounds.size {
            canvas.frame = CGRect(origin: contentOffset, size: bounds.size)
            canvasOffset = contentOffset
            canvas.setNeedsDisplay()
        }
        super.layoutSubviews()
    }

    // MARK: Editing

    /// Redraws the lines between two caret or selection states.
    private func selectionDidChange(from old: Range<Int>, caret oldCaret: Int) {
        let lines = [old.lowerBound, old.upperBound, oldCaret, editor.selection.lowerBound,
            editor.selection.upperBound, editor.caret].map(line(containing:))
        guard let low = lines.min(), let high = lines.max() else { return }
        let top = rectForLine(low).minY - canvasOffset.y
        let bottom = rectForLine(high).maxY - canvasOffset.y
        canvas.setNeedsDisplay(CGRect(x: 0, y: top, width: canvas.bounds.width, height: bottom - top))
        scrollRectToVisible(caretRect(for: editor.caret).insetBy(dx: -textInset, dy: -textInset), animated: false)
        restartBlinking()
        window?.textInputDidChange()
    }

    /// Applies `body` to the editor; when the text changed, relays out, redraws from the
    /// first line touched, keeps the caret in view and tells ``onTextChange`` and the input
    /// method.
    func edit(_ body: (inout EditableText) -> Void) {
        let firstLine = line(containing: min(editor.selection.lowerBound, editor.markedRange?.lowerBound ?? .max))
        let before = editor.revision, caretBefore = editor.caret, selectionBefore = editor.selection
        body(&editor)
        guard editor.revision != before else {
            if editor.caret != caretBefore || editor.selection != selectionBefore {
                selectionDidChange(from: selectionBefore, caret: caretBefore)
            }
            return
        }
        textDidChange(redrawingFrom: firstLine)
        scrollRectToVisible(caretRect(for: editor.caret).insetBy(dx: -textInset, dy: -textInset), animated: false)
        restartBlinking()
        onTextChange?(self)
        window?.textInputDidChange()
    }

    private func move(to position: Int, extending: Bool) {
        let old = editor.selection, oldCaret = editor.caret
        if editor.moveCaret(to: position, extending: extending) { selectionDidChange(from: old, caret: oldCaret) }
    }

    /// Selects `range` (characters, clamped).
    public func select(_ range: Range<Int>) {
        let old = editor.selection, oldCaret = editor.caret
        editor.select(range)
        selectionDidChange(from: old, caret: oldCaret)
    }

    open override func keyDown(_ event: KeyEvent) {
        // A key during a composition ends it first (the preedit goes).
        if editor.markedRange != nil { edit { $0.unmarkText() } }
        if handleClipboardKey(event) { return }
        let extending = event.modifiers.contains(.shift)
        let control = event.modifiers.contains(.control)
        defer { if extending, editor.hasSelection { publishPrimarySelection() } }
        let caretLine = line(containing: editor.caret)
        let column = editor.caret - lineStarts[caretLine]
        let page = max(1, Int(bounds.height / lineHeight) - 1)
        func vertical(_ lineDelta: Int) {
            let target = min(max(caretLine + lineDelta, 0), lines.count - 1)
            guard target != caretLine else {
                move(to: lineDelta < 0 ? 0 : editor.count, extending: extending)
                return
            }
            let x = font.caretOffset(atCharacter: column, in: lines[caretLine])
            move(to: lineStarts[target] + min(font.characterIndex(closestTo: x, in: lines[target]), lastColumn(of: target)), extending: extending)
        }
        switch event.keysym {
        case 0xff51: move(to: editor.hasSelection && !extending ? editor.selection.lowerBound : editor.caret - 1, extending: extending)
        case 0xff53: move(to: editor.hasSelection && !extending ? editor.selection.upperBound : editor.caret + 1, extending: extending)
        case 0xff52: vertical(-1)
        case 0xff54: vertical(1)
        case 0xff55: vertical(-page)
        case 0xff56: vertical(page)
        case 0xff50: move(to: control ? 0 : lineStarts[caretLine], extending: extending)
        case 0xff57: move(to: control ? editor.count : lineStarts[caretLine] + lastColumn(of: caretLine), extending: extending)
        case 0xff08 where isEditable: edit { $0.deleteBackward() }
        case 0xffff where isEditable: edit { $0.deleteForward() }
        case 0xff0d, 0xff8d: if isEditable { edit { $0.type("\n") } }
        case 0x61 where control, 0x41 where control:
            select(0..<editor.count)
            publishPrimarySelection()
        case 0x7a where control: if isEditable { edit { $0.undo() } }
        default:
            if isEditable, !control, !event.text.isEmpty, event.text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) {
                edit { $0.type(event.text) }
            } else {
                super.keyDown(event)
            }
        }
    }

    open override func pointerDown(_ event: PointerEvent) {
        if !isFirstResponder { _ = becomeFirstResponder() }
        if editor.markedRange != nil { edit { $0.unmarkText() } }  // a click ends a composition
        let position = position(closestTo: event.location(in: self))
        if event.button == .middle {
            // Pastes the primary selection where it was clicked, as X11 and GTK do.
            move(to: position, extending: false)
            paste(from: .primarySelection)
            return
        }
        isSelectingByDrag = true
        move(to: position, extending: event.modifiers.contains(.shift))
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard isSelectingByDrag else { return super.pointerMoved(event) }
        move(to: position(closestTo: event.location(in: self)), extending: true)
    }

    open override func pointerUp(_ event: PointerEvent) {
        guard isSelectingByDrag else { return }
        isSelectingByDrag = false
        publishPrimarySelection()
    }

    open override func becomeFirstResponder() -> Bool {
        let wasFirstResponder = isFirstResponder
        let became = super.becomeFirstResponder()
        if became, !wasFirstResponder {
            canvas.setNeedsDisplay(caretRect(for: editor.caret).offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y))
            restartBlinking()
        }
        return became
    }

    open override func resignFirstResponder() -> Bool {
        let wasFirstResponder = isFirstResponder
        guard super.resignFirstResponder() else { return false }
        if wasFirstResponder {
            // A composition in progress ends with the focus (its preedit goes).
            if editor.markedRange != nil { edit { $0.unmarkText() } }
            stopBlinking()
            canvas.setNeedsDisplay(caretRect(for: editor.caret).offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y))
        }
        return true
    }

    /// Redraws only the caret's rectangle.
    func invalidateCaret() {
        canvas.setNeedsDisplay(caretRect(for: editor.caret).offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y))
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        if window == nil { stopBlinking() }
    }
}

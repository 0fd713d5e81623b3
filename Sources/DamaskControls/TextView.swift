import DamaskGraphics
import DamaskViews
import Foundation

/// A scrolling, editable multi-line text (UIKit's `UITextView`): lines separated by
/// newlines, a caret, a selection that spans lines, the keyboard and the pointer.
///
/// The editing state is an ``EditableText`` (the text field's editing core: clusters,
/// undo steps); positions are `Character` offsets into ``text``. Lines do not wrap: a long
/// line widens the content, which scrolls sideways.
///
/// Scrolling costs what is new: the text is drawn by one viewport-sized view that stays
/// over the visible area, and a scroll moves its retained pixels
/// (``View/scrollContents(dx:dy:)``) and draws only the lines uncovered. An edit redraws
/// only the lines it touches (every line below when the line count changes).
///
/// Keys while first responder: typing, Return, Backspace, Delete, ← → ↑ ↓, Home and End
/// (of the line; with Ctrl of the text), Page Up and Page Down, with Shift to extend the
/// selection; Ctrl+A selects everything, Ctrl+Z undoes. A press places the caret, a drag
/// selects.
open class TextView: ScrollView {
    /// The text.
    open var text: String {
        get { editor.text }
        set {
            editor = EditableText(newValue, caret: 0)
            textDidChange(redrawingFrom: 0)
        }
    }

    /// The font of every line.
    open var font = Font.system(size: 15) {
        didSet {
            updateContentSize()
            canvas.setNeedsDisplay()
        }
    }
    /// The text's colour.
    open var textColor = Color.black {
        didSet { canvas.setNeedsDisplay() }
    }
    /// The selection's background.
    open var selectionColor = Color(red: 0.7, green: 0.82, blue: 1)
    /// The background behind the text.
    open var textBackgroundColor = Color.white {
        didSet { canvas.setNeedsDisplay() }
    }
    /// Space between the view's edges and the text.
    open var textInset: CGFloat = 6 {
        didSet {
            updateContentSize()
            canvas.setNeedsDisplay()
        }
    }

    /// Whether the user can change the text (selection works either way).
    open var isEditable = true

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
    /// The lines' texts, parallel to ``lineStarts``.
    private var lines: [String] = [""]
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
        backgroundColor = textBackgroundColor
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
        return lineStarts[index] + min(column, lines[index].count)
    }

    private func rebuildLines() {
        lines = editor.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lineStarts = []
        lineStarts.reserveCapacity(lines.count)
        var start = 0
        for line in lines {
            lineStarts.append(start)
            start += line.count + 1
        }
    }

    private func updateContentSize() {
        var widest: CGFloat = 0
        for line in lines where !line.isEmpty { widest = max(widest, font.measure(line).width) }
        contentSize = CGSize(
            width: (widest + 2 * textInset + 1).rounded(.up),
            height: CGFloat(lines.count) * lineHeight + 2 * textInset)
    }

    /// The text changed from line `firstLine` on: relays out and redraws from there.
    private func textDidChange(redrawingFrom firstLine: Int) {
        let oldCount = lines.count
        rebuildLines()
        updateContentSize()
        let from = lines.count == oldCount ? firstLine : min(firstLine, oldCount - 1)
        let top = rectForLine(max(from, 0)).minY - canvasOffset.y
        canvas.setNeedsDisplay(CGRect(x: 0, y: top, width: canvas.bounds.width, height: canvas.bounds.height - top))
    }

    // MARK: Drawing (called by the canvas)

    /// Draws the lines crossing `rect` (canvas coordinates, the canvas at ``canvasOffset``).
    func drawText(in rect: CGRect, context: GraphicsContext) {
        context.setFillColor(textBackgroundColor)
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
            }
        }
        if isFirstResponder, selection.isEmpty {
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
    }

    open override func layoutSubviews() {
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
    }

    private func edit(_ body: (inout EditableText) -> Void) {
        let firstLine = line(containing: editor.selection.lowerBound)
        let before = editor.revision
        body(&editor)
        guard editor.revision != before else { return }
        textDidChange(redrawingFrom: firstLine)
        scrollRectToVisible(caretRect(for: editor.caret).insetBy(dx: -textInset, dy: -textInset), animated: false)
        onTextChange?(self)
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
        let extending = event.modifiers.contains(.shift)
        let control = event.modifiers.contains(.control)
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
            move(to: lineStarts[target] + min(font.characterIndex(closestTo: x, in: lines[target]), lines[target].count), extending: extending)
        }
        switch event.keysym {
        case 0xff51: move(to: editor.hasSelection && !extending ? editor.selection.lowerBound : editor.caret - 1, extending: extending)
        case 0xff53: move(to: editor.hasSelection && !extending ? editor.selection.upperBound : editor.caret + 1, extending: extending)
        case 0xff52: vertical(-1)
        case 0xff54: vertical(1)
        case 0xff55: vertical(-page)
        case 0xff56: vertical(page)
        case 0xff50: move(to: control ? 0 : lineStarts[caretLine], extending: extending)
        case 0xff57: move(to: control ? editor.count : lineStarts[caretLine] + lines[caretLine].count, extending: extending)
        case 0xff08 where isEditable: edit { $0.deleteBackward() }
        case 0xffff where isEditable: edit { $0.deleteForward() }
        case 0xff0d, 0xff8d: if isEditable { edit { $0.type("\n") } }
        case 0x61 where control, 0x41 where control: select(0..<editor.count)
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
        let position = position(closestTo: event.location(in: self))
        isSelectingByDrag = true
        move(to: position, extending: event.modifiers.contains(.shift))
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard isSelectingByDrag else { return super.pointerMoved(event) }
        move(to: position(closestTo: event.location(in: self)), extending: true)
    }

    open override func pointerUp(_ event: PointerEvent) {
        isSelectingByDrag = false
    }

    open override func becomeFirstResponder() -> Bool {
        let became = super.becomeFirstResponder()
        if became { canvas.setNeedsDisplay(caretRect(for: editor.caret).offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y)) }
        return became
    }
}

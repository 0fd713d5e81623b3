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
/// (of the visual line; with Ctrl of the text), Page Up and Page Down (the caret and the
/// view move by a page), with Shift to extend the selection; Ctrl+← → move by word and
/// Ctrl+Backspace/Delete delete by word (Unicode word boundaries, as ``TextField``),
/// Ctrl+↑ ↓ move by paragraph; Ctrl+A selects everything, Ctrl+Z undoes, Ctrl+Shift+Z and
/// Ctrl+Y redo; Ctrl+C, Ctrl+X and Ctrl+V (and Shift+Insert) copy, cut and paste through the
/// window's clipboard, as ``TextField`` does. Shortcuts go by the key's Latin letter, so
/// they work on any layout. A press places the caret, a drag selects (and offers the
/// selection as the primary selection), a double click selects a word, a triple click a
/// paragraph, a middle click pastes the primary selection.
///
/// ↑ and ↓ keep the caret's x across lines (its goal column: through a shorter line and on
/// past it). Where a line wraps inside a run without spaces, the position between its last
/// character and the next line's first is both the end of one visual line and the start of
/// the next: End, ↑ ↓ and a click past the line's end put the caret at the end of the line
/// (``caretLine`` says which line it shows on), any other move or edit at the next line's
/// start. A wrapped line that ends with spaces ends before them (the position after them
/// is the next line's start).
///
/// Assistive technologies read and edit it through AT-SPI's Text and EditableText
/// (`TextView+Accessibility.swift`): a multi-line text whose lines are the visual lines.
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
            caretIsAtLineEnd = false
            goalX = nil
            textDidChange(redrawingFrom: 0)
            postAccessibilityChanges(text: true)
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

    /// What the input method composing into the view said about its text (language and
    /// direction): its preedit is shaped in them as ``TextField``'s is; back to none and
    /// automatic when its activation ends (``InputMethodTextAttributes``).
    public internal(set) var inputMethodAttributes = InputMethodTextAttributes()

    /// The selected range, in characters (empty at the caret).
    public var selectedRange: Range<Int> { editor.selection }

    /// The offset of each line's first character (at least one line).
    public private(set) var lineStarts: [Int] = [0]

    /// The visual line the caret shows on: the line holding it, or the line before when
    /// the caret sits at the end of a line wrapped inside a word (reached by End, ↑ ↓ or a
    /// click there; the same position is also the next line's start).
    public var caretLine: Int {
        let index = line(containing: editor.caret)
        if caretIsAtLineEnd, index > 0, lineStarts[index] == editor.caret, endsInsideWord(index - 1) { return index - 1 }
        return index
    }

    /// The caret's rectangle in content coordinates, on ``caretLine``.
    public var insertionPointRect: CGRect { caretRect(for: editor.caret, onLine: caretLine) }

    /// The view that draws the visible lines: viewport-sized, kept over the visible area.
    private let canvas = TextCanvasView()
    /// The lines' texts, parallel to ``lineStarts`` (a wrapped line keeps the spaces it
    /// ends with).
    private var lines: [String] = [""]
    /// Whether each line ends its paragraph (else it wraps on to the next).
    private var lineEndsParagraph: [Bool] = [true]
    /// The layouts of the lines holding a styled preedit (``preeditLayout(forLine:)``), by
    /// line index; emptied whenever the lines are built again or the style changes.
    var preeditLayouts: [Int: TextLayout] = [:]
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
    /// Whether the caret shows at the end of the line before the one holding it (see
    /// ``caretLine``); every move but End, ↑ ↓ and a click, and every edit, clears it.
    private var caretIsAtLineEnd = false
    /// The x (content coordinates) ↑ and ↓ keep the caret at, from the first of a run of
    /// vertical moves; nil after any other move or edit.
    private var goalX: CGFloat?

    /// Creates a text view.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        canvas.owner = self
        insertSubview(canvas, at: 0)
        canvas.frame = CGRect(origin: .zero, size: frame.size)
        backgroundColor = effectiveTextBackgroundColor
        isAccessibilityElement = true  // a multi-line text (TextView+Accessibility.swift)
        accessibilityTraits = .textEntry
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

    /// The text of visual line `index` (without the line break that may end it).
    func lineText(_ index: Int) -> String { lines[index] }

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

    /// The caret's rectangle for `position`, in content coordinates (at the start of the
    /// line holding it; ``insertionPointRect`` is the caret's own).
    public func caretRect(for position: Int) -> CGRect {
        caretRect(for: position, onLine: line(containing: position))
    }

    /// The caret's rectangle for `position` drawn on `line` (the line holding it, or the
    /// line it ends).
    private func caretRect(for position: Int, onLine index: Int) -> CGRect {
        let column = min(max(position - lineStarts[index], 0), lines[index].count)
        let offset = preeditLayout(forLine: index)?.caretOffset(at: column)
        let x = textInset + (offset ?? font.caretOffset(atCharacter: column, in: lines[index]))
        return CGRect(x: x.rounded(), y: rectForLine(index).minY, width: 1, height: lineHeight)
    }

    /// The character position nearest `point` (content coordinates).
    public func position(closestTo point: CGPoint) -> Int {
        target(closestTo: point).position
    }

    /// The caret position nearest `point` (content coordinates), and whether it is the end
    /// of a line wrapped inside a word (a click past that line's end).
    private func target(closestTo point: CGPoint) -> (position: Int, atLineEnd: Bool) {
        let index = min(max(Int(((point.y - textInset) / lineHeight).rounded(.down)), 0), lines.count - 1)
        return target(onLine: index, x: point.x - textInset)
    }

    /// The caret position on `line` nearest `x` (from the line's origin), and whether it is
    /// that line's wrapped end.
    private func target(onLine index: Int, x: CGFloat) -> (position: Int, atLineEnd: Bool) {
        let closest = preeditLayout(forLine: index)?.characterIndex(closestTo: x) ?? font.characterIndex(closestTo: x, in: lines[index])
        let column = min(closest, lastColumn(of: index))
        return (lineStarts[index] + column, endsInsideWord(index) && column == lines[index].count)
    }

    /// The last caret column on `line`: its end, or before the spaces a wrapped line ends
    /// with (the position after them is the next line's start). A line wrapped inside a
    /// word ends after its last character, shown at the line's end (``caretLine``).
    private func lastColumn(of line: Int) -> Int {
        let characters = lines[line]
        guard !lineEndsParagraph[line], let last = characters.last, last.isWhitespace else { return characters.count }
        return characters.count - 1
    }

    /// Whether `line` wraps on to the next line without a space to break at (a long word,
    /// CJK): its end and the next line's start are one position, told apart by
    /// ``caretIsAtLineEnd``.
    private func endsInsideWord(_ line: Int) -> Bool {
        !lineEndsParagraph[line] && !(lines[line].last?.isWhitespace ?? true)
    }

    /// The width lines wrap to now (0: they do not).
    private var wrapWidth: CGFloat {
        wrapsLines ? max(bounds.width - 2 * textInset - 1, 0) : 0
    }

    private func rebuildLines() {
        let width = wrapWidth
        if width != wrappedWidth { wrapCache = [:] }
        wrappedWidth = width
        preeditLayouts = [:]
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
            for (index, line) in lines.enumerated() where !line.isEmpty {
                widest = max(widest, preeditLayout(forLine: index)?.width ?? font.measure(line).width)
            }
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
            // A line holding a preedit the input method styled is laid out with it as a run
            // of its own; every other line is the font's line.
            let styled = preeditLayout(forLine: index)
            func xRanges(_ range: Range<Int>) -> [ClosedRange<CGFloat>] {
                guard let styled else { return font.selectionRanges(forCharacters: range, in: lines[index]) }
                return styled.selectionRanges(for: range, visible: -CGFloat.infinity...CGFloat.infinity)
            }
            if !selection.isEmpty, selection.lowerBound <= end, selection.upperBound > start {
                let from = max(selection.lowerBound, start) - start
                let to = min(selection.upperBound, end) - start
                var spans = from < to ? xRanges(from..<to) : []
                let width = styled?.width ?? font.measure(lines[index]).width
                if selection.upperBound > end { spans.append(width...(width + 6)) }
                context.setFillColor(selectionColor)
                for span in spans {
                    context.fill(CGRect(
                        x: lineRect.minX + textInset + span.lowerBound, y: lineRect.minY,
                        width: span.upperBound - span.lowerBound, height: lineRect.height))
                }
            }
            if !lines[index].isEmpty {
                let baseline = (lineRect.minY + font.ascent).rounded()
                let origin = CGPoint(x: lineRect.minX + textInset, y: baseline)
                if let styled {
                    let visible = (rect.minX - origin.x)...(rect.maxX - origin.x)
                    styled.draw(in: context, at: origin, visible: visible, color: textColor)
                } else {
                    context.draw(lines[index], at: origin, font: font, color: textColor)
                }
                // An input method's preedit: underlined, one point thick, two below the baseline.
                if let marked = editor.markedRange, marked.lowerBound < end, marked.upperBound > start {
                    let from = max(marked.lowerBound, start) - start, to = min(marked.upperBound, end) - start
                    context.setFillColor(textColor)
                    for span in xRanges(from..<to) {
                        context.fill(CGRect(
                            x: lineRect.minX + textInset + span.lowerBound, y: baseline + 2,
                            width: span.upperBound - span.lowerBound, height: 1))
                    }
                }
            }
        }
        if isFirstResponder, isCaretVisible, selection.isEmpty, !editor.isCaretHidden {
            context.setFillColor(textColor)
            context.fill(insertionPointRect.offsetBy(dx: -offset.x, dy: -offset.y))
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
            // The caret stays in view when the lines wrap anew (a narrower window).
            if isFirstResponder { scrollCaretToVisible() }
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

    /// Scrolls the least distance that shows the caret with ``textInset`` around it.
    private func scrollCaretToVisible() {
        scrollRectToVisible(insertionPointRect.insetBy(dx: -textInset, dy: -textInset), animated: false)
    }

    /// Redraws the lines between two caret or selection states (`oldLine`: the line the
    /// old caret showed on).
    private func selectionDidChange(from old: Range<Int>, caret oldCaret: Int, line oldLine: Int) {
        let lines = [old.lowerBound, old.upperBound, oldCaret, editor.selection.lowerBound,
            editor.selection.upperBound, editor.caret].map(line(containing:)) + [oldLine, caretLine]
        guard let low = lines.min(), let high = lines.max() else { return }
        let top = rectForLine(low).minY - canvasOffset.y
        let bottom = rectForLine(high).maxY - canvasOffset.y
        canvas.setNeedsDisplay(CGRect(x: 0, y: top, width: canvas.bounds.width, height: bottom - top))
        scrollCaretToVisible()
        restartBlinking()
        if old != editor.selection || oldCaret != editor.caret { postAccessibilityChanges(text: false) }
        window?.textInputDidChange()
    }

    /// Applies `body` to the editor; when the text changed, relays out, redraws from the
    /// first line touched, keeps the caret in view and tells ``onTextChange``, assistive
    /// technologies and the input method. The caret leaves a line end (``caretLine``) and
    /// forgets its goal column.
    func edit(_ body: (inout EditableText) -> Void) {
        let firstLine = line(containing: min(editor.selection.lowerBound, editor.markedRange?.lowerBound ?? .max))
        let before = editor.revision, caretBefore = editor.caret, selectionBefore = editor.selection
        let lineBefore = caretLine
        body(&editor)
        caretIsAtLineEnd = false
        goalX = nil
        guard editor.revision != before else {
            if editor.caret != caretBefore || editor.selection != selectionBefore || caretLine != lineBefore {
                selectionDidChange(from: selectionBefore, caret: caretBefore, line: lineBefore)
            }
            return
        }
        textDidChange(redrawingFrom: min(firstLine, lineBefore))
        scrollCaretToVisible()
        restartBlinking()
        onTextChange?(self)
        postAccessibilityChanges(text: true)
        window?.textInputDidChange()
    }

    /// Moves the caret to `position`; `atLineEnd`: shown at the end of the line before
    /// when `position` is where a line wraps inside a word; `keepsGoal`: a vertical move,
    /// which keeps ``goalX``.
    private func move(to position: Int, extending: Bool, atLineEnd: Bool = false, keepsGoal: Bool = false) {
        let old = editor.selection, oldCaret = editor.caret, oldLine = caretLine
        let moved = editor.moveCaret(to: position, extending: extending)
        caretIsAtLineEnd = atLineEnd
        if !keepsGoal { goalX = nil }
        if moved || caretLine != oldLine { selectionDidChange(from: old, caret: oldCaret, line: oldLine) }
    }

    /// Selects `range` (characters, clamped).
    public func select(_ range: Range<Int>) {
        let old = editor.selection, oldCaret = editor.caret, oldLine = caretLine
        editor.select(range)
        caretIsAtLineEnd = false
        goalX = nil
        selectionDidChange(from: old, caret: oldCaret, line: oldLine)
    }

    /// ↑ ↓ Page Up and Page Down: moves the caret `lineDelta` visual lines at its goal x
    /// (to the text's start or end when no line is left that way). `scrolls`: the view
    /// scrolls by as many lines, so the caret keeps its place on screen (a page move).
    private func moveVertically(by lineDelta: Int, extending: Bool, scrolls: Bool = false) {
        let current = caretLine
        let destination = min(max(current + lineDelta, 0), lines.count - 1)
        guard destination != current else {
            move(to: lineDelta < 0 ? 0 : editor.count, extending: extending)
            return
        }
        let x = goalX ?? (insertionPointRect.minX - textInset)
        if scrolls {
            scroll(by: CGPoint(x: 0, y: CGFloat(destination - current) * lineHeight))
        }
        let found = target(onLine: destination, x: x)
        move(to: found.position, extending: extending, atLineEnd: found.atLineEnd, keepsGoal: true)
        goalX = x
    }

    /// Ctrl+↑ (`forwards` false) and Ctrl+↓: to the start of the paragraph, or of the one
    /// before when already there; to the end of the paragraph, or of the next one.
    private func moveByParagraph(forwards: Bool, extending: Bool) {
        let characters = editor.text
        var position = editor.caret
        var index = characters.index(characters.startIndex, offsetBy: position)
        if forwards {
            if index < characters.endIndex, characters[index] == "\n" {
                index = characters.index(after: index)
                position += 1
            }
            while index < characters.endIndex, characters[index] != "\n" {
                index = characters.index(after: index)
                position += 1
            }
        } else {
            if index > characters.startIndex, characters[characters.index(before: index)] == "\n" {
                index = characters.index(before: index)
                position -= 1
            }
            while index > characters.startIndex, characters[characters.index(before: index)] != "\n" {
                index = characters.index(before: index)
                position -= 1
            }
        }
        move(to: position, extending: extending)
    }

    /// Ctrl+← (`leftwards`) and Ctrl+→: to the start of the word before, the end of the
    /// word after, mirrored on a right-to-left line (``WordBoundaries``; the direction is
    /// the caret's visual line's, so a long text is not shaped whole).
    private func moveByWord(leftwards: Bool, extending: Bool) {
        let rightToLeft = font.isRightToLeft(lines[caretLine])
        let words = WordBoundaries(editor.text)
        let target = leftwards != rightToLeft ? words.previousWordStart(before: editor.caret) : words.nextWordEnd(after: editor.caret)
        move(to: target, extending: extending)
    }

    /// Ctrl with a key (by its Latin letter, so on any layout): returns whether it was one
    /// of the text view's shortcuts.
    private func handleControlKey(_ event: KeyEvent, extending: Bool) -> Bool {
        switch event.shortcutKeysym {
        case 0x61, 0x41:  // Ctrl+A
            select(0..<editor.count)
            publishPrimarySelection()
        case 0x7a where extending, 0x5a where extending: if isEditable { edit { $0.redo() } }  // Ctrl+Shift+Z
        case 0x7a, 0x5a: if isEditable { edit { $0.undo() } }  // Ctrl+Z
        case 0x79, 0x59: if isEditable { edit { $0.redo() } }  // Ctrl+Y
        case 0xff51: moveByWord(leftwards: true, extending: extending)  // Ctrl+Left
        case 0xff53: moveByWord(leftwards: false, extending: extending)  // Ctrl+Right
        case 0xff52: moveByParagraph(forwards: false, extending: extending)  // Ctrl+Up
        case 0xff54: moveByParagraph(forwards: true, extending: extending)  // Ctrl+Down
        case 0xff08: if isEditable { edit { $0.deleteWordBackward() } }  // Ctrl+BackSpace
        case 0xffff: if isEditable { edit { $0.deleteWordForward() } }  // Ctrl+Delete
        case 0xff50: move(to: 0, extending: extending)  // Ctrl+Home
        case 0xff57: move(to: editor.count, extending: extending)  // Ctrl+End
        default: return false
        }
        return true
    }

    open override func keyDown(_ event: KeyEvent) {
        // A key during a composition ends it first (the preedit goes).
        if editor.markedRange != nil { edit { $0.unmarkText() } }
        if handleClipboardKey(event) { return }
        let extending = event.modifiers.contains(.shift)
        let control = event.modifiers.contains(.control)
        defer { if extending, editor.hasSelection { publishPrimarySelection() } }
        if control, !event.modifiers.contains(.alt), !event.modifiers.contains(.logo), handleControlKey(event, extending: extending) {
            return
        }
        let caretLine = self.caretLine
        let page = max(1, Int(bounds.height / lineHeight) - 1)
        switch event.keysym {
        case 0xff51: move(to: editor.hasSelection && !extending ? editor.selection.lowerBound : editor.caret - 1, extending: extending)
        case 0xff53: move(to: editor.hasSelection && !extending ? editor.selection.upperBound : editor.caret + 1, extending: extending)
        case 0xff52: moveVertically(by: -1, extending: extending)
        case 0xff54: moveVertically(by: 1, extending: extending)
        case 0xff55: moveVertically(by: -page, extending: extending, scrolls: true)
        case 0xff56: moveVertically(by: page, extending: extending, scrolls: true)
        case 0xff50: move(to: lineStarts[caretLine], extending: extending)
        case 0xff57:
            move(to: lineStarts[caretLine] + lastColumn(of: caretLine), extending: extending, atLineEnd: endsInsideWord(caretLine))
        case 0xff08 where isEditable: edit { $0.deleteBackward() }
        case 0xffff where isEditable: edit { $0.deleteForward() }
        case 0xff0d, 0xff8d: if isEditable { edit { $0.insert("\n") } }  // a line break is an undo step of its own
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
        let hit = target(closestTo: event.location(in: self))
        if event.button == .middle {
            // Pastes the primary selection where it was clicked, as X11 and GTK do.
            move(to: hit.position, extending: false)
            paste(from: .primarySelection)
            return
        }
        switch event.clickCount {
        case 2:  // a word (or run of spaces or punctuation)
            select(editor.wordRange(at: hit.position))
            publishPrimarySelection()
        case 3...:  // the paragraph, with its line break
            select(paragraphRange(at: hit.position))
            publishPrimarySelection()
        default:
            isSelectingByDrag = true
            move(to: hit.position, extending: event.modifiers.contains(.shift), atLineEnd: hit.atLineEnd)
        }
    }

    /// The paragraph holding `position`, with the line break that ends it.
    private func paragraphRange(at position: Int) -> Range<Int> {
        var start = line(containing: position)
        while start > 0, !lineEndsParagraph[start - 1] { start -= 1 }
        var end = line(containing: position)
        while !lineEndsParagraph[end] { end += 1 }
        let upper = end + 1 < lineStarts.count ? lineStarts[end + 1] : editor.count
        return lineStarts[start]..<upper
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard isSelectingByDrag else { return super.pointerMoved(event) }
        let hit = target(closestTo: event.location(in: self))
        move(to: hit.position, extending: true, atLineEnd: hit.atLineEnd)
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
            invalidateCaret()
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
            invalidateCaret()
        }
        return true
    }

    /// Redraws the visual lines in `range` (the caret with them).
    func redrawLines(_ range: ClosedRange<Int>) {
        let top = rectForLine(range.lowerBound).minY - canvasOffset.y
        let bottom = rectForLine(range.upperBound).maxY - canvasOffset.y
        canvas.setNeedsDisplay(CGRect(x: 0, y: top, width: canvas.bounds.width, height: bottom - top))
    }

    /// Redraws only the caret's rectangle.
    func invalidateCaret() {
        canvas.setNeedsDisplay(insertionPointRect.offsetBy(dx: -canvasOffset.x, dy: -canvasOffset.y))
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        if window == nil { stopBlinking() }
    }
}

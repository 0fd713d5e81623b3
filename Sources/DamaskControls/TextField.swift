import DamaskGraphics
import DamaskViews
import Foundation

/// A one-line editable text field with a blinking cursor, as a desktop user expects one
/// (UIKit's `UITextField`).
///
/// Empty, it shows its ``placeholder`` in the secondary text colour. With
/// ``isSecureTextEntry`` every character shows as "•", and copying or cutting is refused
/// (pasting in still works). It is a ``Control``: it sends ``ControlEvent/editingDidBegin``
/// when it becomes first responder, ``ControlEvent/editingChanged`` after every edit that
/// changes the text, ``ControlEvent/primaryActionTriggered`` on Return and
/// ``ControlEvent/editingDidEnd`` when it resigns. Its colours follow
/// ``Appearance/current``.
///
/// Clicking it makes it the first responder; typed text, Backspace, Delete, ← → Home End
/// edit; Escape or Return ends editing. Text is edited by grapheme cluster (``EditableText``):
/// a Hangul syllable, "e + ◌́", an emoji sequence or a Bengali conjunct is one caret step
/// and one deletion; in bidirectional text ← and → move the caret left and right on
/// screen, and it is drawn where the next character in reading order goes. Ctrl+← →
/// move by word and Ctrl+Backspace/Delete delete by word (Unicode word boundaries);
/// Ctrl+Z undoes (typing is undone a run at a time), Ctrl+Shift+Z and Ctrl+Y redo.
///
/// Selection: a drag, Shift+arrows (and Shift+Home/End), a double click (a word), a triple
/// click or Ctrl+A (everything); typing replaces it. The text sits inside
/// ``padding`` and scrolls horizontally so that the caret always shows; the pointer is an
/// I-beam over the field.
///
/// Clipboard: Ctrl+C, Ctrl+X, Ctrl+V (and Shift+Insert) through the window's clipboard
/// ``Pasteboard``; what the user selects becomes the primary selection, and a middle click
/// pastes it at the click.
///
/// Damage: a blink invalidates only the cursor's rect; an edit or a selection change
/// invalidates the union of the old and new extents of the clusters that changed, moved or
/// changed selection state (one cluster more on each side, for contextual shaping), plus
/// the old and new caret; a scroll invalidates the text area.
///
/// Blinking is driven by a ``FrameTimer`` (one firing per half period, as UIKit's caret
/// timer; a display link would wake every frame) that runs only while the field is focused
/// and stops (cursor shown) after ``maximumBlinks`` blinks of inactivity, as GTK does;
/// with ``CaretBlinking/isEnabled`` off the cursor stays shown and no timer runs.
/// Main-actor.
open class TextField: Control, TextInput {
    /// The text, the caret and the selection, in grapheme clusters.
    public private(set) var editor: EditableText {
        didSet { cachedSurroundingText = nil }
    }
    /// ``surroundingText`` for the editor as it is, made on first use after each change: a
    /// text-input protocol reads it twice per key (whether the change is the input method's,
    /// then the state to send), and at the end of a long line it is 4,000 bytes.
    @exclusivity(unchecked) var cachedSurroundingText: SurroundingText?
    /// The text laid out in chunks: edits lay out only what they change, drawing only
    /// what is in view (a line of any length shows).
    @exclusivity(unchecked) private var layout: TextLayout
    /// The text; setting it puts the cursor at its end.
    public var text: String {
        get { editor.text }
        set { setText(newValue) }
    }
    /// The cursor position, in characters (grapheme clusters) from the start.
    public var cursorIndex: Int { editor.caret }
    /// The selected characters (empty when nothing is selected).
    public var selection: Range<Int> { editor.selection }
    /// How far the text is scrolled left, in points (0 when it fits).
    @exclusivity(unchecked) public private(set) var scrollOffset: CGFloat = 0
    /// Whether the cursor is drawn now.
    @exclusivity(unchecked) public private(set) var isCursorVisible = true
    /// How many times the cursor changed visibility by blinking.
    public private(set) var blinkCount = 0
    /// What the input method composing into the field said about its text (language and
    /// direction); back to none and automatic when its activation ends
    /// (``InputMethodTextAttributes``).
    @exclusivity(unchecked) public internal(set) var inputMethodAttributes = InputMethodTextAttributes()
    /// The language the input method last said it types (an RFC 3066 tag), or nil. The
    /// preedit is shaped in it (``preeditRunStyle``): fonts and glyph forms of that language
    /// where it writes the preedit's script (Han in "ja" takes a Japanese font).
    public var inputMethodLanguage: String? { inputMethodAttributes.language }
    /// The direction the input method last said its text runs in. The preedit is laid out in
    /// it (``preeditRunStyle``): ``TextInputDirection/rightToLeft`` shows an RTL preedit right
    /// to left in a left-to-right field; ``TextInputDirection/automatic`` follows the
    /// preedit's first strong character. The committed text's base direction still comes
    /// from its own first strong character.
    public var inputMethodTextDirection: TextInputDirection { inputMethodAttributes.direction }
    /// Called when the field stops being the first responder (as
    /// ``ControlEvent/editingDidEnd``).
    public var onEndEditing: @MainActor () -> Void = {}
    /// What the field shows while it is empty, in the secondary text colour.
    @exclusivity(unchecked) open var placeholder: String = "" {
        didSet { if placeholder != oldValue && editor.count == 0 { setNeedsDisplay(textArea) } }
    }
    /// Whether the text shows as "•" per character (a password); copying is refused.
    @exclusivity(unchecked) open var isSecureTextEntry = false {
        didSet {
            guard isSecureTextEntry != oldValue else { return }
            layout = TextLayout(displayedEditor, font: font)
            scrollOffset = 0
            scrollToCaret()
            setNeedsDisplay()
            window?.textInputDidChange()  // the input method is now told a password
        }
    }
    /// What the field holds, told to an input method (``TextContentType``; a secure field
    /// is told `.password` whatever this says).
    @exclusivity(unchecked) open var contentType = TextContentType.normal {
        didSet { if contentType != oldValue { window?.textInputDidChange() } }
    }

    /// Half a blink period, in milliseconds.
    public static let blinkInterval: UInt32 = 500
    /// Blinks after the last edit before the cursor stays on.
    public static let maximumBlinks = 10
    /// The inner padding in points, left and right of the text.
    public static let padding: CGFloat = 10

    /// The font of the text.
    public let font: Font
    @exclusivity(unchecked) private var blinkTimer: FrameTimer?
    @exclusivity(unchecked) private var blinksSinceEdit = 0
    /// What a drag extends by: characters after a single click, words after a double.
    private var dragSelectsWords = false
    /// The word a double click selected (a word drag keeps it selected).
    private var dragWord = 0..<0
    private var isDragging = false

    /// Creates a field showing `text` with the cursor at its end.
    public init(frame: CGRect = .zero, text: String = "", placeholder: String = "", font: Font = .system(size: 16)) {
        editor = EditableText(text)
        self.font = font
        self.placeholder = placeholder
        layout = TextLayout(editor, font: font)
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        backgroundColor = Palette.current.panel
        cursor = .text
        isAccessibilityElement = true  // an editable entry (TextField+Accessibility.swift)
        accessibilityTraits = .textEntry
        scrollToCaret()
    }

    /// Named by its placeholder unless a label is set (what it asks for is what it is).
    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? (placeholder.isEmpty ? nil : placeholder) }
        set { super.accessibilityLabel = newValue }
    }

    /// How the preedit is shaped and laid out: in the input method's language and direction,
    /// as a run of its own; nil (shaped with the text around it) while the input method has
    /// said neither, and for secure entry.
    public var preeditRunStyle: TextRunStyle? {
        isSecureTextEntry ? nil : inputMethodAttributes.preeditRunStyle
    }

    /// The preedit as the layout's styled run (nil when there is none or it has no style).
    private var preeditRun: TextLayout.StyledRun? {
        isSecureTextEntry ? nil : inputMethodAttributes.preeditRun(utf8Range: editor.markedUTF8Range)
    }

    /// The editor the layout shows: the text, or a "•" per cluster for secure entry (the
    /// clusters line up one to one, so carets and selections index both alike).
    private var displayedEditor: EditableText {
        isSecureTextEntry ? EditableText(String(repeating: "•", count: editor.count)) : editor
    }

    /// The background colour; the field draws it into its contents when it is opaque and the
    /// corners are square (``draw(_:)``), so a new colour redraws the field.
    open override var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// The colour ``draw(_:)`` paints under the text: ``backgroundColor`` when it is opaque
    /// and the layer's corners are square (rounded corners show what is behind them), else nil.
    private var ownBackground: Color? {
        guard let background = backgroundColor, background.alpha >= 1, layer.cornerRadius == 0 else { return nil }
        return background
    }

    /// The panel's colour and a redraw in the new appearance.
    open override func appearanceDidChange() {
        backgroundColor = palette.panel
        super.appearanceDidChange()
    }

    /// Takes the panel colour of the appearance it now inherits.
    open override func didMoveToSuperview() {
        super.didMoveToSuperview()
        if backgroundColor != palette.panel { backgroundColor = palette.panel }
    }

    /// Takes the panel colour of the appearance it inherits in its window.
    open override func didMoveToWindow() {
        super.didMoveToWindow()
        if backgroundColor != palette.panel { backgroundColor = palette.panel }
    }

    /// Room for one line of text in the font, and a hundred points of it.
    open override var intrinsicContentSize: CGSize {
        CGSize(width: 100 + 2 * Self.padding, height: (font.lineHeight + 16).rounded(.up))
    }

    /// The cursor's rect in view points (whole pixels at scale 1).
    public var cursorRect: CGRect {
        CGRect(x: xOffset(ofCharacter: cursorIndex).rounded(), y: 8, width: 2, height: bounds.height - 16)
    }

    /// The area the text is drawn and clipped to: inside the border, `padding` from the
    /// sides (less 2 points, so a caret at either end shows whole).
    public var textArea: CGRect {
        CGRect(x: Self.padding - 2, y: 2, width: max(bounds.width - 2 * Self.padding + 4, 0), height: max(bounds.height - 4, 0))
    }

    /// The width the text may take before it scrolls.
    private var visibleTextWidth: CGFloat { max(bounds.width - 2 * Self.padding, 0) }

    /// The x of the text's origin in view points.
    private var textOriginX: CGFloat { Self.padding - scrollOffset }

    private func xOffset(ofCharacter index: Int) -> CGFloat {
        textOriginX + layout.caretOffset(at: index)
    }

    /// The x range of the line (from its origin) that the text area shows.
    private var visibleX: ClosedRange<CGFloat> {
        (textArea.minX - textOriginX)...max(textArea.maxX - textOriginX, textArea.minX - textOriginX)
    }

    private var baseline: CGFloat {
        ((bounds.height + font.ascent - font.descent) / 2).rounded()
    }

    /// The rects (view points) of the selected text.
    public var selectionRects: [CGRect] {
        guard editor.hasSelection else { return [] }
        return layout.selectionRanges(for: selection, visible: visibleX).map {
            CGRect(x: textOriginX + $0.lowerBound, y: 6, width: $0.upperBound - $0.lowerBound, height: bounds.height - 12)
        }
    }

    /// The underlines of an input method's preedit (view points), under each visually
    /// contiguous piece of it, two points below the baseline: one point thick, two for the
    /// ``PreeditStyle/active`` and ``PreeditStyle/highlight`` pieces; none under
    /// ``PreeditStyle/none`` and ``PreeditStyle/selection`` pieces (the latter are
    /// ``preeditHighlightRects``). ``PreeditStyle/incorrect`` pieces are underlined in red.
    public var preeditUnderlineRects: [CGRect] {
        preeditUnderlines.map(\.rect)
    }

    /// The backgrounds of the preedit's ``PreeditStyle/selection`` pieces (view points), drawn
    /// like the selection.
    public var preeditHighlightRects: [CGRect] {
        preeditPieces.filter { $0.style == .selection }.flatMap { piece in
            layout.selectionRanges(for: piece.range, visible: visibleX).map {
                CGRect(x: textOriginX + $0.lowerBound, y: 6, width: $0.upperBound - $0.lowerBound, height: bounds.height - 12)
            }
        }
    }

    /// The preedit's underlines and whether each is for an incorrect piece (drawn red).
    private var preeditUnderlines: [(rect: CGRect, isIncorrect: Bool)] {
        preeditPieces.flatMap { piece -> [(rect: CGRect, isIncorrect: Bool)] in
            let thickness: CGFloat
            switch piece.style {
            case .none, .selection: return []
            case .active, .highlight: thickness = 2
            case .default, .underline, .inactive, .incorrect: thickness = 1
            }
            return layout.selectionRanges(for: piece.range, visible: visibleX).map {
                (CGRect(x: textOriginX + $0.lowerBound, y: baseline + 2, width: $0.upperBound - $0.lowerBound, height: thickness),
                 piece.style == .incorrect)
            }
        }
    }

    /// The preedit as runs of clusters of one style, in logical order.
    private var preeditPieces: [(style: PreeditStyle, range: Range<Int>)] {
        guard let marked = editor.markedRange, !marked.isEmpty else { return [] }
        var pieces: [(style: PreeditStyle, range: Range<Int>)] = []
        var start = marked.lowerBound
        var current = editor.preeditStyle(at: start) ?? .default
        for position in marked.dropFirst() {
            let style = editor.preeditStyle(at: position) ?? .default
            guard style != current else { continue }
            pieces.append((current, start..<position))
            start = position
            current = style
        }
        pieces.append((current, start..<marked.upperBound))
        return pieces
    }

    /// The colour of an ``PreeditStyle/incorrect`` piece's underline (GTK's error underline).
    private static let incorrectUnderlineColor = Color(red: 0.9, green: 0.1, blue: 0.1)

    open override func layoutSubviews() {
        super.layoutSubviews()
        // A new width: keep the caret in view (the whole field redraws anyway, .redraw).
        scrollToCaret()
        window?.textInputDidChange()  // the caret may have moved on the surface
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let palette = self.palette
        // The field paints its own background where it draws, so that its contents are
        // opaque: a key or a blink then reaches the buffer as a copy of the redrawn pixels
        // (no compositing plan, no blend with the layer's background; `OpaqueContentsRepaint`).
        // The pixels are the same: an opaque background under the drawing, blended once.
        if let background = ownBackground {
            context.setFillColor(background)
            context.fill(rect)
        }
        // The border lies within 2 points of the edges: a dirty rect inside that band (a typed
        // key, a blink) would stroke it for nothing.
        if !bounds.insetBy(dx: 2, dy: 2).contains(rect) {
            context.setStrokeColor(isFirstResponder ? palette.accent : palette.border)
            context.setLineWidth(isFirstResponder ? 2 : 1)
            context.stroke(bounds.insetBy(dx: isFirstResponder ? 1 : 0.5, dy: isFirstResponder ? 1 : 0.5))
        }
        context.saveGState()
        context.clip(to: textArea)
        if editor.hasSelection {
            context.setFillColor(isFirstResponder ? palette.selection : palette.inactiveSelection)
            context.fill(selectionRects)
        }
        let highlights = preeditHighlightRects
        if !highlights.isEmpty {
            context.setFillColor(isFirstResponder ? palette.selection : palette.inactiveSelection)
            context.fill(highlights)
        }
        if editor.count == 0, editor.markedRange == nil, !placeholder.isEmpty {
            context.draw(
                font.truncate(placeholder, toWidth: visibleTextWidth), at: CGPoint(x: textOriginX, y: baseline),
                font: font, color: isEnabled ? palette.secondaryText : palette.disabledText)
        }
        // Only the chunks the dirty rect reaches (the layout adds a neighbour on each side for
        // ink past a chunk's advance): a key that does not scroll draws the chunk it changed.
        let dirty = rect.intersection(textArea)
        let drawnX = dirty.isNull
            ? visibleX : (dirty.minX - textOriginX)...max(dirty.maxX - textOriginX, dirty.minX - textOriginX)
        layout.draw(in: context, at: CGPoint(x: textOriginX, y: baseline), visible: drawnX, color: isEnabled ? palette.text : palette.disabledText)
        let underlines = preeditUnderlines
        if underlines.contains(where: { !$0.isIncorrect }) {
            context.setFillColor(palette.text)
            context.fill(underlines.filter { !$0.isIncorrect }.map(\.rect))
        }
        if underlines.contains(where: \.isIncorrect) {
            context.setFillColor(Self.incorrectUnderlineColor)
            context.fill(underlines.filter(\.isIncorrect).map(\.rect))
        }
        if isFirstResponder, isCursorVisible, !editor.hasSelection, !editor.isCaretHidden {
            context.setFillColor(palette.text)
            context.fill(cursorRect)
        }
        context.restoreGState()
    }

    // MARK: Focus

    open override var canBecomeFirstResponder: Bool { isEnabled }

    /// Tab reaches the field (and leaves it).
    open override var canBecomeFocused: Bool { isEnabled }

    /// A click anywhere else ends editing, as in a desktop text field.
    open override var resignsOnPressOutside: Bool { true }

    @discardableResult
    open override func becomeFirstResponder() -> Bool {
        let wasFocused = isFirstResponder
        guard super.becomeFirstResponder() else { return false }
        if !wasFocused {
            setNeedsDisplay()
            restartBlinking()
            sendActions(for: .editingDidBegin)
        }
        return true
    }

    @discardableResult
    open override func resignFirstResponder() -> Bool {
        let wasFocused = isFirstResponder
        guard super.resignFirstResponder() else { return false }
        if wasFocused {
            // A composition in progress ends with the focus (its preedit goes).
            if editor.markedRange != nil { change(restartsBlink: false) { $0.unmarkText() } }
            stopBlinking()
            setNeedsDisplay()
            onEndEditing()
            sendActions(for: .editingDidEnd)
        }
        return true
    }

    // MARK: Blinking

    private func restartBlinking() {
        blinksSinceEdit = 0
        if !isCursorVisible {
            isCursorVisible = true
            setNeedsDisplay(cursorRect)
        }
        guard CaretBlinking.isEnabled else {
            stopBlinking()
            return
        }
        if let blinkTimer {
            blinkTimer.restart()
            return
        }
        guard let window else { return }
        blinkTimer = FrameTimer(window: window, interval: Self.blinkInterval, repeats: true) {
            [weak self] _ in self?.blink()
        }
    }

    private func stopBlinking() {
        blinkTimer?.invalidate()
        blinkTimer = nil
        isCursorVisible = true
    }

    private func blink() {
        isCursorVisible.toggle()
        blinkCount += 1
        blinksSinceEdit += 1
        // Over a selection the cursor is not drawn: a blink changes nothing on screen.
        if !editor.hasSelection { setNeedsDisplay(cursorRect) }
        if blinksSinceEdit >= Self.maximumBlinks * 2, isCursorVisible {
            blinkTimer?.invalidate()
            blinkTimer = nil
        }
    }

    // MARK: Editing

    /// Replaces the text, puts the cursor at its end and scrolls to it.
    public func setText(_ newText: String) {
        let before = editor
        editor = EditableText(newText)
        layout = TextLayout(displayedEditor, font: font)
        postAccessibilityChanges(since: before)
        scrollOffset = 0
        scrollToCaret()
        setNeedsDisplay()
        window?.textInputDidChange()
    }

    /// What the field showed before a change: enough to invalidate only what changed.
    private struct Snapshot {
        /// The selection (not the editor: a copy would make the next edit copy the text).
        var selection: Range<Int>
        /// The preedit's clusters (empty when none) and their styles.
        var marked: Range<Int>
        var markedStyles: [PreeditStyleRun]
        var scrollOffset: CGFloat
        var cursorRect: CGRect
        /// The chunks of the line in view (their clusters are listed only for the chunks an
        /// edit changed).
        var chunks: [TextLayout.ChunkSnapshot]
    }

    private var snapshot: Snapshot {
        Snapshot(
            selection: selection, marked: editor.markedRange ?? 0..<0, markedStyles: editor.markedStyles, scrollOffset: scrollOffset,
            cursorRect: cursorRect, chunks: layout.chunks(overlapping: visibleX))
    }

    /// The clusters of `chunks` drawn in the text area (a few points of slack for ink past
    /// an advance).
    private func clustersInView(of chunks: [TextLayout.ChunkSnapshot]) -> TextLayout.ClusterList {
        let visible = visibleX, slack: CGFloat = 4
        let reach = (visible.lowerBound - slack)...(visible.upperBound + slack)
        var capacity = 0
        for chunk in chunks { capacity += chunk.count }
        var result = TextLayout.ClusterList(capacity: capacity)
        for chunk in chunks { result.append(chunk, reaching: reach) }
        return result
    }

    /// Whether the clusters in `range` have the same selection state and no preedit, before
    /// (`before`) and now.
    private func selectionAndPreeditAreUnchanged(in range: Range<Int>, since before: Snapshot) -> Bool {
        let selectedBefore = before.selection.clamped(to: range), selectedNow = selection.clamped(to: range)
        guard selectedBefore == selectedNow || (selectedBefore.isEmpty && selectedNow.isEmpty) else { return false }
        return !before.marked.overlaps(range) && !(editor.markedRange?.overlaps(range) ?? false)
    }

    /// Applies `change` to the editor, scrolls the caret into view and invalidates what
    /// differs; `restartsBlink` restarts the cursor's blinking (any key or click does).
    public func change(restartsBlink: Bool = true, _ change: (inout EditableText) -> Void) {
        let before = snapshot
        // A copy of the editor only while an assistive technology listens: copying it
        // otherwise would make the edit below copy the whole text.
        let editorBefore = AccessibilityCenter.isObserved ? editor : nil
        let hadPlaceholder = editor.count == 0 && editor.markedRange == nil && !placeholder.isEmpty
        let revisionBefore = editor.revision
        change(&editor)
        if isSecureTextEntry {
            layout = TextLayout(displayedEditor, font: font)
        } else {
            layout.update(for: editor, styledRun: preeditRun)
        }
        if let editorBefore { postAccessibilityChanges(since: editorBefore) }
        scrollToCaret()
        invalidateChanges(since: before)
        let hasPlaceholder = editor.count == 0 && editor.markedRange == nil && !placeholder.isEmpty
        if hadPlaceholder != hasPlaceholder { setNeedsDisplay(textArea) }
        if restartsBlink { restartBlinking() }
        if editor.revision != revisionBefore { sendActions(for: .editingChanged) }
        window?.textInputDidChange()
    }

    /// Scrolls so that the caret is inside the visible text width, and no further than the
    /// text needs; returns whether the offset changed.
    @discardableResult
    private func scrollToCaret() -> Bool {
        let caret = layout.caretOffset(at: cursorIndex)
        let visible = visibleTextWidth
        var offset = scrollOffset
        if caret - offset > visible - 2 { offset = caret - visible + 2 }
        if caret - offset < 0 { offset = caret }
        offset = min(offset, max(layout.width + 2 - visible, 0))
        offset = max(offset, 0).rounded()
        guard offset != scrollOffset else { return false }
        scrollOffset = offset
        return true
    }

    /// Invalidates what differs from `before`: the union of the old and new extents of the
    /// clusters that changed, moved or changed selection state, plus both carets. A scroll
    /// first moves the text area's pixels with the text (``View/scrollContents(in:dx:dy:)``),
    /// so that only the strip it uncovers is drawn anew: typing at the end of a line longer
    /// than the field scrolls with every key and draws about one character, not the field.
    private func invalidateChanges(since before: Snapshot) {
        // How far the text moved right on the screen; the old caret's pixels moved with it.
        let moved = before.scrollOffset - scrollOffset
        if moved != 0 { scrollContents(in: textArea, dx: moved, dy: 0) }
        setNeedsDisplay(before.cursorRect.offsetBy(dx: moved, dy: 0))
        setNeedsDisplay(cursorRect)
        // Only what is in view now is compared (and drawn; the old clusters too are taken
        // where the text area now shows them), and of that only the chunks that are not laid
        // out exactly as before (same shaped line at the same place, same selection, no
        // preedit): typing at the end of a line compares the last chunk only.
        // Loops, not closures: this runs per key (CONTRIBUTING.md, closures on hot paths).
        func isLaidOut(_ chunk: TextLayout.ChunkSnapshot, in list: [TextLayout.ChunkSnapshot]) -> Bool {
            for other in list where other.isLaidOutLike(chunk) { return true }
            return false
        }
        let oldChunks = before.chunks, newChunks = layout.chunks(overlapping: visibleX)
        var unchanged: [TextLayout.ChunkSnapshot] = []
        for chunk in newChunks where isLaidOut(chunk, in: oldChunks) {
            let clusters = chunk.firstCharacter..<(chunk.firstCharacter + chunk.count)
            if selectionAndPreeditAreUnchanged(in: clusters, since: before) { unchanged.append(chunk) }
        }
        var changedOld: [TextLayout.ChunkSnapshot] = [], changedNew: [TextLayout.ChunkSnapshot] = []
        for chunk in oldChunks where !isLaidOut(chunk, in: unchanged) { changedOld.append(chunk) }
        for chunk in newChunks where !isLaidOut(chunk, in: unchanged) { changedNew.append(chunk) }
        let old = clustersInView(of: changedOld), new = clustersInView(of: changedNew)
        let oldClusters = old.clusters, newClusters = new.clusters
        func same(_ o: Int, _ n: Int) -> Bool {
            let was = oldClusters[o], now = newClusters[n]
            return was.extent == now.extent && old.hasSameText(at: o, as: n, in: new)
                && before.selection.contains(was.position) == selection.contains(now.position)
                && PreeditStyleRun.style(at: was.position, marked: before.marked, runs: before.markedStyles)
                    == editor.preeditStyle(at: now.position)
        }
        var prefix = 0
        while prefix < old.count, prefix < new.count, same(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, same(old.count - 1 - suffix, new.count - 1 - suffix) {
            suffix += 1
        }
        let oldRange = prefix..<(old.count - suffix), newRange = prefix..<(new.count - suffix)
        guard !oldRange.isEmpty || !newRange.isEmpty else { return }
        // One cluster more on each side: a neighbour's shape may depend on what changed.
        var lower = CGFloat.infinity, upper = -CGFloat.infinity
        for cluster in oldClusters[max(oldRange.lowerBound - 1, 0)..<min(oldRange.upperBound + 1, old.count)] {
            lower = min(lower, cluster.extent.lowerBound)
            upper = max(upper, cluster.extent.upperBound)
        }
        for cluster in newClusters[max(newRange.lowerBound - 1, 0)..<min(newRange.upperBound + 1, new.count)] {
            lower = min(lower, cluster.extent.lowerBound)
            upper = max(upper, cluster.extent.upperBound)
        }
        guard lower <= upper else { return }  // no cluster on either side
        // Two points of slack for ink past a glyph's advance.
        let changed = CGRect(x: textOriginX + lower - 2, y: textArea.minY, width: upper - lower + 4, height: textArea.height)
        setNeedsDisplay(changed.intersection(textArea))
    }

    /// An input method's update (a preedit, a commit, a deletion): applied as one change.
    public func applyInputMethodUpdate(_ update: InputMethodUpdate) {
        change { $0.apply(update) }
    }

    /// Whether `text` has no control character (a key's text that types). A loop: every
    /// typed key asks (see CONTRIBUTING.md, closures on hot paths).
    private static func isPrintable(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7f { return false }
        return true
    }

    open override func keyDown(_ event: KeyEvent) {
        // A key during a composition ends it first (the preedit goes), so that what the
        // key does sees the text without it.
        if editor.markedRange != nil { change { $0.unmarkText() } }
        let extending = event.modifiers.contains(.shift)
        if event.modifiers.contains(.control), !event.modifiers.contains(.alt), !event.modifiers.contains(.logo) {
            switch event.shortcutKeysym {  // the key's Latin letter: Ctrl+C on ru as on us
            case 0x61, 0x41:  // Ctrl+A
                change { $0.selectAll() }
                publishPrimarySelection()
            case 0x63, 0x43: copy()  // Ctrl+C
            case 0x78, 0x58: cut()  // Ctrl+X
            case 0x76, 0x56: paste(from: .clipboard)  // Ctrl+V
            case 0x7a where extending, 0x5a where extending: change { $0.redo() }  // Ctrl+Shift+Z
            case 0x7a, 0x5a: change { $0.undo() }  // Ctrl+Z
            case 0x79, 0x59: change { $0.redo() }  // Ctrl+Y
            case 0xff51: change { [layout] in $0.moveWordLeft(in: layout, extending: extending) }  // Ctrl+Left
            case 0xff53: change { [layout] in $0.moveWordRight(in: layout, extending: extending) }  // Ctrl+Right
            case 0xff08: change { $0.deleteWordBackward() }  // Ctrl+BackSpace
            case 0xffff: change { $0.deleteWordForward() }  // Ctrl+Delete
            default: return super.keyDown(event)
            }
            if extending, editor.hasSelection { publishPrimarySelection() }
            return
        }
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard event.modifiers.intersection(commandKeys).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0xff08:  // BackSpace
            guard editor.hasSelection || cursorIndex > 0 else { return }
            change { $0.deleteBackward() }
        case 0xffff:  // Delete
            guard editor.hasSelection || cursorIndex < editor.count else { return }
            change { $0.deleteForward() }
        case 0xff51: change { [layout] in $0.moveLeft(in: layout, extending: extending) }  // Left
        case 0xff53: change { [layout] in $0.moveRight(in: layout, extending: extending) }  // Right
        case 0xff50: change { $0.moveCaret(to: 0, extending: extending) }  // Home
        case 0xff57: change { $0.moveCaret(to: $0.count, extending: extending) }  // End
        case 0xff63 where extending: paste(from: .clipboard)  // Shift+Insert
        case 0xff0d, 0xff8d:  // Return, KP_Enter: the primary action, then editing ends
            sendActions(for: .primaryActionTriggered)
            resignFirstResponder()
        case 0xff1b: resignFirstResponder()  // Escape
        default:
            guard !event.text.isEmpty, Self.isPrintable(event.text) else { return super.keyDown(event) }
            change { $0.type(event.text) }
        }
        if extending, editor.hasSelection { publishPrimarySelection() }
    }

    // MARK: Clipboard

    /// Ctrl+C: puts the selected text on the clipboard (nothing selected: nothing happens).
    public func copy() {
        guard editor.hasSelection, !isSecureTextEntry else { return }
        window?.surface.pasteboard(.clipboard)?.setString(editor.selectedText)
    }

    /// Ctrl+X: copies the selection, then deletes it.
    public func cut() {
        guard editor.hasSelection, !isSecureTextEntry else { return }
        copy()
        change { $0.deleteSelection() }
    }

    /// Ctrl+V (clipboard) or a middle click (primary selection): inserts the pasteboard's
    /// text at the caret when it arrives, replacing the selection; line breaks become
    /// spaces, other control characters are dropped (the field holds one line).
    public func paste(from kind: PasteboardKind) {
        guard let pasteboard = window?.surface.pasteboard(kind) else { return }
        pasteboard.requestString { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            let line = String(String.UnicodeScalarView(text.unicodeScalars.compactMap { scalar in
                if scalar == "\n" || scalar == "\r" || scalar == "\t" { return " " }
                return scalar.value < 0x20 || scalar.value == 0x7f ? nil : scalar
            }))
            self.change { $0.insert(line) }
        }
    }

    /// Offers the selected text as the primary selection (after the user selected it).
    private func publishPrimarySelection() {
        guard editor.hasSelection, !isSecureTextEntry else { return }
        window?.surface.pasteboard(.primarySelection)?.setString(editor.selectedText)
    }

    /// The caret position under `point` (view points).
    private func characterIndex(at point: CGPoint) -> Int {
        layout.characterIndex(closestTo: point.x - textOriginX)
    }

    open override func pointerDown(_ event: PointerEvent) {
        guard isEnabled else { return }
        if editor.markedRange != nil { change { $0.unmarkText() } }  // a click ends a composition
        if event.button == .middle {
            // Pastes the primary selection where it was clicked, as X11 and GTK do.
            becomeFirstResponder()
            let index = characterIndex(at: event.location(in: self))
            change { $0.moveCaret(to: index) }
            paste(from: .primarySelection)
            return
        }
        guard event.button == .left || event.button == nil else { return super.pointerDown(event) }
        becomeFirstResponder()
        let index = characterIndex(at: event.location(in: self))
        isDragging = true
        switch event.clickCount {
        case 2:
            dragSelectsWords = true
            dragWord = editor.wordRange(at: index)
            change { [dragWord] in $0.select(dragWord) }
        case 3...:
            dragSelectsWords = false
            isDragging = false
            change { $0.selectAll() }
            publishPrimarySelection()
        default:
            dragSelectsWords = false
            let extending = event.modifiers.contains(.shift)
            change { $0.moveCaret(to: index, extending: extending) }
        }
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard isDragging else { return super.pointerMoved(event) }
        let index = characterIndex(at: event.location(in: self))
        guard dragSelectsWords else {
            change { $0.moveCaret(to: index, extending: true) }
            return
        }
        let word = editor.wordRange(at: index)
        let anchorWord = dragWord
        change {
            if word.lowerBound < anchorWord.lowerBound {
                $0.select(anchorWord.upperBound..<anchorWord.upperBound)
                $0.moveCaret(to: word.lowerBound, extending: true)
            } else {
                $0.select(anchorWord.lowerBound..<max(word.upperBound, anchorWord.upperBound))
            }
        }
    }

    open override func pointerUp(_ event: PointerEvent) {
        guard isDragging else { return super.pointerUp(event) }
        isDragging = false
        publishPrimarySelection()
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A one-line editable text field with a blinking cursor.
///
/// Clicking it makes it the first responder; typed text, Backspace, Delete, ← → Home End
/// edit; Escape or Return ends editing. Text is edited by grapheme cluster (``EditableText``):
/// a Hangul syllable, "e + ◌́", an emoji sequence or a Bengali conjunct is one caret step
/// and one deletion; in bidirectional text the arrows move in logical order and the caret
/// is drawn where the next character in reading order goes. Each blink invalidates only the cursor's rect; an
/// edit invalidates from the edit point to the end of the text. Blinking is driven by a
/// ``FrameTimer`` (one firing per half period, as UIKit's caret timer; a display link would
/// wake every frame) that runs only while the field is focused and stops (cursor shown)
/// after ``maximumBlinks`` blinks of inactivity, as GTK does. Main-actor.
final class TextFieldView: View {
    /// The text and the caret, in grapheme clusters.
    private var editor: EditableText
    /// The text.
    var text: String { editor.text }
    /// The cursor position, in characters (grapheme clusters) from the start.
    var cursorIndex: Int { editor.caret }
    /// Whether the cursor is drawn now.
    private(set) var isCursorVisible = true
    /// How many times the cursor changed visibility by blinking.
    private(set) var blinkCount = 0
    /// Called when the field stops being the first responder.
    var onEndEditing: @MainActor () -> Void = {}

    /// Half a blink period, in milliseconds.
    static let blinkInterval: UInt32 = 500
    /// Blinks after the last edit before the cursor stays on.
    static let maximumBlinks = 10
    /// The inner padding in points.
    static let padding: CGFloat = 10

    private let font = Font.system(size: 16)
    private var blinkTimer: FrameTimer?
    private var blinksSinceEdit = 0

    /// Creates a field showing `text` with the cursor at its end.
    init(frame: CGRect, text: String = "") {
        editor = EditableText(text)
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        backgroundColor = .white
    }

    /// The cursor's rect in view points (whole pixels at scale 1).
    var cursorRect: CGRect {
        CGRect(x: xOffset(ofCharacter: cursorIndex).rounded(), y: 8, width: 2, height: bounds.height - 16)
    }

    private func xOffset(ofCharacter index: Int) -> CGFloat {
        Self.padding + font.caretOffset(atCharacter: index, in: text)
    }

    private var baseline: CGFloat {
        ((bounds.height + font.ascent - font.descent) / 2).rounded()
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setStrokeColor(isFirstResponder ? DemoStyle.sidebarSelection : Color(white: 0.7))
        context.setLineWidth(isFirstResponder ? 2 : 1)
        context.stroke(bounds.insetBy(dx: isFirstResponder ? 1 : 0.5, dy: isFirstResponder ? 1 : 0.5))
        context.draw(text, at: CGPoint(x: Self.padding, y: baseline), font: font, color: DemoStyle.text)
        if isFirstResponder, isCursorVisible {
            context.setFillColor(DemoStyle.text)
            context.fill(cursorRect)
        }
    }

    // MARK: Focus

    override var canBecomeFirstResponder: Bool { true }

    /// A click anywhere else ends editing, as in a desktop text field.
    override var resignsOnPressOutside: Bool { true }

    @discardableResult
    override func becomeFirstResponder() -> Bool {
        let wasFocused = isFirstResponder
        guard super.becomeFirstResponder() else { return false }
        if !wasFocused {
            setNeedsDisplay()
            restartBlinking()
        }
        return true
    }

    @discardableResult
    override func resignFirstResponder() -> Bool {
        let wasFocused = isFirstResponder
        guard super.resignFirstResponder() else { return false }
        if wasFocused {
            stopBlinking()
            setNeedsDisplay()
            onEndEditing()
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
        setNeedsDisplay(cursorRect)
        if blinksSinceEdit >= Self.maximumBlinks * 2, isCursorVisible {
            blinkTimer?.invalidate()
            blinkTimer = nil
        }
    }

    // MARK: Editing

    /// Replaces the text and puts the cursor at its end.
    func setText(_ newText: String) {
        editor = EditableText(newText)
        setNeedsDisplay()
    }

    private func edit(_ change: () -> Void) {
        let oldEnd = Self.padding + font.measure(text).width
        let oldCursor = cursorRect
        let wasRightToLeft = containsRightToLeft
        change()
        // Right-to-left text reorders around an edit: then the whole line is redrawn.
        let from = wasRightToLeft || containsRightToLeft ? 0 : min(oldCursor.minX, cursorRect.minX)
        let end = max(oldEnd, Self.padding + font.measure(text).width) + 2
        setNeedsDisplay(CGRect(x: from, y: 0, width: end.rounded(.up) + 1 - from, height: bounds.height))
        setNeedsDisplay(oldCursor)
        restartBlinking()
    }

    /// Whether any run of the text reads right to left.
    private var containsRightToLeft: Bool {
        text.unicodeScalars.contains { (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFEFC).contains($0.value) }
    }

    private func moveCursor(_ move: (inout EditableText) -> Bool) {
        let oldCursor = cursorRect
        guard move(&editor) else { return restartBlinking() }
        setNeedsDisplay(oldCursor)
        setNeedsDisplay(cursorRect)
        restartBlinking()
    }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard event.modifiers.intersection(commandKeys).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0xff08:  // BackSpace
            guard cursorIndex > 0 else { return }
            edit { editor.deleteBackward() }
        case 0xffff:  // Delete
            guard cursorIndex < text.count else { return }
            edit { editor.deleteForward() }
        case 0xff51: moveCursor { [font] in $0.moveLeft(in: font) }  // Left
        case 0xff53: moveCursor { [font] in $0.moveRight(in: font) }  // Right
        case 0xff50: moveCursor { $0.moveCaret(to: 0) }  // Home
        case 0xff57: moveCursor { $0.moveCaret(to: $0.text.count) }  // End
        case 0xff1b, 0xff0d: resignFirstResponder()  // Escape, Return
        default:
            let printable = event.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f }
            guard !event.text.isEmpty, printable else { return super.keyDown(event) }
            edit { editor.insert(event.text) }
        }
    }

    override func pointerDown(_ event: PointerEvent) {
        becomeFirstResponder()
        let x = event.location(in: self).x
        let index = font.characterIndex(closestTo: x - Self.padding, in: text)
        moveCursor { $0.moveCaret(to: index) }
    }
}

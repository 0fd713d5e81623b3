import DamaskGraphics
import DamaskViews
import Foundation

/// A one-line editable text field with a blinking cursor.
///
/// Clicking it makes it the first responder; typed text, Backspace, Delete, ← → Home End
/// edit; Escape or Return ends editing. Each blink invalidates only the cursor's rect; an
/// edit invalidates from the edit point to the end of the text. Blinking is driven by a
/// display link that runs only while the field is focused and stops (cursor shown) after
/// ``maximumBlinks`` blinks of inactivity, as GTK does. Main-actor.
final class TextFieldView: View {
    /// The text.
    private(set) var text: String
    /// The cursor position, in characters from the start.
    private(set) var cursorIndex: Int
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
    private var blinkLink: DisplayLink?
    private var blinkStart: UInt32?
    private var blinksSinceEdit = 0

    /// Creates a field showing `text` with the cursor at its end.
    init(frame: CGRect, text: String = "") {
        self.text = text
        cursorIndex = text.count
        super.init(frame: frame)
        backgroundColor = .white
    }

    /// The cursor's rect in view points (whole pixels at scale 1).
    var cursorRect: CGRect {
        CGRect(x: xOffset(ofCharacter: cursorIndex).rounded(), y: 8, width: 2, height: bounds.height - 16)
    }

    private func xOffset(ofCharacter index: Int) -> CGFloat {
        Self.padding + font.measure(String(text.prefix(index))).width
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
        blinkStart = nil
        blinksSinceEdit = 0
        if !isCursorVisible {
            isCursorVisible = true
            setNeedsDisplay(cursorRect)
        }
        guard blinkLink == nil, let window else { return }
        blinkLink = DisplayLink(window: window) { [weak self] _, timestamp in
            self?.blinkFrame(timestamp)
        }
    }

    private func stopBlinking() {
        blinkLink?.invalidate()
        blinkLink = nil
        blinkStart = nil
        isCursorVisible = true
    }

    private func blinkFrame(_ timestamp: UInt32) {
        let start = blinkStart ?? timestamp
        blinkStart = start
        let halfPeriods = Int((timestamp &- start) / Self.blinkInterval)
        let visible = halfPeriods % 2 == 0
        if visible != isCursorVisible {
            isCursorVisible = visible
            blinkCount += 1
            blinksSinceEdit += 1
            setNeedsDisplay(cursorRect)
        }
        if blinksSinceEdit >= Self.maximumBlinks * 2, isCursorVisible {
            blinkLink?.invalidate()
            blinkLink = nil
        }
    }

    // MARK: Editing

    /// Replaces the text and puts the cursor at its end.
    func setText(_ newText: String) {
        text = newText
        cursorIndex = newText.count
        setNeedsDisplay()
    }

    private func edit(_ change: () -> Void) {
        let oldEnd = xOffset(ofCharacter: text.count)
        let oldCursor = cursorRect
        change()
        let from = min(oldCursor.minX, cursorRect.minX)
        let end = max(oldEnd, xOffset(ofCharacter: text.count)) + 2
        setNeedsDisplay(CGRect(x: from, y: 0, width: end.rounded(.up) + 1 - from, height: bounds.height))
        setNeedsDisplay(oldCursor)
        restartBlinking()
    }

    private func moveCursor(to index: Int) {
        let clamped = min(max(index, 0), text.count)
        guard clamped != cursorIndex else { return restartBlinking() }
        setNeedsDisplay(cursorRect)
        cursorIndex = clamped
        setNeedsDisplay(cursorRect)
        restartBlinking()
    }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard event.modifiers.intersection(commandKeys).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0xff08:  // BackSpace
            guard cursorIndex > 0 else { return }
            edit {
                let index = text.index(text.startIndex, offsetBy: cursorIndex - 1)
                text.remove(at: index)
                cursorIndex -= 1
            }
        case 0xffff:  // Delete
            guard cursorIndex < text.count else { return }
            edit { text.remove(at: text.index(text.startIndex, offsetBy: cursorIndex)) }
        case 0xff51: moveCursor(to: cursorIndex - 1)  // Left
        case 0xff53: moveCursor(to: cursorIndex + 1)  // Right
        case 0xff50: moveCursor(to: 0)  // Home
        case 0xff57: moveCursor(to: text.count)  // End
        case 0xff1b, 0xff0d: resignFirstResponder()  // Escape, Return
        default:
            let printable = event.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f }
            guard !event.text.isEmpty, printable else { return super.keyDown(event) }
            edit {
                text.insert(contentsOf: event.text, at: text.index(text.startIndex, offsetBy: cursorIndex))
                cursorIndex += event.text.count
            }
        }
    }

    override func pointerDown(_ event: PointerEvent) {
        becomeFirstResponder()
        let x = event.location(in: self).x
        var best = 0
        var bestDistance = CGFloat.infinity
        for index in 0...text.count {
            let distance = abs(xOffset(ofCharacter: index) - x)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        moveCursor(to: best)
    }
}

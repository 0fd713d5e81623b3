import DamaskGraphics
import DamaskViews
import Foundation

/// The caret's blinking, on ``TextField``'s timing: a ``FrameTimer`` firing every
/// ``TextField/blinkInterval`` ms while the view is first responder, stopped (caret shown)
/// after ``TextField/maximumBlinks`` blinks without input, as GTK does. A blink redraws only
/// the caret's rectangle. With ``CaretBlinking/isEnabled`` off the caret stays shown.
extension TextView {
    /// Shows the caret and starts its blinking over (any key, click or edit does).
    func restartBlinking() {
        guard isFirstResponder else { return }
        blinksSinceInput = 0
        if !isCaretVisible {
            isCaretVisible = true
            invalidateCaret()
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
        blinkTimer = FrameTimer(window: window, interval: TextField.blinkInterval, repeats: true) {
            [weak self] _ in self?.blink()
        }
    }

    func stopBlinking() {
        blinkTimer?.invalidate()
        blinkTimer = nil
        isCaretVisible = true
    }

    private func blink() {
        isCaretVisible.toggle()
        blinkCount += 1
        blinksSinceInput += 1
        // Over a selection the caret is not drawn: a blink changes nothing on screen.
        if !editor.hasSelection { invalidateCaret() }
        if blinksSinceInput >= TextField.maximumBlinks * 2, isCaretVisible {
            blinkTimer?.invalidate()
            blinkTimer = nil
        }
    }
}

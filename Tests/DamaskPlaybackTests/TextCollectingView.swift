import DamaskGraphics
import DamaskViews
import Foundation

/// A view that becomes first responder and collects the text and events of key presses.
final class TextCollectingView: View, TextInput {
    var text = ""
    var events: [KeyEvent] = []

    override var canBecomeFirstResponder: Bool { true }

    override func keyDown(_ event: KeyEvent) {
        events.append(event)
        text += event.text
        setNeedsDisplay()
    }

    override func keyUp(_ event: KeyEvent) {
        events.append(event)
    }

    override func draw(_ rect: CGRect) {
        GraphicsContext.current?.setFillColor(text.isEmpty ? .white : .green)
        GraphicsContext.current?.fill(bounds)
    }
}

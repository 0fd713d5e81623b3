import DamaskGraphics
import DamaskViews
import Foundation

/// A view that draws red when on and blue when off, and toggles on every click.
final class ToggleView: View {
    var isOn = false
    var drawCalls = 0

    override func draw(_ rect: CGRect) {
        drawCalls += 1
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(isOn ? .red : .blue)
        context.fill(bounds)
    }

    override func pointerUp(_ event: PointerEvent) {
        isOn.toggle()
        setNeedsDisplay()
    }
}

/// A view that asks to be drawn again each time it draws: a window holding it never
/// settles (as with a blinking caret or an animation).
final class RedrawingView: View {
    override func draw(_ rect: CGRect) {
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.setNeedsDisplay() }
        }
    }
}

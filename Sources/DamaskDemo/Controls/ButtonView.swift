import DamaskGraphics
import DamaskViews
import Foundation

/// A push button: a rounded face with a centred title that runs ``action`` when a press
/// is released inside it.
///
/// Pressing darkens the face (one redraw of the button only). Main-actor.
final class ButtonView: View {
    /// The title drawn on the face.
    var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }
    /// Runs when the button is clicked.
    var action: @MainActor () -> Void

    private var isPressed = false {
        didSet { if isPressed != oldValue { setNeedsDisplay() } }
    }

    /// Creates a button titled `title` that runs `action`.
    init(frame: CGRect, title: String, action: @escaping @MainActor () -> Void = {}) {
        self.title = title
        self.action = action
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(isPressed ? DemoStyle.buttonPressed : DemoStyle.buttonFace)
        context.fill(Path(roundedRect: bounds, cornerRadius: 6))
        let font = DemoStyle.buttonFont
        let width = font.measure(title).width
        let origin = CGPoint(
            x: ((bounds.width - width) / 2).rounded(),
            y: ((bounds.height + font.ascent - font.descent) / 2).rounded())
        context.draw(title, at: origin, font: font, color: .white)
    }

    override func pointerDown(_ event: PointerEvent) {
        isPressed = true
    }

    override func pointerUp(_ event: PointerEvent) {
        let wasPressed = isPressed
        isPressed = false
        if wasPressed, bounds.contains(event.location(in: self)) { action() }
    }
}

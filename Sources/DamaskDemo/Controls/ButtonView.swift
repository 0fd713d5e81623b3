import DamaskGraphics
import DamaskViews
import Foundation

/// A push button: a rounded face with a centred title that runs ``action`` when a left
/// press is released inside it.
///
/// Its face shows three states, as desktop buttons do: normal, hovered (the pointer is over
/// it, lighter) and pressed (a left press began on it and the pointer is still over it,
/// darker). Dragging a press out of the button shows it normal again, and releasing there
/// does nothing; dragging back in shows it pressed. Each change of state redraws the button
/// once, so it damages exactly its own frame. Main-actor.
final class ButtonView: View {
    /// What the face shows.
    enum Appearance: Equatable {
        /// The pointer is elsewhere (or a press was dragged out).
        case normal
        /// The pointer is over the button, no press on it.
        case hovered
        /// A press on the button, the pointer over it.
        case pressed
    }

    /// The title drawn on the face.
    var title: String {
        didSet {
            guard title != oldValue else { return }
            setNeedsDisplay()
            AccessibilityNotification.propertyChanged(self, .label).post()
        }
    }
    /// Runs when the button is clicked.
    var action: @MainActor () -> Void

    /// The state the face shows now.
    private(set) var appearance = Appearance.normal {
        didSet { if appearance != oldValue { setNeedsDisplay() } }
    }
    /// Whether the pointer is over the button (during a press: by the press's moves).
    private var isPointerInside = false {
        didSet { updateAppearance() }
    }
    /// Whether a left press began on the button and is not yet released.
    private var isTracking = false {
        didSet { updateAppearance() }
    }

    /// Creates a button titled `title` that runs `action`.
    init(frame: CGRect, title: String, action: @escaping @MainActor () -> Void = {}) {
        self.title = title
        self.action = action
        super.init(frame: frame)
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isAccessibilityElement = true  // a push button named by its title
        accessibilityTraits = .button
    }

    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? title }
        set { super.accessibilityLabel = newValue }
    }

    /// An assistive technology's press: the click's action.
    override func accessibilityActivate() -> Bool {
        action()
        return true
    }

    override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        let face: Color
        switch appearance {
        case .normal: face = DemoStyle.buttonFace
        case .hovered: face = DemoStyle.buttonHovered
        case .pressed: face = DemoStyle.buttonPressed
        }
        context.setFillColor(face)
        context.fill(Path(roundedRect: bounds, cornerRadius: 6))
        let font = DemoStyle.buttonFont
        let width = font.measure(title).width
        let origin = CGPoint(
            x: ((bounds.width - width) / 2).rounded(),
            y: ((bounds.height + font.ascent - font.descent) / 2).rounded())
        context.draw(title, at: origin, font: font, color: .white)
    }

    override func pointerEntered(_ event: PointerEvent) {
        isPointerInside = true
    }

    override func pointerExited(_ event: PointerEvent) {
        isPointerInside = false
    }

    override func pointerMoved(_ event: PointerEvent) {
        // While a press is held the window sends the moves here even outside the button
        // (the implicit grab) and no enter or exit: follow the location instead.
        isPointerInside = bounds.contains(event.location(in: self))
    }

    override func pointerDown(_ event: PointerEvent) {
        guard event.button == .left else { return }
        isPointerInside = bounds.contains(event.location(in: self))
        isTracking = true
    }

    override func pointerUp(_ event: PointerEvent) {
        guard event.button == .left, isTracking else { return }
        let inside = bounds.contains(event.location(in: self))
        isPointerInside = inside
        isTracking = false
        if inside { action() }
    }

    /// Tab reaches every button; Space, Return and keypad Enter press the focused one.
    override var canBecomeFocused: Bool { true }

    override func keyDown(_ event: KeyEvent) {
        let commandKeys: ModifierFlags = [.control, .alt, .logo]
        guard event.modifiers.intersection(commandKeys).isEmpty else { return super.keyDown(event) }
        switch event.keysym {
        case 0x20, 0xFF0D, 0xFF8D:  // space, Return, KP_Enter
            if !event.isRepeat { action() }
        default:
            super.keyDown(event)
        }
    }

    override func pointerCancelled(_ event: PointerEvent) {
        // The release went elsewhere (the pointer left, the compositor took it): no action.
        isTracking = false
    }

    private func updateAppearance() {
        appearance = isPointerInside ? (isTracking ? .pressed : .hovered) : .normal
    }
}

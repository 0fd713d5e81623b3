import DamaskGraphics
import DamaskViews
import Foundation

/// A round title-bar button (close, maximize or minimize) drawn as a glyph on a light
/// disc while hovered and a darker one while pressed with the pointer over it; it acts on a
/// left release over itself. Each state change redraws only the button.
///
/// Main-actor, like every view. The title bar owns it; ``action`` is set by the title bar.
open class TitleBarButton: View {
    /// What the button does.
    public enum Kind: Sendable, Equatable {
        /// Closes the window.
        case close
        /// Maximizes or restores the window.
        case maximize
        /// Minimizes the window.
        case minimize
    }

    /// The button's role, which decides its glyph.
    public let kind: Kind
    /// Run when the button is clicked.
    public var action: (() -> Void)?
    /// Whether the window is maximized (the maximize glyph shows "restore").
    public var showsRestore = false {
        didSet { if showsRestore != oldValue { setNeedsDisplay() } }
    }
    /// The glyph colour (follows the window's active state).
    public var glyphColor = Color(white: 0.18) {
        didSet { if glyphColor != oldValue { setNeedsDisplay() } }
    }
    /// Whether the pointer is over the button.
    public private(set) var isHovered = false {
        didSet { if isHovered != oldValue { setNeedsDisplay() } }
    }
    /// Whether the button is held down.
    public private(set) var isPressed = false {
        didSet { if isPressed != oldValue, isHovered { setNeedsDisplay() } }  // drawn only while hovered
    }

    /// Creates a button of `kind` with a default 24-point frame at the origin.
    public init(kind: Kind) {
        self.kind = kind
        super.init(frame: CGRect(x: 0, y: 0, width: 24, height: 24))
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isAccessibilityElement = true  // a push button named by what it does
        accessibilityTraits = .button
        accessibilityLabel =
            switch kind {
            case .close: "Close"
            case .maximize: "Maximize"
            case .minimize: "Minimize"
            }
    }

    /// An assistive technology's press: the click's action.
    open override func accessibilityActivate() -> Bool {
        guard let action else { return false }
        action()
        return true
    }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        // Pressed shows only while the pointer is over the button: a press dragged out
        // looks released (and releasing there does nothing).
        if isHovered {
            context.setFillColor(Color(white: 0, alpha: isPressed ? 0.22 : 0.12))
            context.fillEllipse(in: bounds)
        }
        context.setStrokeColor(glyphColor)
        context.setLineWidth(1.5)
        context.setLineCap(.round)
        let c = CGPoint(x: bounds.midX, y: bounds.midY)
        let r: CGFloat = 4.5
        switch kind {
        case .close:
            context.strokeLineSegments(between: [
                CGPoint(x: c.x - r, y: c.y - r), CGPoint(x: c.x + r, y: c.y + r),
                CGPoint(x: c.x + r, y: c.y - r), CGPoint(x: c.x - r, y: c.y + r),
            ])
        case .maximize:
            if showsRestore {
                context.stroke(CGRect(x: c.x - r + 0.25, y: c.y - r + 2.25, width: 2 * r - 2.5, height: 2 * r - 2.5))
                context.strokeLineSegments(between: [
                    CGPoint(x: c.x - r + 2.5, y: c.y - r), CGPoint(x: c.x + r, y: c.y - r),
                    CGPoint(x: c.x + r, y: c.y - r), CGPoint(x: c.x + r, y: c.y + r - 2.5),
                ])
            } else {
                context.stroke(CGRect(x: c.x - r + 0.25, y: c.y - r + 0.25, width: 2 * r - 0.5, height: 2 * r - 0.5))
            }
        case .minimize:
            context.strokeLineSegments(between: [CGPoint(x: c.x - r, y: c.y + r - 1), CGPoint(x: c.x + r, y: c.y + r - 1)])
        }
    }

    open override func pointerEntered(_ event: PointerEvent) { isHovered = true }

    open override func pointerExited(_ event: PointerEvent) {
        isHovered = false
        isPressed = false
    }

    open override func pointerDown(_ event: PointerEvent) {
        guard event.button == .left else { return }
        isHovered = bounds.contains(event.location(in: self))
        isPressed = true
    }

    open override func pointerMoved(_ event: PointerEvent) {
        // During a press the window sends the moves here even outside the button (the
        // implicit grab), and no exit: follow the location.
        isHovered = bounds.contains(event.location(in: self))
    }

    open override func pointerCancelled(_ event: PointerEvent) {
        isPressed = false
    }

    open override func pointerUp(_ event: PointerEvent) {
        let wasPressed = isPressed
        isPressed = false
        if wasPressed, event.button == .left, bounds.contains(event.location(in: self)) {
            action?()
        }
    }
}

import DamaskGraphics
import DamaskViews
import Foundation

/// A client-side title bar: the window title, centred, and minimize, maximize and close
/// buttons on the right. Dragging it (a press, then a move of more than
/// ``dragThreshold`` points) moves the window; a double click maximizes or restores it; a
/// right click opens the compositor's window menu.
///
/// Talks to the window system through ``controls`` (held weakly; normally the
/// ``WaylandSurface``). Main-actor, like every view.
open class TitleBarView: View {
    /// The bar's height in points.
    public static let height: CGFloat = 32
    /// How far the pointer must travel with the button down before the window moves.
    public static let dragThreshold: CGFloat = 3

    /// The title shown.
    public var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }
    /// Whether the window is active (focused): the bar is drawn darker when it is.
    public var isActive = true {
        didSet {
            guard isActive != oldValue else { return }
            for button in buttons { button.glyphColor = textColor }
            setNeedsDisplay()
        }
    }
    /// Whether the window is maximized (the maximize button shows "restore").
    public var isMaximized = false {
        didSet { maximizeButton.showsRestore = isMaximized }
    }
    /// The window system the bar sends move and maximize requests to.
    public weak var controls: (any WindowControlling)?
    /// Run when the close button is clicked.
    public var onClose: (() -> Void)?

    /// The buttons, right to left: close, maximize, minimize.
    public let closeButton = TitleBarButton(kind: .close)
    /// The maximize/restore button.
    public let maximizeButton = TitleBarButton(kind: .maximize)
    /// The minimize button.
    public let minimizeButton = TitleBarButton(kind: .minimize)

    private var buttons: [TitleBarButton] { [closeButton, maximizeButton, minimizeButton] }
    /// Where a left press that may become a drag happened (window points).
    private var pressLocation: CGPoint?
    private let font = Font.system(size: 13, weight: .bold)

    /// Creates a bar showing `title`.
    public init(title: String) {
        self.title = title
        super.init(frame: CGRect(x: 0, y: 0, width: 200, height: Self.height))
        contentMode = .redraw  // lays its drawing out in its bounds: a new size redraws
        isOpaque = true
        for button in buttons { addSubview(button) }
        closeButton.action = { [unowned self] in self.onClose?() }
        maximizeButton.action = { [unowned self] in self.toggleMaximized() }
        minimizeButton.action = { [unowned self] in self.controls?.minimize() }
    }

    private var backgroundFill: Color { isActive ? Color(white: 0.86) : Color(white: 0.95) }
    private var textColor: Color { isActive ? Color(white: 0.18) : Color(white: 0.57) }

    open override func layoutSubviews() {
        let size: CGFloat = 24
        var x = bounds.width - 6 - size
        for button in buttons {
            button.frame = CGRect(x: x, y: (bounds.height - size) / 2, width: size, height: size)
            x -= size + 6
        }
    }

    /// The narrowest bar that shows the buttons and a readable title: the whole title, or
    /// (for a long one) its first ``minimumTitleWidth`` points and "…".
    /// ``DecoratedWindow`` keeps the window at least this wide.
    public var minimumWidth: CGFloat {
        (buttonsWidth + 2 * Self.titleMargin + min(font.measure(title).width, Self.minimumTitleWidth)).rounded(.up)
    }

    /// How much of a long title a bar of ``minimumWidth`` shows, in points.
    public static let minimumTitleWidth: CGFloat = 72

    /// The title as drawn at the bar's current width: all of it, or as many leading
    /// characters as fit followed by "…" ("" when not even "…" fits).
    public var displayedTitle: String {
        font.truncate(title, toWidth: max(0, bounds.width - buttonsWidth - 2 * Self.titleMargin))
    }

    /// The width the buttons take at the right end, with their spacing.
    private var buttonsWidth: CGFloat { CGFloat(buttons.count) * 30 + 6 }

    open override func draw(_ rect: CGRect) {
        guard let context = GraphicsContext.current else { return }
        context.setFillColor(backgroundFill)
        context.fill(bounds)
        context.setFillColor(Color(white: 0, alpha: 0.15))
        context.fill(CGRect(x: 0, y: bounds.height - 1, width: bounds.width, height: 1))
        // The title is centred on the bar, shifted left (and shortened) to stay clear of
        // the buttons.
        let text = displayedTitle
        let metrics = font.measure(text)
        let x = min((bounds.width - metrics.width) / 2, bounds.width - buttonsWidth - Self.titleMargin - metrics.width)
        let baseline = (bounds.height + metrics.ascent - metrics.descent) / 2
        context.draw(
            text, at: CGPoint(x: max(Self.titleMargin, x).rounded(), y: baseline.rounded()), font: font,
            color: textColor)
    }

    /// Space kept free left of the title and between it and the buttons.
    private static let titleMargin: CGFloat = 10

    open override func pointerDown(_ event: PointerEvent) {
        if event.button == .right {
            controls?.showWindowMenu(at: event.location)
            return
        }
        guard event.button == .left else { return }
        if event.clickCount == 2 {
            pressLocation = nil
            toggleMaximized()
        } else {
            pressLocation = event.location
        }
    }

    open override func pointerUp(_ event: PointerEvent) {
        pressLocation = nil
    }

    open override func pointerCancelled(_ event: PointerEvent) {
        pressLocation = nil
    }

    open override func pointerMoved(_ event: PointerEvent) {
        guard let start = pressLocation else { return }
        let distance = hypot(event.location.x - start.x, event.location.y - start.y)
        guard distance > Self.dragThreshold else { return }
        pressLocation = nil
        controls?.beginInteractiveMove()
    }

    private func toggleMaximized() {
        guard let controls else { return }
        controls.setMaximized(!controls.states.contains(.maximized))
    }
}

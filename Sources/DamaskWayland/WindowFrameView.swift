import DamaskGraphics
import DamaskViews
import Foundation

/// The root view of a decorated window: a shadow around the window, a ``TitleBarView`` and
/// the app's ``contentView`` below it, with resize handles along the edges.
///
/// The frame fills the whole surface; the window proper is the surface minus
/// ``shadowInsets`` (what `xdg_surface.set_window_geometry` reports). Presses in the shadow
/// margin start an interactive resize from that edge or corner; ``cursorShape(at:)`` names
/// the cursor for each point. ``apply(states:)`` adapts the look to maximized, fullscreen,
/// tiled and activated windows; ``showsTitleBar`` is off when the compositor draws
/// decorations itself.
///
/// The content view sits in a clipping view the size of the content area, so nothing it or
/// its subviews draw reaches the title bar, the shadow or the desktop around the window,
/// however narrow the window gets.
///
/// Talks to the window system through ``controls`` (held weakly). Main-actor.
open class WindowFrameView: View {
    /// The shadow's reach (and the resize handles' width) of a floating window, in points.
    public static let shadowRadius: CGFloat = 12
    /// How far resize corners extend along the edges, in points.
    public static let cornerLength: CGFloat = 20

    /// The app's view, filling the window below the title bar (clipped to that area).
    public var contentView: View {
        didSet {
            guard contentView !== oldValue else { return }
            oldValue.removeFromSuperview()
            contentClipView.addSubview(contentView)
            setNeedsLayout()
        }
    }
    /// The content area: clips ``contentView`` (and everything in it) to the window below
    /// the title bar.
    public let contentClipView = View(frame: .zero)
    /// The title bar.
    public let titleBar: TitleBarView
    /// The window system (normally the ``WaylandSurface``).
    public weak var controls: (any WindowControlling)? {
        didSet { titleBar.controls = controls }
    }
    /// Whether the title bar shows (off for server-side decorations and fullscreen).
    public private(set) var showsTitleBar = true
    /// Whether the compositor draws the decorations (then the frame draws none).
    public var usesServerSideDecorations = false {
        didSet { if usesServerSideDecorations != oldValue { apply(states: states) } }
    }
    /// The window states the frame reflects now.
    public private(set) var states: ToplevelState = []
    /// The margin around the window proper for the current states.
    public private(set) var shadowInsets = WindowInsets(all: WindowFrameView.shadowRadius)

    private let shadows = (0..<4).map { _ in ShadowView() }

    /// Creates a frame around `contentView` with `title`.
    public init(contentView: View, title: String) {
        self.contentView = contentView
        titleBar = TitleBarView(title: title)
        super.init(frame: .zero)
        for shadow in shadows { addSubview(shadow) }
        contentClipView.clipsToBounds = true
        contentClipView.addSubview(contentView)
        addSubview(contentClipView)
        addSubview(titleBar)
        if contentView.backgroundColor == nil { contentView.backgroundColor = .white }
    }

    /// The shadow margin a window in `states` needs: none when maximized, fullscreen or
    /// tiled (edges touch the screen or other windows), none for server-side decorations.
    public static func shadowInsets(for states: ToplevelState, serverSide: Bool) -> WindowInsets {
        if serverSide || states.contains(.maximized) || states.contains(.fullscreen) || states.isTiled {
            return .zero
        }
        return WindowInsets(all: shadowRadius)
    }

    /// Adapts the frame to `states`: the shadow margin, title bar visibility, active look
    /// and the maximize button's glyph.
    public func apply(states: ToplevelState) {
        self.states = states
        shadowInsets = Self.shadowInsets(for: states, serverSide: usesServerSideDecorations)
        showsTitleBar = !usesServerSideDecorations && !states.contains(.fullscreen)
        titleBar.isHidden = !showsTitleBar
        titleBar.isActive = states.contains(.activated)
        titleBar.isMaximized = states.contains(.maximized)
        for shadow in shadows { shadow.isHidden = shadowInsets == .zero }
        setNeedsLayout()
    }

    /// The window proper (the surface minus the shadow), in the frame's coordinates.
    public var windowRect: CGRect { shadowInsets.inset(bounds) }

    /// The height the title bar takes now (0 when hidden).
    public var titleBarHeight: CGFloat { showsTitleBar ? TitleBarView.height : 0 }

    open override func layoutSubviews() {
        let window = windowRect
        titleBar.frame = CGRect(x: window.minX, y: window.minY, width: window.width, height: TitleBarView.height)
        contentClipView.frame = CGRect(
            x: window.minX, y: window.minY + titleBarHeight,
            width: window.width, height: max(0, window.height - titleBarHeight))
        contentView.frame = contentClipView.bounds
        let strips = [
            CGRect(x: 0, y: 0, width: bounds.width, height: window.minY),
            CGRect(x: 0, y: window.maxY, width: bounds.width, height: bounds.height - window.maxY),
            CGRect(x: 0, y: window.minY, width: window.minX, height: window.height),
            CGRect(x: window.maxX, y: window.minY, width: bounds.width - window.maxX, height: window.height),
        ]
        for (shadow, strip) in zip(shadows, strips) {
            shadow.frame = strip
            shadow.windowRect = window
            shadow.radius = shadowInsets.top
        }
    }

    // MARK: Resizing

    /// The edge or corner a press at `point` (frame coordinates) resizes, or nil inside the
    /// window (and always while maximized, fullscreen or tiled).
    public func resizeEdge(at point: CGPoint) -> ResizeEdge? {
        guard shadowInsets != .zero, bounds.contains(point) else { return nil }
        let window = windowRect
        if window.contains(point) { return nil }
        let corner = Self.cornerLength
        let left = point.x < window.minX + corner
        let right = point.x >= window.maxX - corner
        let top = point.y < window.minY + corner
        let bottom = point.y >= window.maxY - corner
        let outsideX = point.x < window.minX || point.x >= window.maxX
        let outsideY = point.y < window.minY || point.y >= window.maxY
        switch (top, bottom, left, right) {
        case (true, _, true, _) where outsideX || outsideY: return .topLeft
        case (true, _, _, true) where outsideX || outsideY: return .topRight
        case (_, true, true, _) where outsideX || outsideY: return .bottomLeft
        case (_, true, _, true) where outsideX || outsideY: return .bottomRight
        default: break
        }
        if point.y < window.minY { return .top }
        if point.y >= window.maxY { return .bottom }
        return point.x < window.minX ? .left : .right
    }

    /// The cursor for `point` (frame coordinates): resize arrows over the handles, a hand
    /// over the title bar buttons, else what the view under the pointer asks for
    /// (``View/effectiveCursor``: an I-beam over a text field).
    public func cursorShape(at point: CGPoint) -> CursorShape {
        if let edge = resizeEdge(at: point) { return .resize(edge) }
        guard let hit = hitTest(point, with: nil) else { return .arrow }
        if hit is TitleBarButton { return .pointingHand }
        switch hit.effectiveCursor {
        case .arrow: return .arrow
        case .pointingHand: return .pointingHand
        case .text: return .text
        }
    }

    open override func pointerDown(_ event: PointerEvent) {
        guard event.button == .left, let edge = resizeEdge(at: event.location(in: self)) else {
            return super.pointerDown(event)
        }
        controls?.beginInteractiveResize(from: edge)
    }

    open override func pointerUp(_ event: PointerEvent) {}
    open override func pointerCancelled(_ event: PointerEvent) {}
    open override func pointerMoved(_ event: PointerEvent) {}
}

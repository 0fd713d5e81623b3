import DamaskGraphics
import DamaskViews
import Foundation

/// A desktop window with client-side decorations: a ``Window`` on a ``WaylandSurface`` whose
/// root view is a ``WindowFrameView`` (shadow, title bar, resize handles) around the app's
/// ``contentView``, plus keyboard shortcuts.
///
/// Sizes given here are content sizes: the window adds the title bar, the surface adds the
/// shadow (excluded from `set_window_geometry`). Maximized, fullscreen, tiled and activated
/// states restyle the frame; when the compositor offers xdg-decoration and agrees to draw
/// server-side decorations, the title bar and shadow go away.
///
/// Closing: the close button, a matching key command (Ctrl+Q by default, see
/// ``keyCommands``) and the compositor's close request all call ``onClose``.
///
/// Owns the window (which owns the surface's content) and the surface; `close()` destroys
/// the surface. Main-actor.
@MainActor
public final class DecoratedWindow {
    /// The Wayland surface.
    public let surface: WaylandSurface
    /// The view window drawing into it.
    public let window: Window
    /// The decorations around the content.
    public let frameView: WindowFrameView
    /// Shortcuts checked on every key press before the first responder sees it; a match
    /// runs its action and consumes the press. Default: Ctrl+Q closes the window.
    public var keyCommands: [KeyCommand: @MainActor () -> Void] = [:]

    /// The app's view below the title bar.
    public var contentView: View {
        get { frameView.contentView }
        set { frameView.contentView = newValue }
    }

    /// The window title (shown by the title bar and given to the compositor).
    public var title: String {
        get { surface.title }
        set {
            surface.title = newValue
            frameView.titleBar.title = newValue
            applyMinimumSize()
        }
    }

    /// Called when the user asks to close the window (button, key command, compositor).
    public var onClose: (() -> Void)? {
        get { window.onClose }
        set { window.onClose = newValue }
    }

    /// The smallest content size the user can resize to, in points.
    public var minimumContentSize = CGSize(width: 120, height: 40) {
        didSet { applyMinimumSize() }
    }

    /// Opens a decorated window with a content area of `size` points.
    ///
    /// - Throws: `WaylandError` when the surface cannot be created or configured.
    public convenience init(connection: WaylandConnection, title: String, appID: String, size: CGSize) throws {
        let surface = try WaylandSurface(
            connection: connection, title: title, appID: appID,
            size: CGSize(width: size.width, height: size.height + TitleBarView.height))
        self.init(surface: surface)
    }

    /// Decorates an existing surface (its current window size includes the title bar).
    public init(surface: WaylandSurface) {
        self.surface = surface
        window = Window(surface: surface)
        window.backgroundColor = .clear
        frameView = WindowFrameView(contentView: View(), title: surface.title)
        frameView.controls = surface
        window.contentView = frameView
        keyCommands[.quit] = { [unowned self] in self.performClose() }
        frameView.titleBar.onClose = { [unowned self] in self.performClose() }

        surface.onStatesChange = { [unowned self] states in self.statesDidChange(states) }
        surface.onDecorationModeChange = { [unowned self] mode in
            self.frameView.usesServerSideDecorations = mode == .serverSide
            self.statesDidChange(self.surface.states)
        }
        surface.eventInterceptor = { [unowned self] event in self.intercept(event) }
        surface.cursorProvider = { [unowned self] point in self.frameView.cursorShape(at: point) }
        frameView.usesServerSideDecorations = surface.decorationMode == .serverSide
        statesDidChange(surface.states)
    }

    /// Asks the app to close the window (as the close button does): calls ``onClose``.
    public func performClose() {
        window.surfaceDidRequestClose(surface)
    }

    /// Destroys the surface.
    public func close() {
        surface.close()
    }

    private func statesDidChange(_ states: ToplevelState) {
        frameView.apply(states: states)
        surface.shadowInsets = frameView.shadowInsets
        applyMinimumSize()
        for seat in surface.connection.inputSeats.values { seat.pointer?.refreshCursor() }
    }

    /// The surface's minimum size: the content's minimum plus the title bar, and never so
    /// narrow that the title bar loses its buttons or a readable title.
    private func applyMinimumSize() {
        let minimum = CGSize(
            width: max(minimumContentSize.width, frameView.titleBarHeight > 0 ? frameView.titleBar.minimumWidth : 0),
            height: minimumContentSize.height + frameView.titleBarHeight)
        if surface.minimumSize != minimum { surface.minimumSize = minimum }
    }

    private func intercept(_ event: Event) -> Bool {
        guard case .key(let key) = event, key.phase == .down, !key.isRepeat else { return false }
        for (command, action) in keyCommands where command.matches(key) {
            action()
            return true
        }
        return false
    }
}

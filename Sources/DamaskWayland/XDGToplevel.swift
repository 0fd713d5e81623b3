import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import Foundation

/// The xdg toplevel role of a ``WaylandSurface``: `xdg_surface` + `xdg_toplevel` (+ the
/// xdg-decoration object when the compositor offers one), configures, the size rules
/// (``ToplevelSizing``), the window geometry and the window-management requests.
///
/// Owned by its surface, which it refers to weakly (``surface`` is set by the surface's
/// `init` before the first roundtrip). The surface's `close()` calls ``destroy()`` before the
/// surface itself goes, so the listener data (`Unmanaged.passUnretained(self)`) is valid
/// whenever libwayland calls back. Main-actor: all listeners run on the main queue.
///
/// Configures: the latest configure wins; the window size follows ``ToplevelSizing``; every
/// configure is acknowledged, and the surface commits after the acknowledgement in the same
/// turn (with a new buffer when the window redraws, bare otherwise).
@MainActor
final class XDGToplevel {
    /// The surface this role belongs to (its owner); set once, right after `init`.
    weak var surface: WaylandSurface?
    private let connection: WaylandConnection
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var decoration: OpaquePointer?

    /// The title the compositor shows.
    var title: String {
        didSet { xdg_toplevel_set_title(toplevel, title); connection.setNeedsFlush() }
    }
    /// The state of the last applied configure.
    private(set) var states: ToplevelState = []
    /// Whether the first configure has been applied (buffers may be attached only after it).
    private(set) var isConfigured = false
    /// Whether a configure is being applied (``onStatesChange`` runs inside it).
    private(set) var isApplyingConfigure = false
    /// The size rules: limits and the floating size.
    private(set) var sizing: ToplevelSizing
    /// Who draws the decorations.
    private(set) var decorationMode: DecorationMode = .clientSide
    /// See ``WaylandSurface/onStatesChange``.
    var onStatesChange: ((ToplevelState) -> Void)?
    /// See ``WaylandSurface/onDecorationModeChange``.
    var onDecorationModeChange: ((DecorationMode) -> Void)?
    /// The window geometry sent last, if any.
    private(set) var appliedGeometry: CGRect?
    private var pendingSize: (width: Int32, height: Int32) = (0, 0)
    private var pendingStates: ToplevelState = []

    /// Gives `wlSurface` (owned by the surface that owns this role) the toplevel role and
    /// asks for server-side decorations when the compositor offers them. Sends no commit.
    init(connection: WaylandConnection, wlSurface: OpaquePointer, title: String, appID: String, size: CGSize) {
        self.connection = connection
        self.title = title
        sizing = ToplevelSizing(initialSize: size)
        let data = listenerData(for: self)
        xdgSurface = xdg_wm_base_get_xdg_surface(connection.xdgWmBase, wlSurface)
        xdg_surface_add_listener(xdgSurface, Self.xdgSurfaceListener.pointer, data)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, Self.toplevelListener.pointer, data)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        if let manager = connection.decorationManager {
            decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
            zxdg_toplevel_decoration_v1_add_listener(decoration, Self.decorationListener.pointer, data)
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
    }

    /// Destroys the decoration object (before the toplevel, as xdg-decoration requires).
    /// Idempotent.
    func destroyDecoration() {
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        decoration = nil
    }

    /// Destroys the role's protocol objects (before the `wl_surface`, as xdg-shell requires).
    /// Idempotent.
    func destroy() {
        destroyDecoration()
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        (toplevel, xdgSurface) = (nil, nil)
    }

    // MARK: - Size limits

    /// See ``WaylandSurface/minimumSize``.
    var minimumSize: CGSize {
        get { sizing.minimumSize }
        set {
            sizing.minimumSize = newValue
            xdg_toplevel_set_min_size(toplevel, Int32(sizing.minimumSize.width), Int32(sizing.minimumSize.height))
            connection.setNeedsFlush()
            sizeLimitsDidChange()
        }
    }

    /// See ``WaylandSurface/maximumSize``.
    var maximumSize: CGSize {
        get { sizing.maximumSize }
        set {
            sizing.maximumSize = newValue
            xdg_toplevel_set_max_size(toplevel, Int32(sizing.maximumSize.width), Int32(sizing.maximumSize.height))
            connection.setNeedsFlush()
            sizeLimitsDidChange()
        }
    }

    /// The limits changed: a configured floating window outside them is resized now.
    private func sizeLimitsDidChange() {
        guard isConfigured, !isApplyingConfigure, let surface,
            let window = sizing.sizeAfterLimitsChanged(states: states, current: surface.windowSize)
        else { return }
        surface.roleDidResize(toWindowSize: window)
    }

    // MARK: - Configure

    private func applyConfigure(serial: UInt32) {
        precondition(xdgSurface != nil, "a configure for a destroyed xdg_surface")
        guard let surface else {
            preconditionFailure("a configure reached a toplevel role whose surface is gone")
        }
        xdg_surface_ack_configure(xdgSurface, serial)
        // The window size before onStatesChange: insets set there resize the surface around it.
        let current = surface.windowSize
        let statesChanged = pendingStates != states
        states = pendingStates
        if statesChanged || !isConfigured {
            isApplyingConfigure = true
            onStatesChange?(states)
            isApplyingConfigure = false
        }
        let window = sizing.windowSize(
            proposedWidth: pendingSize.width, height: pendingSize.height, states: states, current: current)
        let wasConfigured = isConfigured
        isConfigured = true
        surface.roleDidConfigure(windowSize: window, forceResize: !wasConfigured || statesChanged)
    }

    // MARK: - Window geometry

    /// Sends the window geometry for `surfaceSize` minus `insets` when it changed.
    func applyWindowGeometry(surfaceSize: CGSize, insets: WindowInsets) {
        guard insets != .zero || appliedGeometry != nil else { return }
        let rect = insets.inset(CGRect(origin: .zero, size: surfaceSize))
        guard rect != appliedGeometry, rect.width > 0, rect.height > 0 else { return }
        setWindowGeometry(rect)
    }

    /// Sends `xdg_surface.set_window_geometry` now.
    func setWindowGeometry(_ rect: CGRect) {
        guard let xdgSurface else { return }
        xdg_surface_set_window_geometry(
            xdgSurface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
        appliedGeometry = rect
        connection.setNeedsFlush()
    }

    // MARK: - Window management requests

    /// `xdg_toplevel.move` for a press with `serial` on `seat`, flushed at once.
    ///
    /// Not left to the end of the turn: the compositor must start its grab before the
    /// pointer's next motions (and a quick release) reach it, and the display pass that
    /// ends the turn can take longer than a flick of the mouse.
    func move(seat: OpaquePointer, serial: UInt32) {
        xdg_toplevel_move(toplevel, seat, serial)
        connection.flush()
    }

    /// `xdg_toplevel.resize` from `edges` (xdg_toplevel values), flushed at once (as
    /// ``move(seat:serial:)``).
    func resize(seat: OpaquePointer, serial: UInt32, edges: UInt32) {
        xdg_toplevel_resize(toplevel, seat, serial, edges)
        connection.flush()
    }

    /// `set_maximized` or `unset_maximized`.
    func setMaximized(_ maximized: Bool) {
        if maximized { xdg_toplevel_set_maximized(toplevel) } else { xdg_toplevel_unset_maximized(toplevel) }
        connection.setNeedsFlush()
    }

    /// `set_minimized`.
    func minimize() {
        xdg_toplevel_set_minimized(toplevel)
        connection.setNeedsFlush()
    }

    /// `set_fullscreen` (on the compositor's choice of output) or `unset_fullscreen`.
    func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) } else { xdg_toplevel_unset_fullscreen(toplevel) }
        connection.setNeedsFlush()
    }

    /// `show_window_menu` at `point` (surface points, made relative to the window geometry).
    func showWindowMenu(seat: OpaquePointer, serial: UInt32, at point: CGPoint) {
        let geometry = appliedGeometry?.origin ?? .zero
        xdg_toplevel_show_window_menu(
            toplevel, seat, serial, Int32(point.x - geometry.x), Int32(point.y - geometry.y))
        connection.setNeedsFlush()
    }

    // MARK: - Listeners

    private static let xdgSurfaceListener = StaticListener(
        xdg_surface_listener(configure: { data, _, serial in
            let role = owner(data, as: XDGToplevel.self)
            MainActor.assumeIsolated { role.applyConfigure(serial: serial) }
        }))

    private static let toplevelListener = StaticListener(
        xdg_toplevel_listener(
            configure: { data, _, width, height, states in
                let role = owner(data, as: XDGToplevel.self)
                var values: [UInt32] = []
                if let states, let base = states.pointee.data {
                    // A wl_array of uint32: its size is a whole number of them.
                    assert(states.pointee.size % MemoryLayout<UInt32>.size == 0, "a states array of \(states.pointee.size) bytes")
                    let count = states.pointee.size / MemoryLayout<UInt32>.size
                    values = Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: count))
                }
                MainActor.assumeIsolated {
                    role.pendingSize = (width, height)
                    role.pendingStates = ToplevelState(protocolValues: values)
                }
            },
            close: { data, _ in
                let role = owner(data, as: XDGToplevel.self)
                MainActor.assumeIsolated { role.surface?.roleDidRequestClose() }
            },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))

    private static let decorationListener = StaticListener(
        zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
            let role = owner(data, as: XDGToplevel.self)
            MainActor.assumeIsolated {
                let newMode: DecorationMode =
                    mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue ? .serverSide : .clientSide
                guard newMode != role.decorationMode else { return }
                role.decorationMode = newMode
                role.onDecorationModeChange?(newMode)
            }
        }))
}

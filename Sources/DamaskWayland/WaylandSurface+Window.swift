import CWaylandClient
import DamaskViews
import Foundation

/// The window side of a ``WaylandSurface``: its toplevel role's state and requests
/// (``XDGToplevel`` does the protocol work), the seat-dependent requests and what the
/// input devices ask of the window.
extension WaylandSurface {
    /// Largest buffer side accepted from a configure; larger requests are clamped with a
    /// warning instead of allocating gigabytes.
    public nonisolated static let maximumPixelDimension = ScalePolicy.maximumPixelDimension

    /// Largest buffer area (pixels) accepted from a configure, an 8K screen's worth; a
    /// larger request is scaled down, keeping its aspect, with a warning, so that a bogus
    /// configure (100000×100000) costs neither a gigabyte of shm nor seconds of drawing.
    public nonisolated static let maximumPixelCount = ScalePolicy.maximumPixelCount

    /// The buffer scales Damask uses. A compositor's output scale or preferred fractional
    /// scale outside this range is clamped to it (and a preferred scale of 0 is ignored), so
    /// that a scale of 1000 costs neither a 5×5-point window nor a gigabyte.
    public nonisolated static let scaleRange: ClosedRange<CGFloat> = ScalePolicy.range

    /// `proposed` (a scale from the wire) clamped to ``scaleRange``; nil for a scale that
    /// is not positive or not a number, which a surface ignores.
    nonisolated static func sanitizedScale(_ proposed: CGFloat) -> CGFloat? {
        ScalePolicy.sanitized(proposed)
    }

    /// `size` (points) limited so that its buffer at `scale` stays within the pixel caps.
    nonisolated static func clamped(_ size: CGSize, scale: CGFloat) -> CGSize {
        ScalePolicy.clamped(size, scale: scale)
    }

    /// Pixels for `points` at `scale`, rounded half away from zero.
    nonisolated static func pixels(_ points: CGFloat, _ scale: CGFloat) -> Int {
        ScalePolicy.pixels(points, scale)
    }

    /// The title the compositor shows for the window.
    public var title: String {
        get { role.title }
        set { role.title = newValue }
    }
    /// The state of the last applied configure.
    public var states: ToplevelState { role.states }
    /// Whether the first configure has arrived (buffers may be attached only after it).
    public var isConfigured: Bool { role.isConfigured }
    /// Smallest window size the user may resize to, in points (sent as
    /// `xdg_toplevel.set_min_size`). A floating window smaller than this grows at once.
    public var minimumSize: CGSize {
        get { role.minimumSize }
        set { role.minimumSize = newValue }
    }
    /// Largest window size the user may resize to, in points; 0 on an axis is unbounded
    /// (sent as `xdg_toplevel.set_max_size`). A floating window larger than this shrinks.
    public var maximumSize: CGSize {
        get { role.maximumSize }
        set { role.maximumSize = newValue }
    }
    /// The window size the window had when last floating (restored when the compositor
    /// lets the client choose after maximized, fullscreen or tiled).
    public var floatingWindowSize: CGSize { role.sizing.floatingSize }
    /// Called during a configure whose states differ from the current ones, before the new
    /// size is applied (so that ``shadowInsets`` set here take effect in the same configure).
    public var onStatesChange: ((ToplevelState) -> Void)? {
        get { role.onStatesChange }
        set { role.onStatesChange = newValue }
    }
    /// Who draws the decorations: server-side only when the compositor offers xdg-decoration
    /// and agreed to draw them.
    public var decorationMode: DecorationMode { role.decorationMode }
    /// Called when ``decorationMode`` changes.
    public var onDecorationModeChange: ((DecorationMode) -> Void)? {
        get { role.onDecorationModeChange }
        set { role.onDecorationModeChange = newValue }
    }

    // MARK: - Window management requests

    /// Asks the compositor to start an interactive move, for a press with `serial` on `seat`.
    public func beginMove(seat: OpaquePointer, serial: UInt32) {
        role.move(seat: seat, serial: serial)
    }

    /// Asks the compositor to start an interactive resize from `edges` (xdg_toplevel values).
    public func beginResize(seat: OpaquePointer, serial: UInt32, edges: UInt32) {
        role.resize(seat: seat, serial: serial, edges: edges)
    }

    /// Maximizes or restores the window.
    public func setMaximized(_ maximized: Bool) {
        role.setMaximized(maximized)
    }

    /// Minimizes the window.
    public func minimize() {
        role.minimize()
    }

    /// Makes the window fullscreen or windowed again.
    public func setFullscreen(_ fullscreen: Bool) {
        role.setFullscreen(fullscreen)
    }

    /// Starts an interactive move for the latest press (button or touch) on this surface,
    /// quoting that press's serial; returns `false` when there was no press to quote.
    @discardableResult
    public func beginInteractiveMove() -> Bool {
        guard let seat = lastInputSeat, let serial = seat.latestPressSerial(on: self) else { return false }
        interactiveRequestCount += 1
        beginMove(seat: seat.proxy, serial: serial)
        seat.pointer?.interactiveGrabDidBegin()
        return true
    }

    /// Starts an interactive resize from `edge` for the latest press on this surface;
    /// returns `false` when there was no press to quote.
    @discardableResult
    public func beginInteractiveResize(from edge: ResizeEdge) -> Bool {
        guard let seat = lastInputSeat, let serial = seat.latestPressSerial(on: self) else { return false }
        interactiveRequestCount += 1
        beginResize(seat: seat.proxy, serial: serial, edges: edge.rawValue)
        seat.pointer?.interactiveGrabDidBegin()
        return true
    }

    /// Asks the compositor for its window menu at `point` (surface points) for the latest
    /// press on this surface; returns `false` when there was no press to quote.
    @discardableResult
    public func showWindowMenu(at point: CGPoint) -> Bool {
        guard let seat = lastInputSeat, let serial = seat.latestPressSerial(on: self) else { return false }
        role.showWindowMenu(seat: seat.proxy, serial: serial, at: point)
        seat.pointer?.interactiveGrabDidBegin()
        return true
    }

    /// The part of the surface that is the window proper (excluding shadows), in points.
    ///
    /// Sent at once; with non-zero ``shadowInsets`` the surface keeps the geometry in step
    /// itself and this is rarely needed.
    public func setWindowGeometry(_ rect: CGRect) {
        role.setWindowGeometry(rect)
    }

    /// The window geometry sent last, if any.
    public var windowGeometry: CGRect? { role.appliedGeometry }

    // MARK: - Input devices

    /// Hands an input event to the interceptor, then to the window drawing this surface.
    func deliver(_ event: Event, from seat: WaylandSeat) {
        lastInputSeatName = seat.registryName
        inputObserver?(event)
        if let eventInterceptor, eventInterceptor(event) { return }
        delegate?.surface(self, didReceive: event)
    }

    /// The window's first responder or its text field's state changed: every seat's text
    /// input whose focus is on this surface tells its input method.
    public func textInputStateDidChange() {
        for seat in connection.inputSeats.values { seat.textInput.stateMayHaveChanged(on: self) }
    }

    /// The pointer left because its device went away: the window sees a leave.
    func pointerDidLeave() {
        delegate?.surface(self, didReceive: .pointer(PointerEvent(kind: .exited, location: .zero)))
    }

    /// The clipboard or primary selection of the seat that delivered the latest input (else
    /// of any seat), or `nil` when the compositor offers none of that kind.
    public func pasteboard(_ kind: PasteboardKind) -> (any Pasteboard)? {
        let seats = [lastInputSeat].compactMap { $0 } + connection.inputSeats.values.sorted { $0.registryName < $1.registryName }
        return seats.lazy.compactMap { $0.selection(kind) }.first
    }

    /// The cursor to show at `point` (surface points).
    func cursorShape(at point: CGPoint) -> CursorShape {
        cursorProvider?(point) ?? .arrow
    }

    /// The key input focus is kept by (the `wl_surface` address), nil once closed. Plain
    /// code, not `surfaceProxy.map { … }`: asked on every key (see CONTRIBUTING.md,
    /// closures on hot paths).
    var surfaceKey: Int? {
        guard let surfaceProxy else { return nil }
        return Int(bitPattern: surfaceProxy)
    }

    /// The integer buffer scale cursor images need to be sharp on this surface.
    var cursorBufferScale: Int { max(1, Int(scale.rounded(.up))) }

}

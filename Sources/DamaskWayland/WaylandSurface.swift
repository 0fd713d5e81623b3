import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import DamaskViews
import Foundation

/// A desktop window on a Wayland compositor: `wl_surface` + `xdg_surface` + `xdg_toplevel`,
/// with shm buffers, frame callbacks and damage, seen by the views layer as a `Surface`.
///
/// Owns every protocol object it creates and its buffers (through a `BufferPool`); `close()`
/// (also run by `deinit`) destroys them. The connection must outlive the surface.
/// Main-actor: all listeners run on the main queue.
///
/// Configures: the latest configure wins; the window size follows ``ToplevelSizing``'s rules
/// (a 0×0 size while floating brings back the floating size, as after Weston unmaximizes;
/// maximized and fullscreen sizes are obeyed; tiled sizes are upper bounds; the minimum and
/// maximum size hold whenever the client chooses); every configure is acknowledged and a
/// commit follows the acknowledgement in the same turn (with a new buffer when the window
/// redraws, bare otherwise).
///
/// Input reaches the delegate through ``SurfaceDelegate/surface(_:didReceive:)`` after the
/// ``eventInterceptor`` had its say.
@MainActor
public final class WaylandSurface: Surface {
    /// Largest buffer side accepted from a configure; larger requests are clamped with a
    /// warning instead of allocating gigabytes.
    public nonisolated static let maximumPixelDimension = 16_384

    /// Largest buffer area (pixels) accepted from a configure, an 8K screen's worth; a
    /// larger request is scaled down, keeping its aspect, with a warning, so that a bogus
    /// configure (100000×100000) costs neither a gigabyte of shm nor seconds of drawing.
    public nonisolated static let maximumPixelCount = 7_680 * 4_320

    /// The buffer scales Damask uses. A compositor's output scale or preferred fractional
    /// scale outside this range is clamped to it (and a preferred scale of 0 is ignored), so
    /// that a scale of 1000 costs neither a 5×5-point window nor a gigabyte.
    public nonisolated static let scaleRange: ClosedRange<CGFloat> = 0.25...8

    /// `proposed` (a scale from the wire) clamped to ``scaleRange``; nil for a scale that
    /// is not positive or not a number, which a surface ignores.
    nonisolated static func sanitizedScale(_ proposed: CGFloat) -> CGFloat? {
        guard proposed > 0, proposed.isFinite else { return nil }
        return min(max(proposed, scaleRange.lowerBound), scaleRange.upperBound)
    }

    /// Receives resizes, frame callbacks, buffer releases and close requests (held weakly;
    /// normally the ``Window`` drawing into this surface, which also receives the input).
    public weak var delegate: (any SurfaceDelegate)?
    /// Size in logical points.
    public private(set) var size: CGSize
    /// Buffer pixels per logical point.
    public private(set) var scale: CGFloat = 1
    /// The buffer width: `size.width × scale`, rounded half away from zero.
    public var pixelWidth: Int { Self.pixels(size.width, scale) }
    /// The buffer height: `size.height × scale`, rounded half away from zero.
    public var pixelHeight: Int { Self.pixels(size.height, scale) }
    /// The title the compositor shows for the window.
    public var title: String {
        didSet { xdg_toplevel_set_title(toplevel, title); connection.setNeedsFlush() }
    }
    /// The xdg application id (reverse-DNS, e.g. `org.damask.Demo`).
    public let appID: String
    /// The state of the last applied configure.
    public private(set) var states: ToplevelState = []
    /// Whether the first configure has arrived (buffers may be attached only after it).
    public private(set) var isConfigured = false
    /// Number of `wl_surface.commit` requests sent, with or without a buffer.
    public private(set) var commitCount = 0
    /// Smallest window size the user may resize to, in points (sent as
    /// `xdg_toplevel.set_min_size`). A floating window smaller than this grows at once.
    public var minimumSize: CGSize {
        get { sizing.minimumSize }
        set {
            sizing.minimumSize = newValue
            xdg_toplevel_set_min_size(toplevel, Int32(sizing.minimumSize.width), Int32(sizing.minimumSize.height))
            connection.setNeedsFlush()
            sizeLimitsDidChange()
        }
    }
    /// Largest window size the user may resize to, in points; 0 on an axis is unbounded
    /// (sent as `xdg_toplevel.set_max_size`). A floating window larger than this shrinks.
    public var maximumSize: CGSize {
        get { sizing.maximumSize }
        set {
            sizing.maximumSize = newValue
            xdg_toplevel_set_max_size(toplevel, Int32(sizing.maximumSize.width), Int32(sizing.maximumSize.height))
            connection.setNeedsFlush()
            sizeLimitsDidChange()
        }
    }
    /// The window size the window had when last floating (restored when the compositor
    /// lets the client choose after maximized, fullscreen or tiled).
    public var floatingWindowSize: CGSize { sizing.floatingSize }
    /// The connection the surface lives on.
    public let connection: WaylandConnection
    /// Buffers currently allocated and their shm bytes.
    public var liveBufferCount: Int { buffers.count }
    /// The shared memory those buffers take, in bytes.
    public var liveShmBytes: Int { buffers.values.reduce(0) { $0 + $1.shm.bytesPerRow * $1.shm.height } }
    /// The buffer presented last (the pixels the compositor shows).
    public private(set) var presentedBuffer: SurfaceBuffer?

    /// The part of the surface outside the window proper (a client-side shadow), in points.
    ///
    /// Configure sizes are window sizes: the surface is that size plus these insets, and
    /// `xdg_surface.set_window_geometry` excludes them (sent with the next commit). Changing
    /// the insets keeps the window size and resizes the surface. Set them from
    /// ``onStatesChange`` to make them depend on the maximized, tiled or fullscreen state.
    public var shadowInsets: WindowInsets = .zero {
        didSet {
            guard shadowInsets != oldValue, isConfigured, !isApplyingConfigure else { return }
            let window = CGSize(
                width: size.width - oldValue.total.width, height: size.height - oldValue.total.height)
            resize(to: surfaceSize(forWindowSize: window), scale: scale)
            scheduleCommit()
        }
    }
    /// The window's size without the shadow insets, in points.
    public var windowSize: CGSize {
        CGSize(width: size.width - shadowInsets.total.width, height: size.height - shadowInsets.total.height)
    }
    /// Called during a configure whose states differ from the current ones, before the new
    /// size is applied (so that ``shadowInsets`` set here take effect in the same configure).
    public var onStatesChange: ((ToplevelState) -> Void)?
    /// Who draws the decorations: server-side only when the compositor offers xdg-decoration
    /// and agreed to draw them.
    public private(set) var decorationMode: DecorationMode = .clientSide
    /// Called when ``decorationMode`` changes.
    public var onDecorationModeChange: ((DecorationMode) -> Void)?

    /// Called with every input event for this surface before its window sees it; return
    /// `true` to consume the event (key commands, decorations).
    public var eventInterceptor: ((Event) -> Bool)?
    /// Sees every input event for this surface first, consumed or not (for recording input).
    public var inputObserver: ((Event) -> Void)?
    /// Chooses the cursor at a point (surface points). Default: the arrow everywhere.
    public var cursorProvider: ((CGPoint) -> CursorShape)?
    /// The seat that delivered the latest input event, if any.
    public private(set) weak var lastInputSeat: WaylandSeat?
    /// How many interactive move and resize requests were sent (for diagnostics and tests).
    public private(set) var interactiveRequestCount = 0

    private var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private var frameCallback: OpaquePointer?
    /// The timer of an idle frame (``requestIdleFrame(notBefore:)``), on ``MainLoop``; owned here,
    /// cancelled when a frame callback answers instead, and in `close()`.
    private var idleFrameTimer: MainLoop.Timer?
    /// The compositor's frame clock minus `CLOCK_MONOTONIC`, in milliseconds, as the latest
    /// frame callback showed it (0 before the first). Frame callback times have no defined
    /// base: mutter stamps them with `CLOCK_MONOTONIC`, headless and nested Weston with its
    /// presentation clock, `CLOCK_MONOTONIC_RAW`, which drifts from `CLOCK_MONOTONIC` by the
    /// clock's frequency correction (242 ms after 23 hours of uptime on the test machine).
    /// ``clockTimestamp`` adds it, so that idle frames are stamped on the same clock as
    /// the frames the compositor sends.
    private var frameClockOffset: UInt32 = 0
    private var pool: BufferPool!
    private var buffers: [Int: (surface: SurfaceBuffer, shm: ShmBuffer)] = [:]
    private var nextBufferIdentifier = 0
    private var pendingSize: (width: Int32, height: Int32) = (0, 0)
    private var pendingStates: ToplevelState = []
    /// The size rules: limits and the floating size.
    private var sizing: ToplevelSizing
    /// The outputs the surface is on, by proxy address.
    private var enteredOutputs: Set<Int> = []
    private var preferredFractionalScale: CGFloat?
    private var appliedBufferScale: Int32 = 1
    private var appliedViewportSize: CGSize?
    private var needsCommit = false
    private var commitScheduled = false
    private var isApplyingConfigure = false
    private var appliedGeometry: CGRect?
    /// The opaque region to send with the next commit (surface points), and the one sent.
    private var pendingOpaqueRegion = Region()
    private var appliedOpaqueRegion: Region?
    /// Whether new buffers are `XRGB8888`: the whole surface is opaque (``setOpaqueRegion(_:)``).
    public private(set) var usesOpaqueBuffers = false
    private var decoration: OpaquePointer?

    /// Creates the window and waits (blocking, at start-up) for its first configure.
    ///
    /// - Parameters:
    ///   - size: the size to use when the compositor lets the client choose (0×0).
    /// - Throws: `WaylandError` when the compositor fails or never configures the window.
    public init(connection: WaylandConnection, title: String, appID: String, size: CGSize) throws {
        self.connection = connection
        self.title = title
        self.appID = appID
        self.size = CGSize(width: max(1, size.width.rounded()), height: max(1, size.height.rounded()))
        sizing = ToplevelSizing(initialSize: self.size)
        pool = BufferPool(
            capacity: 3,
            allocate: { [unowned self] width, height in self.allocateBuffer(width: width, height: height) },
            destroy: { [unowned self] buffer in self.destroyBuffer(buffer) })

        let data = Unmanaged.passUnretained(self).toOpaque()
        surface = wl_compositor_create_surface(connection.compositor)
        wl_surface_add_listener(surface, Self.surfaceListener.pointer, data)
        xdgSurface = xdg_wm_base_get_xdg_surface(connection.xdgWmBase, surface)
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
        if let surface { connection.register(self, proxy: surface) }
        if let viewporter = connection.viewporter, let manager = connection.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScale, Self.fractionalScaleListener.pointer, data)
        }
        scale = initialScale()
        wl_surface_commit(surface)
        commitCount += 1
        for _ in 0..<10 where !isConfigured {
            try connection.roundtrip()
        }
        guard isConfigured else {
            throw WaylandError.connectionLost(reason: "the compositor never configured the window")
        }
    }

    isolated deinit {
        close()
    }

    /// Destroys the window's protocol objects and buffers. Idempotent.
    public func close() {
        idleFrameTimer?.cancel()
        idleFrameTimer = nil
        if let surface { connection.unregister(proxy: surface) }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        decoration = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        (frameCallback, fractionalScale, viewport) = (nil, nil, nil)
        (toplevel, xdgSurface, surface) = (nil, nil, nil)
        for entry in buffers.values { entry.shm.destroy() }
        buffers.removeAll()
        presentedBuffer = nil
        connection.setNeedsFlush()
    }

    // MARK: - Surface

    /// Returns a free buffer of the current pixel size (allocating one while fewer than
    /// three exist), or `nil` when every buffer is held by the compositor.
    public func dequeueBuffer() -> SurfaceBuffer? {
        guard surface != nil else { return nil }
        return pool.dequeue(width: pixelWidth, height: pixelHeight)
    }

    /// Attaches `buffer` with `damage` (buffer pixels; `damage_buffer`, or `damage` in points
    /// before wl_surface v4), applies scale and window geometry, and commits. The buffer is
    /// busy until the compositor releases it.
    public func present(_ buffer: SurfaceBuffer, damage: Region) {
        guard let surface, let entry = buffers[buffer.identifier], let proxy = entry.shm.proxy else { return }
        applyScale()
        applyWindowGeometry()
        applyOpaqueRegion()
        wl_surface_attach(surface, proxy, 0, 0)
        if wl_surface_get_version(surface) >= 4 {
            for rect in damage.rects {
                wl_surface_damage_buffer(
                    surface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
            }
        } else {
            for rect in damage.scaled(by: 1 / scale).rects {
                wl_surface_damage(
                    surface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
            }
        }
        entry.shm.isBusy = true
        pool.didPresent(buffer, damage: damage)
        presentedBuffer = buffer
        commit()
    }

    /// Records the opaque part of the surface (surface points), sent with the next present.
    ///
    /// At a fractional scale a rect's edges inside the surface fall inside buffer pixels that
    /// are only partly covered, so those edges move in by a point. When the region covers the
    /// whole surface, the buffer's pixels all cover it exactly, and the compositor offers
    /// `XRGB8888`, new buffers are `XRGB8888` (the pool is replaced once when this changes):
    /// the bytes are the same (every alpha is 255), the compositor skips blending.
    public func setOpaqueRegion(_ region: Region) {
        let surfaceRect = CGRect(origin: .zero, size: size)
        var opaque = region.intersection(Region(surfaceRect))
        let integralScale = scale == scale.rounded()
        if !integralScale {
            opaque = Region(rects: opaque.rects.compactMap { rect in
                let inset = CGRect(
                    x: rect.minX + (rect.minX > 0 ? 1 : 0), y: rect.minY + (rect.minY > 0 ? 1 : 0),
                    width: rect.width - (rect.minX > 0 ? 1 : 0) - (rect.maxX < surfaceRect.maxX ? 1 : 0),
                    height: rect.height - (rect.minY > 0 ? 1 : 0) - (rect.maxY < surfaceRect.maxY ? 1 : 0))
                return inset.width > 0 && inset.height > 0 ? inset : nil
            })
        }
        pendingOpaqueRegion = opaque
        let exactPixels = CGFloat(pixelWidth) == size.width * scale && CGFloat(pixelHeight) == size.height * scale
        let whole = Region(surfaceRect).subtracting(opaque).isEmpty && exactPixels
            && connection.shmFormats.contains(WL_SHM_FORMAT_XRGB8888.rawValue)
        if whole != usesOpaqueBuffers {
            usesOpaqueBuffers = whole
            pool.reset()
        }
    }

    /// Sends the opaque region when it changed since the last commit.
    private func applyOpaqueRegion() {
        guard let surface, appliedOpaqueRegion != pendingOpaqueRegion,
            let region = wl_compositor_create_region(connection.compositor)
        else { return }
        for rect in pendingOpaqueRegion.rects {
            wl_region_add(region, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
        }
        wl_surface_set_opaque_region(surface, region)
        wl_region_destroy(region)  // the surface keeps a copy: the region object is ours to drop
        appliedOpaqueRegion = pendingOpaqueRegion
    }

    /// Asks for one frame callback, sent with the next commit (or a bare commit at the end
    /// of this turn when nothing is presented).
    public func requestFrame() {
        guard let surface, frameCallback == nil else { return }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(
            frameCallback, Self.frameListener.pointer, Unmanaged.passUnretained(self).toOpaque())
        scheduleCommit()
    }

    /// Whether a frame callback is outstanding.
    public var isFramePending: Bool { frameCallback != nil }

    /// Whether an idle frame (``requestIdleFrame(notBefore:)``) is on its way.
    public var isIdleFramePending: Bool { idleFrameTimer != nil }

    /// How long an idle frame waits: one frame at 60 Hz.
    static let idleFrameInterval = Duration.microseconds(16_667)

    /// Asks for one tick without a commit: an outstanding frame callback answers it;
    /// otherwise a ``MainLoop`` timer fires one frame interval from now (or at `timestamp`
    /// on ``clockTimestamp``'s clock, if later) and the delegate hears `surfaceFrameDidFire`
    /// with that clock's time. Unlike a frame callback it also ticks while the compositor
    /// hides the window. A new request replaces a pending one.
    public func requestIdleFrame(notBefore timestamp: UInt32?) {
        guard surface != nil, frameCallback == nil else { return }
        idleFrameTimer?.cancel()
        var delay = Self.idleFrameInterval
        if let timestamp {
            let wait = Int64(Int32(bitPattern: timestamp &- clockTimestamp))
            if wait > 16 { delay = .milliseconds(wait) }
        }
        idleFrameTimer = MainLoop.shared.schedule(after: delay) { [weak self] in
            self?.idleFrameDidFire()
        }
    }

    private func idleFrameDidFire() {
        idleFrameTimer = nil
        delegate?.surfaceFrameDidFire(self, timestamp: clockTimestamp)
    }

    /// The time now on the clock the compositor stamps this surface's frame callbacks
    /// with, in milliseconds (wrapping): `CLOCK_MONOTONIC` shifted by the offset the latest
    /// frame callback showed (its time minus `CLOCK_MONOTONIC` when it arrived, so a little
    /// behind the compositor's clock by the callback's delivery time; before the first
    /// callback, `CLOCK_MONOTONIC` itself).
    public var clockTimestamp: UInt32 { monotonicMilliseconds() &+ frameClockOffset }

    // MARK: - Window management requests

    /// Asks the compositor to start an interactive move, for a press with `serial` on `seat`.
    public func beginMove(seat: OpaquePointer, serial: UInt32) {
        xdg_toplevel_move(toplevel, seat, serial)
        connection.setNeedsFlush()
    }

    /// Asks the compositor to start an interactive resize from `edges` (xdg_toplevel values).
    public func beginResize(seat: OpaquePointer, serial: UInt32, edges: UInt32) {
        xdg_toplevel_resize(toplevel, seat, serial, edges)
        connection.setNeedsFlush()
    }

    /// Maximizes or restores the window.
    public func setMaximized(_ maximized: Bool) {
        if maximized { xdg_toplevel_set_maximized(toplevel) } else { xdg_toplevel_unset_maximized(toplevel) }
        connection.setNeedsFlush()
    }

    /// Minimizes the window.
    public func minimize() {
        xdg_toplevel_set_minimized(toplevel)
        connection.setNeedsFlush()
    }

    /// Makes the window fullscreen or windowed again.
    public func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) } else { xdg_toplevel_unset_fullscreen(toplevel) }
        connection.setNeedsFlush()
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
        let geometry = windowGeometry?.origin ?? .zero
        xdg_toplevel_show_window_menu(
            toplevel, seat.proxy, serial, Int32(point.x - geometry.x), Int32(point.y - geometry.y))
        seat.pointer?.interactiveGrabDidBegin()
        connection.setNeedsFlush()
        return true
    }

    /// The part of the surface that is the window proper (excluding shadows), in points.
    ///
    /// Sent at once; with non-zero ``shadowInsets`` the surface keeps the geometry in step
    /// itself and this is rarely needed.
    public func setWindowGeometry(_ rect: CGRect) {
        xdg_surface_set_window_geometry(
            xdgSurface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
        appliedGeometry = rect
        connection.setNeedsFlush()
    }

    /// The window geometry sent last, if any.
    public var windowGeometry: CGRect? { appliedGeometry }

    // MARK: - Input

    /// Hands an input event to the interceptor, then to the window drawing this surface.
    func deliver(_ event: Event, from seat: WaylandSeat) {
        lastInputSeat = seat
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

    /// The integer buffer scale cursor images need to be sharp on this surface.
    var cursorBufferScale: Int { max(1, Int(scale.rounded(.up))) }

    /// The `wl_surface` proxy, for input (pointer focus is reported by surface).
    public var surfaceProxy: OpaquePointer? { surface }

    /// The `wl_surface`'s object id on the wire (as compositor logs show it), 0 once closed.
    public var protocolID: UInt32 { surface.map { wl_proxy_get_id($0) } ?? 0 }

    /// Sends `wl_surface.set_buffer_scale(0)`, which every compositor answers with a
    /// protocol error. Only for tests of how a protocol error is reported.
    public func sendInvalidBufferScaleForTesting() {
        guard let surface else { return }
        wl_surface_set_buffer_scale(surface, 0)
        commit()
    }

    // MARK: - Commits

    /// Commits and sends the commit, with every request made before it, at once rather
    /// than at the end of the turn: the frame's remaining work (the commit report,
    /// after-display handlers, the main loop's own bookkeeping) then runs while the
    /// compositor handles the commit.
    ///
    /// That order decides how often an animating window wakes. Weston's pixman renderer
    /// answers a commit with the release of the previous `wl_shm` buffer, a frame before
    /// the frame callback. Writing to the socket wakes Weston, and the kernel runs a task
    /// woken through a socket on the writer's CPU when the other is busy; sent mid-frame,
    /// the commit lets Weston take the CPU (a preemption, not a sleep) and its release is
    /// waiting when the loop looks before sleeping: one sleep per frame. Sent as the last
    /// thing before the loop sleeps, it made Weston wait for that sleep about half the
    /// time, and the release then woke the process a second time (docs/architecture.md,
    /// "One wake-up per event").
    private func commit() {
        guard let surface else { return }
        wl_surface_commit(surface)
        commitCount += 1
        needsCommit = false
        connection.flush()
    }

    /// Makes sure a commit is sent by the end of this turn, even when nothing is presented.
    private func scheduleCommit() {
        needsCommit = true
        guard !commitScheduled else { return }
        commitScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.commitScheduled = false
                // Before anything was presented a bare commit shows nothing: the first
                // present carries the acknowledgement instead.
                let hasContent = self.presentedBuffer != nil || self.frameCallback != nil
                if self.needsCommit && hasContent { self.commit() }
            }
        }
    }

    // MARK: - Buffers

    private func allocateBuffer(width: Int, height: Int) -> SurfaceBuffer? {
        guard let shmGlobal = connection.shm else { return nil }
        do {
            // The same premultiplied ARGB bytes either way: with an opaque surface every alpha
            // is 255, so announcing XRGB8888 changes only what the compositor must blend.
            let format = usesOpaqueBuffers ? WL_SHM_FORMAT_XRGB8888 : WL_SHM_FORMAT_ARGB8888
            let shm = try ShmBuffer(shm: shmGlobal, width: width, height: height, format: format.rawValue)
            guard let memory = shm.memory else { return nil }
            let bitmap = try Bitmap(
                wrapping: memory, width: width, height: height, bytesPerRow: shm.bytesPerRow,
                format: .argb32Premultiplied)
            nextBufferIdentifier += 1
            let buffer = SurfaceBuffer(bitmap: bitmap, identifier: nextBufferIdentifier)
            shm.onRelease = { [weak self] _ in self?.bufferReleased(identifier: buffer.identifier) }
            buffers[buffer.identifier] = (buffer, shm)
            return buffer
        } catch {
            StandardError.write("damask: cannot allocate a \(width)×\(height) buffer: \(error)\n")
            return nil
        }
    }

    private func destroyBuffer(_ buffer: SurfaceBuffer) {
        buffers.removeValue(forKey: buffer.identifier)?.shm.destroy()
    }

    private func bufferReleased(identifier: Int) {
        guard let entry = buffers[identifier] else { return }
        pool.release(entry.surface)
        delegate?.surfaceBufferDidBecomeAvailable(self)
    }

    // MARK: - Configure and scale

    private func applyConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        var window = windowSize
        let statesChanged = pendingStates != states
        states = pendingStates
        if statesChanged || !isConfigured {
            isApplyingConfigure = true
            onStatesChange?(states)
            isApplyingConfigure = false
        }
        window = sizing.windowSize(
            proposedWidth: pendingSize.width, height: pendingSize.height, states: states, current: window)
        let newSize = surfaceSize(forWindowSize: window)
        let changed = !isConfigured || newSize != size || statesChanged
        isConfigured = true
        if changed { resize(to: newSize, scale: scale) }
        scheduleCommit()
    }

    /// The limits changed: a configured floating window outside them is resized now.
    private func sizeLimitsDidChange() {
        guard isConfigured, !isApplyingConfigure,
            let window = sizing.sizeAfterLimitsChanged(states: states, current: windowSize)
        else { return }
        resize(to: surfaceSize(forWindowSize: window), scale: scale)
        scheduleCommit()
    }

    /// The surface size for a window size: the window plus the shadow insets, clamped.
    private func surfaceSize(forWindowSize window: CGSize) -> CGSize {
        (CGSize(
            width: max(1, window.width) + shadowInsets.total.width,
            height: max(1, window.height) + shadowInsets.total.height))
    }

    /// Sends the window geometry (the surface minus the shadow) when it changed.
    private func applyWindowGeometry() {
        guard shadowInsets != .zero || appliedGeometry != nil else { return }
        let rect = shadowInsets.inset(CGRect(origin: .zero, size: size))
        guard rect != appliedGeometry, rect.width > 0, rect.height > 0 else { return }
        setWindowGeometry(rect)
    }

    /// `size` (points) limited so that its buffer at `scale` stays within
    /// ``maximumPixelDimension`` a side and ``maximumPixelCount`` in all, keeping the aspect.
    nonisolated static func clamped(_ size: CGSize, scale: CGFloat) -> CGSize {
        let limit = (CGFloat(maximumPixelDimension) / scale).rounded(.down)
        var result = CGSize(width: min(max(size.width, 1), limit), height: min(max(size.height, 1), limit))
        let area = result.width * result.height * scale * scale
        if area > CGFloat(maximumPixelCount) {
            let shrink = (CGFloat(maximumPixelCount) / area).squareRoot()
            result = CGSize(
                width: max(1, (result.width * shrink).rounded(.down)), height: max(1, (result.height * shrink).rounded(.down)))
        }
        // Pixels are rounded from points × scale: trim a point until the rounded area fits.
        while pixels(result.width, scale) * pixels(result.height, scale) > maximumPixelCount,
            result.width > 1 || result.height > 1
        {
            if result.width >= result.height { result.width -= 1 } else { result.height -= 1 }
        }
        return result
    }

    /// The one place the size and scale change: the buffer caps are applied here, with the
    /// new scale, whatever changed (a configure, a scale, the shadow insets).
    private func resize(to requestedSize: CGSize, scale newScale: CGFloat) {
        let newSize = Self.clamped(requestedSize, scale: newScale)
        if newSize.width < requestedSize.width || newSize.height < requestedSize.height {
            StandardError.write("damask: warning: size \(Int(requestedSize.width))×\(Int(requestedSize.height)) clamped to \(Int(newSize.width))×\(Int(newSize.height)) at scale \(newScale) (buffers are limited to \(Self.maximumPixelDimension) px a side and \(Self.maximumPixelCount) px)\n")
        }
        let oldPixels = (pixelWidth, pixelHeight)
        size = newSize
        scale = newScale
        if oldPixels != (pixelWidth, pixelHeight) { pool.reset() }
        delegate?.surface(self, didResizeTo: size, scale: scale)
    }

    private func initialScale() -> CGFloat {
        Self.sanitizedScale(CGFloat(connection.outputs.values.map(\.scale).max() ?? 1)) ?? 1
    }

    private func updateScale() {
        let newScale: CGFloat
        if let preferredFractionalScale {
            newScale = preferredFractionalScale
        } else {
            let entered = connection.outputs.values.filter { enteredOutputs.contains(Int(bitPattern: $0.proxy)) }
            newScale = Self.sanitizedScale(
                CGFloat((entered.isEmpty ? Array(connection.outputs.values) : entered).map(\.scale).max() ?? 1)) ?? 1
        }
        guard newScale != scale else { return }
        resize(to: size, scale: newScale)
    }

    /// The outputs changed (a new scale, an output gone): picks the scale again.
    func outputsDidChange() {
        enteredOutputs = enteredOutputs.filter { key in
            connection.outputs.values.contains { Int(bitPattern: $0.proxy) == key }
        }
        updateScale()
    }

    /// Tells the compositor how buffer pixels map to surface points before an attach.
    private func applyScale() {
        guard let surface else { return }
        if let viewport {
            if appliedViewportSize != size {
                wp_viewport_set_destination(viewport, Int32(size.width), Int32(size.height))
                appliedViewportSize = size
            }
        } else {
            let integerScale = Int32(scale.rounded())
            if integerScale != appliedBufferScale {
                wl_surface_set_buffer_scale(surface, integerScale)
                appliedBufferScale = integerScale
            }
        }
    }

    /// Pixels for `points` at `scale`, rounded half away from zero.
    nonisolated static func pixels(_ points: CGFloat, _ scale: CGFloat) -> Int {
        max(1, Int((points * scale).rounded(.toNearestOrAwayFromZero)))
    }

    // MARK: - Listeners

    private static let surfaceListener = StaticListener(
        wl_surface_listener(
            enter: { data, _, output in
                let window = owner(data, as: WaylandSurface.self)
                let key = Int(bitPattern: output)
                MainActor.assumeIsolated {
                    window.enteredOutputs.insert(key)
                    window.updateScale()
                }
            },
            leave: { data, _, output in
                let window = owner(data, as: WaylandSurface.self)
                let key = Int(bitPattern: output)
                MainActor.assumeIsolated {
                    window.enteredOutputs.remove(key)
                    window.updateScale()
                }
            }))

    private static let xdgSurfaceListener = StaticListener(
        xdg_surface_listener(configure: { data, _, serial in
            let window = owner(data, as: WaylandSurface.self)
            MainActor.assumeIsolated { window.applyConfigure(serial: serial) }
        }))

    private static let toplevelListener = StaticListener(
        xdg_toplevel_listener(
            configure: { data, _, width, height, states in
                let window = owner(data, as: WaylandSurface.self)
                var values: [UInt32] = []
                if let states, let base = states.pointee.data {
                    let count = states.pointee.size / MemoryLayout<UInt32>.size
                    values = Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: count))
                }
                MainActor.assumeIsolated {
                    window.pendingSize = (width, height)
                    window.pendingStates = ToplevelState(protocolValues: values)
                }
            },
            close: { data, _ in
                let window = owner(data, as: WaylandSurface.self)
                MainActor.assumeIsolated { window.delegate?.surfaceDidRequestClose(window) }
            },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))

    private static let frameListener = StaticListener(
        wl_callback_listener(done: { data, callback, time in
            let window = owner(data, as: WaylandSurface.self)
            let key = Int(bitPattern: callback)
            wl_callback_destroy(callback)
            MainActor.assumeIsolated {
                if Int(bitPattern: window.frameCallback) == key { window.frameCallback = nil }
                window.idleFrameTimer?.cancel()  // this callback answers an idle-frame request too
                window.idleFrameTimer = nil
                window.frameClockOffset = time &- monotonicMilliseconds()
                window.delegate?.surfaceFrameDidFire(window, timestamp: time)
            }
        }))

    private static let decorationListener = StaticListener(
        zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
            let window = owner(data, as: WaylandSurface.self)
            MainActor.assumeIsolated {
                let newMode: DecorationMode =
                    mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue ? .serverSide : .clientSide
                guard newMode != window.decorationMode else { return }
                window.decorationMode = newMode
                window.onDecorationModeChange?(newMode)
            }
        }))

    private static let fractionalScaleListener = StaticListener(
        wp_fractional_scale_v1_listener(preferred_scale: { data, _, value in
            let window = owner(data, as: WaylandSurface.self)
            MainActor.assumeIsolated {
                // 0 is no scale at all: ignore it, as if the compositor had said nothing.
                window.preferredFractionalScale = WaylandSurface.sanitizedScale(CGFloat(value) / 120)
                window.updateScale()
            }
        }))
}

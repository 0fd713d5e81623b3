import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import DamaskViews
import Foundation

/// A desktop window on a Wayland compositor: a `wl_surface` with shm buffers, frame
/// callbacks and damage, seen by the views layer as a `Surface`; its xdg toplevel role
/// (``XDGToplevel``), its frame ticks (``SurfaceFrameClock``) and its scale
/// (``SurfaceScaler``, by the rules of ``ScalePolicy``) are parts it owns.
///
/// Owns every protocol object it creates, its role and its buffers (through a
/// `BufferPool`; each buffer carries its ``ShmBuffer`` as its backing); `close()` (also run
/// by `deinit`) destroys them. The connection must outlive the surface. Main-actor: all
/// listeners run on the main queue.
///
/// Configures (``XDGToplevel``): the latest wins, the window size follows ``ToplevelSizing``,
/// and a commit follows every acknowledgement in the same turn.
///
/// Commits: one per present (``present(_:damage:requestingFrame:)`` carries the frame
/// request); a bare commit only when something must reach the compositor without a buffer
/// (a configure's acknowledgement, a frame request alone, a resize by the client).
///
/// Input reaches the delegate through ``SurfaceDelegate/surface(_:didReceive:)`` after the
/// ``eventInterceptor`` had its say.
@MainActor public final class WaylandSurface: Surface {
    /// Receives resizes, frames, releases, close requests and input: normally the ``Window``
    /// drawing into this surface (not retained: see `SurfaceDelegateReference`).
    public var delegate: (any SurfaceDelegate)? {
        get { delegateReference.delegate }
        set { delegateReference.delegate = newValue }
    }
    @exclusivity(unchecked) private var delegateReference = SurfaceDelegateReference()
    /// Size in logical points.
    @exclusivity(unchecked) public private(set) var size: CGSize
    /// Buffer pixels per logical point.
    @exclusivity(unchecked) public private(set) var scale: CGFloat = 1
    /// The buffer width: `size.width × scale`, rounded half away from zero.
    public var pixelWidth: Int { Self.pixels(size.width, scale) }
    /// The buffer height: `size.height × scale`, rounded half away from zero.
    public var pixelHeight: Int { Self.pixels(size.height, scale) }
    /// The xdg application id (reverse-DNS, e.g. `org.damask.Demo`).
    public let appID: String
    /// Number of `wl_surface.commit` requests sent, with or without a buffer.
    public private(set) var commitCount = 0
    /// The connection the surface lives on.
    public let connection: WaylandConnection
    /// Buffers currently allocated.
    public var liveBufferCount: Int { pool.liveBufferCount }
    /// The shared memory those buffers take, in bytes.
    public var liveShmBytes: Int { pool.buffers.reduce(0) { $0 + ShmBuffer.backing(of: $1).byteCount } }
    /// The buffer presented last (the pixels the compositor shows).
    @exclusivity(unchecked) public private(set) var presentedBuffer: SurfaceBuffer?

    /// The part of the surface outside the window proper (a client-side shadow), in points.
    ///
    /// Configure sizes are window sizes: the surface is that size plus these insets, and
    /// `xdg_surface.set_window_geometry` excludes them (sent with the next commit). Changing
    /// the insets keeps the window size and resizes the surface. Set them from
    /// ``onStatesChange`` to make them depend on the maximized, tiled or fullscreen state.
    public var shadowInsets: WindowInsets = .zero {
        didSet {
            guard shadowInsets != oldValue, role.isConfigured, !role.isApplyingConfigure else { return }
            roleDidResize(toWindowSize: oldValue.windowSize(forSurfaceSize: size))
        }
    }
    /// The window's size without the shadow insets, in points.
    public var windowSize: CGSize { shadowInsets.windowSize(forSurfaceSize: size) }

    /// Called with every input event for this surface before its window sees it; return
    /// `true` to consume the event (key commands, decorations).
    @exclusivity(unchecked) public var eventInterceptor: ((Event) -> Bool)?
    /// Sees every input event for this surface first, consumed or not (for recording input).
    @exclusivity(unchecked) public var inputObserver: ((Event) -> Void)?
    /// Chooses the cursor at a point (surface points). Default: the arrow everywhere.
    @exclusivity(unchecked) public var cursorProvider: ((CGPoint) -> CursorShape)?
    /// The seat that delivered the latest input event, while the connection has it (kept by
    /// registry name: a weak reference would give the seat a side table).
    public var lastInputSeat: WaylandSeat? { lastInputSeatName.flatMap { connection.inputSeats[$0] } }
    @exclusivity(unchecked) var lastInputSeatName: UInt32?
    /// How many interactive move and resize requests were sent (for diagnostics and tests).
    public internal(set) var interactiveRequestCount = 0
    /// Whether new buffers are `XRGB8888`: the whole surface is opaque (``setOpaqueRegion(_:)``).
    public private(set) var usesOpaqueBuffers = false

    /// The xdg toplevel role (owned; its protocol objects are destroyed in `close()`
    /// before the `wl_surface`).
    let role: XDGToplevel
    @exclusivity(unchecked) private var surface: OpaquePointer?
    /// The viewport, fractional-scale object and entered outputs (owned; destroyed in
    /// `close()` before the `wl_surface`).
    private let scaler: SurfaceScaler
    /// The frame callback and idle frames (owned; destroyed in `close()`).
    private let frameClock = SurfaceFrameClock()
    /// The buffers; each carries its ``ShmBuffer`` as `backing`, which the pool's `destroy`
    /// frees. Lazy because `allocate` refers to `self`; `close()` (also from `deinit`) only
    /// destroys, which needs no `self`.
    private lazy var pool = BufferPool(
        capacity: 3,
        allocate: { [unowned self] width, height in self.allocateBuffer(width: width, height: height) },
        destroy: { buffer in
            // The pool destroys only released buffers (close() releases the busy ones first,
            // once the wl_surface is gone): the compositor never reads unmapped memory.
            assert(!buffer.isBusy, "buffer \(buffer.identifier) destroyed while the compositor holds it")
            ShmBuffer.backing(of: buffer).destroy()
        })
    private var nextBufferIdentifier = 0
    /// Run once after the next frame tick (``afterNextFrame(_:)``).
    private var frameObservers: [@MainActor () -> Void] = []
    private var needsCommit = false
    /// ``commitCount`` when the outstanding frame callback was asked for: the callback goes
    /// out with the commit after it (``frameWaitDescription``).
    private var commitCountAtFrameRequest = 0
    private var commitScheduled = false
    /// The opaque region to send with the next commit (surface points), and the one sent.
    private var pendingOpaqueRegion = Region()
    private var appliedOpaqueRegion: Region?

    /// Creates the window and waits (blocking, at start-up) for its first configure.
    ///
    /// - Parameters:
    ///   - size: the size to use when the compositor lets the client choose (0×0).
    /// - Throws: `WaylandError` when the compositor fails or never configures the window.
    public init(connection: WaylandConnection, title: String, appID: String, size: CGSize) throws {
        self.connection = connection
        self.appID = appID
        self.size = CGSize(width: max(1, size.width.rounded()), height: max(1, size.height.rounded()))
        guard let surface = wl_compositor_create_surface(connection.compositor) else {
            throw WaylandError.connectionLost(reason: "the compositor refused to create a surface")
        }
        role = XDGToplevel(
            connection: connection, wlSurface: surface, title: title, appID: appID, size: self.size)
        self.surface = surface
        scaler = SurfaceScaler(connection: connection, surface: surface)
        wl_surface_add_listener(surface, Self.surfaceListener.pointer, listenerData(for: self))
        role.surface = self  // before the first roundtrip: configures reach the surface
        frameClock.onFrame = { [unowned self] time in
            self.delegate?.surfaceFrameDidFire(self, timestamp: time)
            let observers = self.frameObservers
            self.frameObservers.removeAll()
            for observer in observers { observer() }
        }
        scaler.onScaleChange = { [unowned self] newScale in
            if newScale != self.scale { self.resize(to: self.size, scale: newScale) }
        }
        connection.register(self, proxy: surface)
        scale = scaler.scale
        wl_surface_commit(surface)
        commitCount += 1
        for _ in 0..<10 where !role.isConfigured {
            try connection.roundtrip()
        }
        guard role.isConfigured else {
            throw WaylandError.connectionLost(reason: "the compositor never configured the window")
        }
    }

    isolated deinit {
        close()
    }

    /// Destroys the window's protocol objects and buffers. Idempotent.
    public func close() {
        if let surface { connection.unregister(proxy: surface) }
        frameClock.destroy()
        role.destroyDecoration()
        scaler.destroy()
        role.destroy()
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        // Every buffer goes now, busy or not: with the surface gone no release will come.
        pool.reset()
        for buffer in pool.buffers { pool.release(buffer) }
        assert(pool.liveBufferCount == 0, "a closed surface keeps \(pool.liveBufferCount) buffers")
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
    /// before wl_surface v4), applies scale, window geometry and opaque region, asks for a
    /// frame callback when `requestingFrame` (and none is outstanding), and commits: one
    /// commit, sent at once. The buffer is busy until the compositor releases it.
    ///
    /// `buffer` must come from this surface's ``dequeueBuffer()`` and not be busy.
    public func present(_ buffer: SurfaceBuffer, damage: Region, requestingFrame: Bool) {
        guard let surface else { return }  // closed: nothing reaches the compositor any more
        precondition(
            pool.holds(buffer), "present of buffer \(buffer.identifier), which this surface did not hand out (or already dropped)")
        precondition(!buffer.isBusy, "present of buffer \(buffer.identifier), which the compositor still holds")
        precondition(role.isConfigured, "a buffer presented before the first configure")
        guard let proxy = ShmBuffer.backing(of: buffer).proxy else {
            preconditionFailure("buffer \(buffer.identifier) presented after its wl_buffer was destroyed")
        }
        if requestingFrame, frameClock.requestCallback(on: surface) { commitCountAtFrameRequest = commitCount }
        scaler.apply(size: size, scale: scale)
        role.applyWindowGeometry(surfaceSize: size, insets: shadowInsets)
        applyOpaqueRegion()
        wl_surface_attach(surface, proxy, 0, 0)
        if wl_surface_get_version(surface) >= 4 {
            for index in 0..<damage.rectCount {  // no array built: every commit
                let rect = damage.rect(at: index)
                wl_surface_damage_buffer(
                    surface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
            }
        } else {
            for rect in damage.scaled(by: 1 / scale).rects {
                wl_surface_damage(
                    surface, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height))
            }
        }
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
        let opaque = ScalePolicy.opaqueRegion(region, surfaceSize: size, scale: scale)
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

    /// Asks for one frame callback without a buffer: sent with a bare commit at the end of
    /// this turn (unless a present commits first). A present asks with
    /// ``present(_:damage:requestingFrame:)`` instead.
    public func requestFrame() {
        guard let surface, frameClock.requestCallback(on: surface) else { return }
        commitCountAtFrameRequest = commitCount
        scheduleCommit()
    }

    /// Whether a frame callback is outstanding.
    public var isFramePending: Bool { frameClock.isFramePending }

    /// What the surface's frames wait for, in words, or nil when no frame callback is
    /// outstanding: for an error that reports a frame that never came (a compositor does not
    /// answer frame callbacks of a surface it does not show, or one never mapped).
    public var frameWaitDescription: String? {
        guard let age = frameClock.pendingCallbackAge else { return nil }
        let sent = commitCount > commitCountAtFrameRequest
            ? "sent with commit \(commitCountAtFrameRequest + 1)" : "not yet sent (no commit since)"
        let shown = presentedBuffer == nil ? "no buffer presented yet" : "a buffer presented"
        return "a frame callback asked for \(age) ms ago, \(sent), unanswered; commits: \(commitCount), \(shown)"
    }

    /// Runs `body` once, right after the next frame tick (a frame callback or an idle
    /// frame) has been handed to the window.
    public func afterNextFrame(_ body: @escaping @MainActor () -> Void) {
        frameObservers.append(body)
    }

    /// Whether an idle frame (``requestIdleFrame(notBefore:)``) is on its way.
    public var isIdleFramePending: Bool { frameClock.isIdleFramePending }

    /// Asks for one tick without a commit: an outstanding frame callback answers it;
    /// otherwise a ``MainLoop`` timer fires one frame interval from now (or at `timestamp`
    /// on ``clockTimestamp``'s clock, if later) and the delegate hears `surfaceFrameDidFire`
    /// with that clock's time. Unlike a frame callback it also ticks while the compositor
    /// hides the window. A new request replaces a pending one.
    public func requestIdleFrame(notBefore timestamp: UInt32?) {
        guard surface != nil else { return }
        frameClock.requestIdleFrame(notBefore: timestamp)
    }

    /// The time now on the clock the compositor stamps this surface's frame callbacks
    /// with, in milliseconds (wrapping; ``SurfaceFrameClock/timestamp``).
    public var clockTimestamp: UInt32 { frameClock.timestamp }

    // MARK: - Commits

    /// Commits and sends the commit, with every request made before it and the focused
    /// field's text-input batch after it, at once rather than at the end of the turn: the
    /// frame's remaining work (the commit report, after-display handlers, the main loop's
    /// own bookkeeping) then runs while the compositor handles the commit.
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
        // Text-input state coalesced since the last frame follows the commit in its write (a
        // second write woke Weston twice a key; docs/performance.md, "One write per key").
        for seat in connection.inputSeats.values { seat.textInput.surfaceDidCommit(self) }
        connection.flush()
    }

    /// Makes sure a commit is sent by the end of this turn, even when nothing is presented.
    private func scheduleCommit() {
        needsCommit = true
        guard !commitScheduled else { return }
        commitScheduled = true
        MainLoop.shared.performAtEndOfTurn(scheduledCommit)
    }

    /// The end-of-turn work ``scheduleCommit()`` queues, made once.
    private lazy var scheduledCommit: @MainActor () -> Void = { [weak self] in
        guard let self else { return }
        self.commitScheduled = false
        // Before anything was presented a bare commit shows nothing: the first
        // present carries the acknowledgement instead.
        let hasContent = self.presentedBuffer != nil || self.frameClock.isFramePending
        if self.needsCommit && hasContent { self.commit() }
    }

    // MARK: - Input

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

    // MARK: - Buffers

    private func allocateBuffer(width: Int, height: Int) -> SurfaceBuffer? {
        guard let shmGlobal = connection.shm else { return nil }
        do {
            // The same premultiplied ARGB bytes either way: with an opaque surface every alpha
            // is 255, so announcing XRGB8888 changes only what the compositor must blend.
            let format = usesOpaqueBuffers ? WL_SHM_FORMAT_XRGB8888 : WL_SHM_FORMAT_ARGB8888
            let shm = try ShmBuffer(shm: shmGlobal, width: width, height: height, format: format.rawValue)
            nextBufferIdentifier += 1
            let buffer = try shm.makeSurfaceBuffer(identifier: nextBufferIdentifier)
            // Weak both ways: the buffer owns the shm buffer, which owns this closure.
            shm.onRelease = { [weak self, weak buffer] in
                guard let self, let buffer else { return }
                self.bufferReleased(buffer)
            }
            return buffer
        } catch {
            StandardError.write("damask: cannot allocate a \(width)×\(height) buffer: \(error)\n")
            return nil
        }
    }

    private func bufferReleased(_ buffer: SurfaceBuffer) {
        // A release for a buffer not attached is the compositor's mistake: nothing to undo.
        guard buffer.isBusy else { return }
        pool.release(buffer)
        delegate?.surfaceBufferDidBecomeAvailable(self)
    }

    // MARK: - Configure, size and scale

    /// The role applied a configure whose window size is `window`: resizes when the size
    /// changed (or `forceResize`), and commits the acknowledgement this turn.
    func roleDidConfigure(windowSize window: CGSize, forceResize: Bool) {
        let newSize = shadowInsets.surfaceSize(forWindowSize: window)
        if forceResize || newSize != size { resize(to: newSize, scale: scale) }
        scheduleCommit()
    }

    /// The client changed the window size (limits, shadow insets): resize and commit.
    func roleDidResize(toWindowSize window: CGSize) {
        resize(to: shadowInsets.surfaceSize(forWindowSize: window), scale: scale)
        scheduleCommit()
    }

    /// The compositor asked to close the window.
    func roleDidRequestClose() {
        delegate?.surfaceDidRequestClose(self)
    }

    /// The one place the size and scale change: the buffer caps are applied here, with the
    /// new scale, whatever changed (a configure, a scale, the shadow insets).
    private func resize(to requestedSize: CGSize, scale newScale: CGFloat) {
        assert(ScalePolicy.range.contains(newScale), "scale \(newScale) outside \(ScalePolicy.range)")
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

    /// The refresh interval of the fastest output the surface is on (of every output before
    /// it entered one), in milliseconds, from `wl_output.mode`; a 60 Hz display's when no
    /// output gave a rate (a rate outside 1…1000 Hz counts as none).
    public var refreshInterval: Double { scaler.refreshInterval }

    /// Whether a change after a quiet spell is committed without a frame request (true
    /// unless a program sets it false): a compositor shows a commit at its next refresh
    /// whether or not it was asked for a frame callback, so an isolated change costs one
    /// wake-up instead of two (``Surface/allowsUnpacedCommits``).
    public var allowsUnpacedCommits = true

    /// The outputs changed (a new scale, an output gone): the scaler picks the scale again.
    func outputsDidChange() {
        scaler.outputsDidChange()
    }

    // MARK: - Listeners

    private static let surfaceListener = StaticListener(
        wl_surface_listener(
            enter: { data, _, output in
                let (window, key) = (owner(data, as: WaylandSurface.self), SurfaceScaler.key(output))
                MainActor.assumeIsolated { window.scaler.enter(output: key) }
            },
            leave: { data, _, output in
                let (window, key) = (owner(data, as: WaylandSurface.self), SurfaceScaler.key(output))
                MainActor.assumeIsolated { window.scaler.leave(output: key) }
            }))
}

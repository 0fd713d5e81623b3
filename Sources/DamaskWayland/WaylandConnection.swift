import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import Dispatch
import Foundation

/// The connection to a Wayland compositor, with its globals and main-loop integration.
///
/// Owns the `wl_display`, the registry and every global it binds; all are destroyed in
/// `close()` (also called from `deinit`). Main-actor only: the socket is watched by
/// ``MainLoop`` (in its own `poll` once ``MainLoop/run()`` runs, through a main-queue
/// `DispatchSource` before that), so every listener runs on the main thread.
///
/// Events are read with `wl_display_prepare_read` → `read_events` → `dispatch_pending`
/// when the socket becomes readable; outgoing requests are flushed at the end of the turn in
/// which they were made (`setNeedsFlush()`), except a surface's commit, which is flushed at
/// once (``WaylandSurface``); when the socket is full the rest waits for it to become
/// writable. Nothing here ever blocks on the compositor after start-up.
@MainActor
public final class WaylandConnection {
    /// Versions Damask speaks; the bound version is the lower of this and the offer.
    enum SupportedVersion {
        static let compositor: UInt32 = 5
        static let subcompositor: UInt32 = 1
        static let shm: UInt32 = 1
        static let seat: UInt32 = 8  // 8: wl_pointer.axis_value120 (high-resolution wheel)
        static let output: UInt32 = 3
        static let xdgWmBase: UInt32 = 4
        static let viewporter: UInt32 = 1
        static let fractionalScaleManager: UInt32 = 1
        static let presentation: UInt32 = 1
        static let decorationManager: UInt32 = 1
        static let dataDeviceManager: UInt32 = 3
        static let primarySelectionManager: UInt32 = 1
        static let textInputManagerV3: UInt32 = 1
        static let textInputManagerV1: UInt32 = 1
    }

    /// The `wl_display`; valid until `close()`.
    @exclusivity(unchecked) public private(set) var display: OpaquePointer?
    /// The `wl_compositor` (required; non-nil after `init` succeeds). Owned by the connection.
    public private(set) var compositor: OpaquePointer?
    /// The `wl_shm` (required). Owned by the connection.
    public private(set) var shm: OpaquePointer?
    /// The `xdg_wm_base` (required). Owned by the connection.
    public private(set) var xdgWmBase: OpaquePointer?
    /// The `wp_viewporter`, if offered. Owned by the connection.
    public private(set) var viewporter: OpaquePointer?
    /// The `wp_fractional_scale_manager_v1`, if offered. Owned by the connection.
    public private(set) var fractionalScaleManager: OpaquePointer?
    /// The `wp_presentation`, if offered. Owned by the connection.
    public private(set) var presentation: OpaquePointer?
    /// The `zxdg_decoration_manager_v1`, if offered (never on GNOME). Owned by the connection.
    public private(set) var decorationManager: OpaquePointer?
    /// The `wl_data_device_manager` (the clipboard), if offered. Owned by the connection.
    public private(set) var dataDeviceManager: OpaquePointer?
    /// The `zwp_primary_selection_device_manager_v1`, if offered. Owned by the connection.
    public private(set) var primarySelectionManager: OpaquePointer?
    /// The `zwp_text_input_manager_v3` (GNOME, wlroots, KDE), if offered. Owned by the connection.
    public private(set) var textInputManagerV3: OpaquePointer?
    /// The `zwp_text_input_manager_v1` (Weston), if offered. Owned by the connection.
    public private(set) var textInputManagerV1: OpaquePointer?
    /// The `wl_shm` pixel formats the compositor advertised (`WL_SHM_FORMAT_*` values).
    public private(set) var shmFormats: Set<UInt32> = []
    /// The interfaces and versions the compositor advertised, by interface name.
    public private(set) var advertisedGlobals: [String: UInt32] = [:]
    /// Outputs by registry name.
    public private(set) var outputs: [UInt32: WaylandOutput] = [:]
    /// Seats by registry name.
    public private(set) var seats: [UInt32: OpaquePointer] = [:]
    /// The input side of each seat (pointer, keyboard, touch), by registry name.
    @exclusivity(unchecked) public private(set) var inputSeats: [UInt32: WaylandSeat] = [:]
    /// How many writes went to the socket: ``flush()`` calls that sent bytes.
    /// Round trips, ``close()`` and libwayland's own flushes of a full buffer are not counted.
    @exclusivity(unchecked) public private(set) var writeCount = 0

    /// Called once when the connection fails for good (lost, protocol error). The default
    /// prints the error and exits with its `exitStatus`.
    public var onFatalError: (WaylandError) -> Void = { error in
        StandardError.write("damask: \(error)\n")
        exit(error.exitStatus)
    }
    /// Called when a seat appears (registry name, `wl_seat` proxy, bound version).
    public var onSeatAdded: ((UInt32, OpaquePointer, UInt32) -> Void)?
    /// Called when a seat disappears; the connection releases its proxy right after.
    public var onSeatRemoved: ((UInt32) -> Void)?
    /// Called after an output's scale or geometry changes.
    public var onOutputsChanged: (() -> Void)?

    private var registry: OpaquePointer?
    /// Open surfaces by `wl_surface` address, for routing input (weak: surfaces unregister
    /// themselves when they close).
    @exclusivity(unchecked) private var surfaces: [Int: WeakSurface] = [:]
    /// Cursor themes by buffer scale, loaded on first use.
    private var cursorThemes: [Int: CursorTheme] = [:]

    private struct WeakSurface {
        weak var surface: WaylandSurface?
    }
    /// The key ``surface(forKey:)`` found last (0: none) and its surface: input comes in runs
    /// for one surface (a typed key looks its surface up six times), and a hit spares the
    /// table's hashing and the copy of its weak entry, so a key release hashes nothing.
    /// Forgotten when any surface registers or unregisters.
    @exclusivity(unchecked) private var lastLookupKey = 0
    @exclusivity(unchecked) private weak var lastLookupSurface: WaylandSurface?
    /// The main loop's watch of the socket (owned; cancelled on close and failure).
    private var readWatch: MainLoop.Watch?
    private var writeSource: (any DispatchSourceWrite)?
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) private var failed = false

    /// Connects to the compositor named by `name`, or by `WAYLAND_DISPLAY` (default
    /// `wayland-0`) inside `XDG_RUNTIME_DIR`, and binds the globals.
    ///
    /// - Throws: `WaylandError.noCompositor` naming the socket tried,
    ///   `.missingGlobal` for wl_compositor, wl_shm or xdg_wm_base.
    public init(name: String? = nil) throws {
        damask_wayland_capture_log()
        let environment = ProcessInfo.processInfo.environment
        let socketName = name ?? environment["WAYLAND_DISPLAY"] ?? "wayland-0"
        errno = 0
        guard let display = wl_display_connect(name) else {
            let code = errno
            // libwayland uses WAYLAND_SOCKET (an inherited descriptor) before any socket name.
            if name == nil, let inherited = environment["WAYLAND_SOCKET"] {
                let reason = Int32(inherited) == nil
                    ? "not a file descriptor number"
                    : code == 0 ? "not a Wayland connection" : String(cString: strerror(code))
                throw WaylandError.noCompositor(tried: "WAYLAND_SOCKET=\(inherited)", reason: reason)
            }
            throw WaylandError.noCompositor(
                tried: Self.describeSocket(socketName),
                reason: code == 0 ? "no reason given" : String(cString: strerror(code)))
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(
            registry, Self.registryListener.pointer, listenerData(for: self))
        // Two round trips: one for the globals, one for the first events of bound objects
        // (wl_shm formats, output scales).
        for _ in 0..<2 where wl_display_roundtrip(display) < 0 {
            let error = currentError()
            close()
            throw error
        }
        for (name, value) in [("wl_compositor", compositor), ("wl_shm", shm), ("xdg_wm_base", xdgWmBase)]
        where value == nil {
            close()
            throw WaylandError.missingGlobal(name)
        }
        // Whatever libwayland logged so far is history; a later failure reports its own line.
        damask_wayland_clear_log()
    }

    isolated deinit {
        close()
    }

    /// Starts reading events on the main queue. Call once the owner is ready for events.
    public func start() {
        guard readWatch == nil, let display else { return }
        readWatch = MainLoop.shared.watch(wl_display_get_fd(display)) { [weak self] in
            self?.readEvents()
        }
        flush()
    }

    /// Dispatches already-queued events and flushes, without reading the socket.
    public func dispatchPending() {
        guard let display, !failed else { return }
        if wl_display_dispatch_pending(display) < 0 { fail() }
    }

    /// Sends a request round trip and processes events until the compositor answered.
    /// Blocks the caller; for start-up and tests only.
    public func roundtrip() throws {
        guard let display, !failed else { throw WaylandError.connectionLost(reason: "closed") }
        if wl_display_roundtrip(display) < 0 {
            let error = currentError()
            fail(error)
            throw error
        }
    }

    /// Arranges for outgoing requests to be flushed at the end of this turn of the main loop
    /// (``MainLoop/performAtEndOfTurn(_:)``).
    public func setNeedsFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        MainLoop.shared.performAtEndOfTurn(scheduledFlush)
    }

    /// The end-of-turn work ``setNeedsFlush()`` queues, made once (not a closure context
    /// and a weak reference per typed key).
    private lazy var scheduledFlush: @MainActor () -> Void = { [weak self] in
        guard let self else { return }  // one load of the captured reference, not two
        flushScheduled = false
        flush()
    }

    /// Sends buffered requests now and returns how many bytes went out (0 when nothing was
    /// waiting, or while the socket is full). When the socket is full, waits (without
    /// blocking) for it to become writable and sends the rest then.
    @discardableResult public func flush() -> Int {
        guard let display, !failed else { return 0 }
        let sent = wl_display_flush(display)
        if sent > 0 { writeCount += 1 }
        if sent >= 0 { return Int(sent) }
        switch errno {
        case EAGAIN:
            armWriteSource()
        default:
            fail()
        }
        return 0
    }

    /// Destroys every proxy and disconnects. Idempotent.
    public func close() {
        readWatch?.cancel()
        readWatch = nil
        writeSource?.cancel()
        writeSource = nil
        for output in outputs.values { output.destroy() }
        outputs.removeAll()
        for seat in inputSeats.values { seat.destroy() }
        inputSeats.removeAll()
        for theme in cursorThemes.values { theme.destroy() }
        cursorThemes.removeAll()
        for seat in seats.values { Self.release(seat: seat) }
        seats.removeAll()
        if let dataDeviceManager { wl_data_device_manager_destroy(dataDeviceManager) }
        if let primarySelectionManager { zwp_primary_selection_device_manager_v1_destroy(primarySelectionManager) }
        (dataDeviceManager, primarySelectionManager) = (nil, nil)
        if let textInputManagerV3 { zwp_text_input_manager_v3_destroy(textInputManagerV3) }
        if let textInputManagerV1 { zwp_text_input_manager_v1_destroy(textInputManagerV1) }  // no destructor request: local only
        (textInputManagerV3, textInputManagerV1) = (nil, nil)
        if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager) }
        if let presentation { wp_presentation_destroy(presentation) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let xdgWmBase { xdg_wm_base_destroy(xdgWmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        (decorationManager, presentation, fractionalScaleManager, viewporter) = (nil, nil, nil, nil)
        (xdgWmBase, shm, compositor, registry) = (nil, nil, nil, nil)
        if let display {
            wl_display_flush(display)
            wl_display_disconnect(display)
        }
        display = nil
    }

    // MARK: - Input routing

    /// Records an open surface so that input for its `wl_surface` reaches it.
    func register(_ surface: WaylandSurface, proxy: OpaquePointer) {
        surfaces[Int(bitPattern: proxy)] = WeakSurface(surface: surface)
        lastLookupKey = 0
    }

    /// Forgets a closing surface and drops any input state that points at it.
    func unregister(proxy: OpaquePointer) {
        let key = Int(bitPattern: proxy)
        surfaces[key] = nil
        lastLookupKey = 0
        for seat in inputSeats.values {
            seat.pointer?.forget(surfaceKey: key)
            seat.keyboard?.forget(surfaceKey: key)
            seat.touch?.forget(surfaceKey: key)
        }
    }

    /// An output's scale or geometry changed, or an output went away: every surface picks
    /// its scale again, then the app hears of it.
    private func outputsDidChange() {
        for entry in surfaces.values {
            entry.surface?.outputsDidChange()
        }
        onOutputsChanged?()
    }

    /// The open surface whose `wl_surface` has address `key`.
    func surface(forKey key: Int) -> WaylandSurface? {
        if key == lastLookupKey, key != 0, let surface = lastLookupSurface { return surface }
        let surface = surfaces[key]?.surface
        lastLookupKey = surface == nil ? 0 : key
        lastLookupSurface = surface
        return surface
    }

    /// The cursor theme for buffer `scale` (loaded once per scale); nil without wl_shm.
    public func cursorTheme(scale: Int) -> CursorTheme? {
        if let theme = cursorThemes[scale] { return theme }
        guard let shm else { return nil }
        let theme = CursorTheme(shm: shm, scale: scale)
        cursorThemes[scale] = theme
        return theme
    }

    // MARK: - Reading

    /// Reads and dispatches what the socket holds; notices a hang-up however it arrives.
    ///
    /// libdispatch stops watching a descriptor once epoll reports `EPOLLHUP`, even when the
    /// read that followed returned data rather than end-of-file: a compositor that sends its
    /// last events and closes would leave the client asleep forever. So while a dispatch
    /// source serves the watch (before ``MainLoop/run()``), the socket is polled after every
    /// read (without waiting); on a hang-up the rest is read and dispatched until libwayland
    /// reports the end, and the connection fails with that error. ``MainLoop``'s own `poll`
    /// calls the watch again for as long as the hang-up lasts, so there the next turn reads
    /// to the end and the extra `poll` per read is not made.
    private func readEvents() {
        guard let display, !failed else { return }
        guard readOnce(display) else { return }
        if !MainLoop.shared.isRunning, socketHungUp(display) {
            // The peer is gone, so the data left is finite and each read takes some of it or
            // reports the end: this loop ends with `fail()`.
            while !failed, readOnce(display) {}
            if !failed { fail() }
            return
        }
        flush()
    }

    /// One `prepare_read` → `read_events` → `dispatch_pending` cycle; false after `fail()`.
    private func readOnce(_ display: OpaquePointer) -> Bool {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { fail(); return false }
        }
        // The source fired, so the socket is readable (or hung up): this read does not block.
        if wl_display_read_events(display) < 0 { fail(); return false }
        if wl_display_dispatch_pending(display) < 0 { fail(); return false }
        return !failed
    }

    /// Whether the compositor's end of the socket is closed (or the socket is in error).
    private func socketHungUp(_ display: OpaquePointer) -> Bool {
        var entry = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & Int16(POLLHUP | POLLERR) != 0
    }

    private func armWriteSource() {
        guard writeSource == nil, let display else { return }
        let source = DispatchSource.makeWriteSource(
            fileDescriptor: wl_display_get_fd(display), queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.writeSource?.cancel()
                self.writeSource = nil
                self.flush()
            }
        }
        source.resume()
        writeSource = source
    }

    // MARK: - Errors

    private func fail(_ error: WaylandError? = nil) {
        guard !failed else { return }
        failed = true
        let error = error ?? currentError()
        readWatch?.cancel()
        readWatch = nil
        writeSource?.cancel()
        writeSource = nil
        onFatalError(error)
    }

    private static func describeSocket(_ name: String) -> String {
        if name.hasPrefix("/") { return name }
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] else {
            return "\(name) (XDG_RUNTIME_DIR is not set)"
        }
        return "\(runtime)/\(name)"
    }

    // MARK: - Registry

    private static let registryListener = StaticListener(
        wl_registry_listener(
            global: { data, _, name, interface, version in
                let connection = owner(data, as: WaylandConnection.self)
                let interfaceName = String(cString: interface!)
                MainActor.assumeIsolated {
                    connection.bindGlobal(name: name, interface: interfaceName, version: version)
                }
            },
            global_remove: { data, _, name in
                let connection = owner(data, as: WaylandConnection.self)
                MainActor.assumeIsolated { connection.removeGlobal(name: name) }
            }))

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ offered: UInt32, _ supported: UInt32) -> (OpaquePointer?, UInt32) {
        let version = min(offered, supported)
        let proxy = wl_registry_bind(registry, name, interface, version)
        return (OpaquePointer(proxy), version)
    }

    private func bindGlobal(name: UInt32, interface: String, version offered: UInt32) {
        advertisedGlobals[interface] = offered
        switch interface {
        case "wl_compositor":
            compositor = bind(name, damask_wl_compositor_interface(), offered, SupportedVersion.compositor).0
        case "wl_shm":
            shm = bind(name, damask_wl_shm_interface(), offered, SupportedVersion.shm).0
            wl_shm_add_listener(shm, Self.shmListener.pointer, listenerData(for: self))
        case "xdg_wm_base":
            xdgWmBase = bind(name, damask_xdg_wm_base_interface(), offered, SupportedVersion.xdgWmBase).0
            xdg_wm_base_add_listener(xdgWmBase, Self.wmBaseListener.pointer, nil)
        case "wp_viewporter":
            viewporter = bind(name, damask_wp_viewporter_interface(), offered, SupportedVersion.viewporter).0
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager = bind(
                name, damask_wp_fractional_scale_manager_v1_interface(), offered,
                SupportedVersion.fractionalScaleManager).0
        case "wp_presentation":
            presentation = bind(name, damask_wp_presentation_interface(), offered, SupportedVersion.presentation).0
        case "zxdg_decoration_manager_v1":
            decorationManager = bind(
                name, damask_zxdg_decoration_manager_v1_interface(), offered,
                SupportedVersion.decorationManager).0
        case "wl_data_device_manager":
            dataDeviceManager = bind(
                name, damask_wl_data_device_manager_interface(), offered, SupportedVersion.dataDeviceManager).0
            for seat in inputSeats.values { seat.attachSelections() }
        case "zwp_primary_selection_device_manager_v1":
            primarySelectionManager = bind(
                name, damask_zwp_primary_selection_device_manager_v1_interface(), offered,
                SupportedVersion.primarySelectionManager).0
            for seat in inputSeats.values { seat.attachSelections() }
        case "zwp_text_input_manager_v3":
            textInputManagerV3 = bind(
                name, damask_zwp_text_input_manager_v3_interface(), offered, SupportedVersion.textInputManagerV3).0
            for seat in inputSeats.values { seat.attachTextInput() }
        case "zwp_text_input_manager_v1":
            textInputManagerV1 = bind(
                name, damask_zwp_text_input_manager_v1_interface(), offered, SupportedVersion.textInputManagerV1).0
            for seat in inputSeats.values { seat.attachTextInput() }
        case "wl_output":
            let (proxy, version) = bind(name, damask_wl_output_interface(), offered, SupportedVersion.output)
            if let proxy {
                outputs[name] = WaylandOutput(proxy: proxy, version: version) { [weak self] in
                    self?.outputsDidChange()
                }
            }
        case "wl_seat":
            let (proxy, version) = bind(name, damask_wl_seat_interface(), offered, SupportedVersion.seat)
            if let proxy {
                seats[name] = proxy
                let seat = WaylandSeat(connection: self, registryName: name, proxy: proxy, version: version)
                inputSeats[name] = seat
                seat.attachSelections()
                seat.attachTextInput()
                onSeatAdded?(name, proxy, version)
            }
        default:
            break
        }
    }

    private func removeGlobal(name: UInt32) {
        if let output = outputs.removeValue(forKey: name) {
            output.destroy()
            outputsDidChange()
        }
        if let seat = seats.removeValue(forKey: name) {
            inputSeats.removeValue(forKey: name)?.destroy()
            onSeatRemoved?(name)
            Self.release(seat: seat)
        }
    }

    /// Ends a `wl_seat` proxy: `release` from version 5, before that only locally.
    private static func release(seat: OpaquePointer) {
        if wl_seat_get_version(seat) >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    }

    /// Records the pixel formats `wl_shm` offers (sent right after binding).
    private static let shmListener = StaticListener(
        wl_shm_listener(format: { data, _, format in
            let connection = owner(data, as: WaylandConnection.self)
            MainActor.assumeIsolated { _ = connection.shmFormats.insert(format) }
        }))

    /// Answers the compositor's liveness pings.
    private static let wmBaseListener = StaticListener(
        xdg_wm_base_listener(ping: { _, wmBase, serial in
            xdg_wm_base_pong(wmBase, serial)
        }))
}

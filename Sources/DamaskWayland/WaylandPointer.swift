import CWaylandClient
import DamaskViews
import Foundation

/// A seat's `wl_pointer`: turns its events, grouped by `wl_pointer.frame`, into view events
/// for the surface under the pointer, and shows the cursor that surface asks for.
///
/// Owns the `wl_pointer` proxy and the cursor's `wl_surface` (released in ``destroy()``,
/// called by its ``WaylandSeat`` when the capability goes away). Cursor images come from
/// the connection's ``CursorTheme`` for the pointer surface's scale. Main-actor.
@MainActor
public final class WaylandPointer {
    /// The pointer's seat (which owns the pointer).
    public unowned let seat: WaylandSeat
    /// The `wl_pointer` proxy; nil after ``destroy()``.
    @exclusivity(unchecked) public private(set) var proxy: OpaquePointer?
    /// The cursor shown now (nil before the pointer entered a surface).
    @exclusivity(unchecked) public private(set) var cursorShape: CursorShape?
    /// The buffer scale of the cursor shown now.
    @exclusivity(unchecked) public private(set) var cursorScale = 1
    /// Where the pointer is, in the points of the surface it is over.
    public var location: CGPoint { assembler.location }

    /// The latest button press, for interactive move and resize.
    private(set) var lastPress: PressRecord?

    @exclusivity(unchecked) private var assembler = PointerEventAssembler()
    /// The surface that got the last enter (before its frame), for the press serials.
    private var enteredSurface: Int?
    @exclusivity(unchecked) private var enterSerial: UInt32 = 0
    @exclusivity(unchecked) private var cursorSurface: OpaquePointer?

    init(seat: WaylandSeat, proxy: OpaquePointer?) {
        self.seat = seat
        self.proxy = proxy
        wl_pointer_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    /// Releases the pointer and the cursor surface. Idempotent.
    func destroy() {
        if let proxy {
            if wl_pointer_get_version(proxy) >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
        }
        proxy = nil
        if let cursorSurface { wl_surface_destroy(cursorSurface) }
        cursorSurface = nil
        if let focus = assembler.focus { seat.connection.surface(forKey: focus)?.pointerDidLeave() }
    }

    /// Shows the cursor the surface under the pointer wants there (after its content changed,
    /// for example when decorations appear under a still pointer).
    public func refreshCursor() {
        updateCursor(force: false)
    }

    /// A compositor grab (interactive move or resize) takes the pointer: the held buttons
    /// are released for the views at the end of this turn, since the real releases go to
    /// the compositor.
    func interactiveGrabDidBegin() {
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let routed = self.assembler.releaseAllButtons(modifiers: self.seat.keyboard?.modifiers ?? [])
                for item in routed {
                    self.seat.connection.surface(forKey: item.surface)?.deliver(item.event, from: self.seat)
                }
            }
        }
    }

    /// Forgets a surface that is going away.
    func forget(surfaceKey: Int) {
        assembler.forget(surface: surfaceKey)
        if enteredSurface == surfaceKey { enteredSurface = nil }
    }

    // MARK: Frames

    /// Whether events are grouped by `wl_pointer.frame` (version 5 and later).
    private var groupsFrames: Bool { proxy.map { wl_pointer_get_version($0) >= 5 } ?? false }

    private func endFrameIfUngrouped() {
        if !groupsFrames { endFrame() }
    }

    private func endFrame() {
        let modifiers = seat.keyboard?.modifiers ?? []
        let routed = assembler.frame(modifiers: modifiers)
        for item in routed {
            seat.connection.surface(forKey: item.surface)?.deliver(item.event, from: seat)
        }
        if !routed.isEmpty { updateCursor(force: false) }
    }

    // MARK: Cursor

    private func updateCursor(force: Bool) {
        guard let proxy, let focus = assembler.focus,
            let surface = seat.connection.surface(forKey: focus)
        else { return }
        let shape = surface.cursorShape(at: assembler.location)
        let scale = surface.cursorBufferScale
        guard force || shape != cursorShape || scale != cursorScale else { return }
        cursorShape = shape
        cursorScale = scale
        guard let theme = seat.connection.cursorTheme(scale: scale), let image = theme.image(for: shape) else {
            wl_pointer_set_cursor(proxy, enterSerial, nil, 0, 0)
            seat.connection.setNeedsFlush()
            return
        }
        if cursorSurface == nil {
            cursorSurface = wl_compositor_create_surface(seat.connection.compositor)
        }
        guard let cursorSurface else { return }
        let factor = Int32(theme.scale)
        wl_surface_set_buffer_scale(cursorSurface, factor)
        wl_surface_attach(cursorSurface, image.buffer, 0, 0)
        if wl_surface_get_version(cursorSurface) >= 4 {
            wl_surface_damage_buffer(cursorSurface, 0, 0, image.width, image.height)
        } else {
            wl_surface_damage(cursorSurface, 0, 0, image.width / factor, image.height / factor)
        }
        wl_surface_commit(cursorSurface)
        wl_pointer_set_cursor(proxy, enterSerial, cursorSurface, image.hotspotX / factor, image.hotspotY / factor)
        seat.connection.setNeedsFlush()
    }

    // MARK: Listener

    private static func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> CGPoint {
        CGPoint(x: CGFloat(x) / 256, y: CGFloat(y) / 256)
    }

    private static let listener = StaticListener(
        wl_pointer_listener(
            enter: { data, _, serial, surface, x, y in
                let pointer = owner(data, as: WaylandPointer.self)
                let key = Int(bitPattern: surface)
                MainActor.assumeIsolated {
                    guard key != 0 else { return }
                    pointer.enterSerial = serial
                    pointer.enteredSurface = key
                    pointer.cursorShape = nil
                    pointer.assembler.enter(surface: key, at: point(x, y))
                    pointer.endFrameIfUngrouped()
                }
            },
            leave: { data, _, _, _ in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    pointer.enteredSurface = nil
                    pointer.assembler.leave()
                    pointer.endFrameIfUngrouped()
                }
            },
            motion: { data, _, time, x, y in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    pointer.assembler.motion(to: point(x, y), time: time)
                    pointer.endFrameIfUngrouped()
                }
            },
            button: { data, _, serial, time, button, state in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
                    if pressed { pointer.seat.latestInputSerial = serial }
                    if pressed, let surface = pointer.enteredSurface {
                        pointer.lastPress = PressRecord(surface: surface, serial: serial, order: PressRecord.nextOrder())
                    }
                    pointer.assembler.button(MouseButton(linuxCode: button), pressed: pressed, time: time)
                    pointer.endFrameIfUngrouped()
                }
            },
            axis: { data, _, time, axis, value in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    pointer.assembler.axis(
                        horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue,
                        value: CGFloat(value) / 256, time: time)
                    pointer.endFrameIfUngrouped()
                }
            },
            frame: { data, _ in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated { pointer.endFrame() }
            },
            axis_source: { data, _, source in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    let kind: ScrollSource
                    switch source {
                    case WL_POINTER_AXIS_SOURCE_WHEEL.rawValue: kind = .wheel
                    case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: kind = .finger
                    case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: kind = .continuous
                    case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: kind = .wheelTilt
                    default: kind = .unknown
                    }
                    pointer.assembler.axisSource(kind)
                }
            },
            axis_stop: { data, _, time, _ in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated { pointer.assembler.axisStop(time: time) }
            },
            axis_discrete: { data, _, axis, steps in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    pointer.assembler.axisDiscrete(
                        horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, steps: Int(steps))
                }
            },
            axis_value120: { data, _, axis, value in
                let pointer = owner(data, as: WaylandPointer.self)
                MainActor.assumeIsolated {
                    // Every fraction of a detent; the distance arrives as a smooth `axis` value too.
                    pointer.assembler.axisValue120(
                        horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, value: Int(value))
                }
            }))
}

import CWaylandClient
import DamaskViews
import Foundation

/// A seat's `wl_touch`: touch points grouped by `wl_touch.frame` (``TouchEventAssembler``)
/// and delivered to the surface each finger went down on.
///
/// Owns the `wl_touch` proxy (released in ``destroy()``, called by its seat). Main-actor.
@MainActor
public final class WaylandTouch {
    /// The touch screen's seat (which owns it).
    public unowned let seat: WaylandSeat
    /// The `wl_touch` proxy; nil after ``destroy()``.
    public private(set) var proxy: OpaquePointer?
    /// How many fingers are down.
    public var activeTouchCount: Int { assembler.activeTouchCount }

    /// The latest touch down, for interactive move and resize.
    private(set) var lastPress: PressRecord?

    private var assembler = TouchEventAssembler()

    init(seat: WaylandSeat, proxy: OpaquePointer?) {
        self.seat = seat
        self.proxy = proxy
        wl_touch_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    /// Releases the touch device, cancelling the touches in progress. Idempotent.
    func destroy() {
        if let proxy {
            if wl_touch_get_version(proxy) >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
        }
        proxy = nil
        deliver(assembler.cancel())
    }

    /// Forgets a surface that is going away.
    func forget(surfaceKey: Int) {
        assembler.forget(surface: surfaceKey)
    }

    private func deliver(_ routed: [TouchEventAssembler.Routed]) {
        for item in routed {
            seat.connection.surface(forKey: item.surface)?.deliver(.touch(item.event), from: seat)
        }
    }

    /// Before version 3 there is no frame event: every event stands alone.
    private func endFrameIfUngrouped() {
        if let proxy, wl_touch_get_version(proxy) < 3 { deliver(assembler.frame()) }
    }

    private static func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> CGPoint {
        CGPoint(x: CGFloat(x) / 256, y: CGFloat(y) / 256)
    }

    private static let listener = StaticListener(
        wl_touch_listener(
            down: { data, _, serial, time, surface, id, x, y in
                let touch = owner(data, as: WaylandTouch.self)
                let key = Int(bitPattern: surface)
                MainActor.assumeIsolated {
                    guard key != 0 else { return }
                    touch.lastPress = PressRecord(surface: key, serial: serial, order: PressRecord.nextOrder())
                    touch.assembler.down(id: id, surface: key, at: point(x, y), time: time)
                    touch.endFrameIfUngrouped()
                }
            },
            up: { data, _, _, time, id in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated {
                    touch.assembler.up(id: id, time: time)
                    touch.endFrameIfUngrouped()
                }
            },
            motion: { data, _, time, id, x, y in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated {
                    touch.assembler.motion(id: id, to: point(x, y), time: time)
                    touch.endFrameIfUngrouped()
                }
            },
            frame: { data, _ in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated { touch.deliver(touch.assembler.frame()) }
            },
            cancel: { data, _ in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated { touch.deliver(touch.assembler.cancel()) }
            },
            shape: { _, _, _, _, _ in },
            orientation: { _, _, _, _ in }))
}

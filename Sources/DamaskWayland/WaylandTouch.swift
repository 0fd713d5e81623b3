import CWaylandClient
import DamaskViews
import Foundation

/// A seat's `wl_touch`: touch points grouped by `wl_touch.frame` and delivered to the
/// surface each finger went down on.
///
/// Owns the `wl_touch` proxy (released in ``destroy()``, called by its seat). Main-actor.
@MainActor
public final class WaylandTouch {
    /// The touch screen's seat (which owns it).
    public unowned let seat: WaylandSeat
    /// The `wl_touch` proxy; nil after ``destroy()``.
    public private(set) var proxy: OpaquePointer?
    /// The touch points down now, by id, with their surface key and location.
    private var points: [Int32: (surface: Int, location: CGPoint)] = [:]
    /// Events waiting for the frame.
    private var pending: [(surface: Int, event: TouchEvent)] = []

    /// The latest touch down, for interactive move and resize.
    private(set) var lastPress: PressRecord?

    init(seat: WaylandSeat, proxy: OpaquePointer?) {
        self.seat = seat
        self.proxy = proxy
        wl_touch_add_listener(proxy, Self.listener.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Releases the touch device, cancelling the touches in progress. Idempotent.
    func destroy() {
        if let proxy {
            if wl_touch_get_version(proxy) >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
        }
        proxy = nil
        cancelAll()
    }

    /// Forgets a surface that is going away.
    func forget(surfaceKey: Int) {
        points = points.filter { $0.value.surface != surfaceKey }
        pending.removeAll { $0.surface == surfaceKey }
    }

    private func add(_ phase: TouchEvent.Phase, id: Int32, location: CGPoint? = nil, time: UInt32) {
        guard let point = points[id] else { return }
        let event = TouchEvent(phase: phase, id: id, location: location ?? point.location, timestamp: time)
        if let location { points[id]?.location = location }
        if phase == .ended { points[id] = nil }
        pending.append((point.surface, event))
        if let proxy, wl_touch_get_version(proxy) < 3 { endFrame() }
    }

    private func endFrame() {
        let events = pending
        pending.removeAll()
        for (surface, event) in events {
            seat.connection.surface(forKey: surface)?.deliver(.touch(event), from: seat)
        }
    }

    private func cancelAll() {
        pending.removeAll()
        for (id, point) in points {
            pending.append((point.surface, TouchEvent(phase: .cancelled, id: id, location: point.location)))
        }
        points.removeAll()
        endFrame()
    }

    private static let listener = StaticListener(
        wl_touch_listener(
            down: { data, _, serial, time, surface, id, x, y in
                let touch = owner(data, as: WaylandTouch.self)
                let key = Int(bitPattern: surface)
                MainActor.assumeIsolated {
                    guard key != 0 else { return }
                    let location = CGPoint(x: CGFloat(x) / 256, y: CGFloat(y) / 256)
                    touch.points[id] = (key, location)
                    touch.lastPress = PressRecord(surface: key, serial: serial, order: PressRecord.nextOrder())
                    touch.add(.began, id: id, time: time)
                }
            },
            up: { data, _, _, time, id in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated { touch.add(.ended, id: id, time: time) }
            },
            motion: { data, _, time, id, x, y in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated {
                    touch.add(.moved, id: id, location: CGPoint(x: CGFloat(x) / 256, y: CGFloat(y) / 256), time: time)
                }
            },
            frame: { data, _ in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated { touch.endFrame() }
            },
            cancel: { data, _ in
                let touch = owner(data, as: WaylandTouch.self)
                MainActor.assumeIsolated { touch.cancelAll() }
            },
            shape: { _, _, _, _, _ in },
            orientation: { _, _, _, _ in }))
}

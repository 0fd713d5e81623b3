import DamaskViews
import Foundation

/// Groups the events of one `wl_touch.frame` into view touch events, each routed to the
/// surface its finger went down on.
///
/// `wl_touch` names the surface only in `down`; motion and up carry just the touch id. The
/// assembler remembers each finger's surface and location, coalesces several motions of
/// one finger within a frame into one, and turns a cancel into a cancelled event for every
/// finger down. A plain value type, owned by a ``WaylandTouch``.
struct TouchEventAssembler {
    /// A touch event and the surface it is for.
    struct Routed: Equatable {
        /// The surface key given to ``TouchEventAssembler/down(id:surface:at:time:)``.
        var surface: Int
        /// The event.
        var event: TouchEvent
    }

    private var points: [Int32: (surface: Int, location: CGPoint)] = [:]
    private var pending: [Routed] = []

    /// How many fingers are down.
    var activeTouchCount: Int { points.count }

    /// A finger went down on `surface` at `location` (surface points).
    mutating func down(id: Int32, surface: Int, at location: CGPoint, time: UInt32) {
        points[id] = (surface, location)
        pending.append(Routed(surface: surface, event: TouchEvent(phase: .began, id: id, location: location, timestamp: time)))
    }

    /// A finger moved.
    mutating func motion(id: Int32, to location: CGPoint, time: UInt32) {
        guard let point = points[id] else { return }
        points[id]?.location = location
        let event = TouchEvent(phase: .moved, id: id, location: location, timestamp: time)
        if let last = pending.lastIndex(where: { $0.event.id == id }), pending[last].event.phase == .moved {
            pending[last].event = event
        } else {
            pending.append(Routed(surface: point.surface, event: event))
        }
    }

    /// A finger lifted.
    mutating func up(id: Int32, time: UInt32) {
        guard let point = points.removeValue(forKey: id) else { return }
        pending.append(Routed(surface: point.surface, event: TouchEvent(
            phase: .ended, id: id, location: point.location, timestamp: time)))
    }

    /// The compositor took the touch sequence away (or the device went): every finger is
    /// cancelled, and pending events of the frame are dropped.
    mutating func cancel() -> [Routed] {
        pending.removeAll()
        let cancelled = points.sorted { $0.key < $1.key }.map { id, point in
            Routed(surface: point.surface, event: TouchEvent(phase: .cancelled, id: id, location: point.location))
        }
        points.removeAll()
        return cancelled
    }

    /// Ends the frame and returns its events in order.
    mutating func frame() -> [Routed] {
        defer { pending.removeAll() }
        return pending
    }

    /// Drops everything about `surface` (it is being destroyed).
    mutating func forget(surface: Int) {
        points = points.filter { $0.value.surface != surface }
        pending.removeAll { $0.surface == surface }
    }
}

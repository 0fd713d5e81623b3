import DamaskViews
import Foundation

/// Groups the events of one `wl_pointer.frame` into view events.
///
/// `wl_pointer` reports a logical event in pieces (motion, several axis values, an
/// `axis_stop`, a button) and closes the group with `frame`. The assembler records the
/// pieces in arrival order and, on ``frame(modifiers:)``, returns the events to dispatch:
/// consecutive motions collapse into one move at the last location, all axis pieces become
/// one scroll event after the other changes, and enter and leave keep their place so that a
/// frame that moves the pointer from one surface to another leaves the old one first.
///
/// Each event is paired with the surface it belongs to (a key chosen by the caller, the
/// `wl_surface` address in practice). A plain value type, owned by a ``WaylandPointer``.
struct PointerEventAssembler {
    /// A view event and the surface it is for.
    struct Routed: Equatable {
        /// The surface key given to ``PointerEventAssembler/enter(surface:at:)``.
        var surface: Int
        /// The event.
        var event: Event
    }

    private enum Piece {
        case enter(surface: Int, CGPoint)
        case leave
        case motion(CGPoint, time: UInt32)
        case button(MouseButton, pressed: Bool, time: UInt32)
    }

    /// The surface the pointer is over (after the last complete frame), if any.
    private(set) var focus: Int?
    /// The pointer location in that surface's points (after the last complete frame).
    private(set) var location: CGPoint = .zero
    /// The buttons held down.
    private(set) var pressedButtons: [MouseButton] = []

    private var pieces: [Piece] = []
    private var scrollX: CGFloat = 0
    private var scrollY: CGFloat = 0
    private var discreteX = 0
    private var discreteY = 0
    private var steps120X = 0
    private var steps120Y = 0
    /// Whether this frame carried `axis_value120` (then `axis_discrete` is not counted twice).
    private var hasValue120 = false
    private var scrollSource = ScrollSource.unknown
    private var scrollStops = false
    private var hasScroll = false
    private var scrollTime: UInt32 = 0
    private var clicks = ClickCounter()

    /// Whether pieces are waiting for a frame.
    var hasPendingEvents: Bool { !pieces.isEmpty || hasScroll }

    // MARK: Pieces

    /// The pointer entered `surface` at `point` (surface points).
    mutating func enter(surface: Int, at point: CGPoint) {
        pieces.append(.enter(surface: surface, point))
    }

    /// The pointer left its surface.
    mutating func leave() {
        pieces.append(.leave)
    }

    /// The pointer moved to `point` (surface points).
    mutating func motion(to point: CGPoint, time: UInt32) {
        if case .motion = pieces.last { pieces.removeLast() }
        pieces.append(.motion(point, time: time))
    }

    /// A button went down or up.
    mutating func button(_ button: MouseButton, pressed: Bool, time: UInt32) {
        pieces.append(.button(button, pressed: pressed, time: time))
    }

    /// A smooth scroll amount along one axis, in surface points.
    mutating func axis(horizontal: Bool, value: CGFloat, time: UInt32) {
        if horizontal { scrollX += value } else { scrollY += value }
        hasScroll = true
        scrollTime = time
    }

    /// Wheel steps along one axis (`axis_discrete`, before `wl_pointer` version 8): also
    /// whole detents × 120 of high-resolution steps.
    mutating func axisDiscrete(horizontal: Bool, steps: Int) {
        if horizontal { discreteX += steps } else { discreteY += steps }
        if !hasValue120 {
            if horizontal { steps120X += steps * 120 } else { steps120Y += steps * 120 }
        }
        hasScroll = true
    }

    /// High-resolution wheel movement along one axis, in 120ths of a detent
    /// (`axis_value120`, version 8); a whole detent also counts as a discrete step.
    mutating func axisValue120(horizontal: Bool, value: Int) {
        hasValue120 = true
        if horizontal { steps120X += value } else { steps120Y += value }
        if value % 120 == 0 {
            if horizontal { discreteX += value / 120 } else { discreteY += value / 120 }
        }
        hasScroll = true
    }

    /// What device the frame's axis events come from (`axis_source`).
    mutating func axisSource(_ source: ScrollSource) {
        scrollSource = source
    }

    /// The end of a scroll gesture on one axis (`axis_stop`): a scroll with no distance, so
    /// that kinetic scrolling can stop.
    mutating func axisStop(time: UInt32) {
        hasScroll = true
        scrollStops = true
        scrollTime = time
    }

    // MARK: Frames

    /// Ends the group and returns its events, in dispatch order.
    mutating func frame(modifiers: ModifierFlags) -> [Routed] {
        var result: [Routed] = []
        for piece in pieces {
            switch piece {
            case .enter(let surface, let point):
                focus = surface
                location = point
                clicks.reset()
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: .entered, location: point, modifiers: modifiers))))
            case .leave:
                guard let surface = focus else { continue }
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: .exited, location: location, modifiers: modifiers))))
                focus = nil
                pressedButtons.removeAll()
                clicks.reset()
            case .motion(let point, let time):
                location = point
                guard let surface = focus else { continue }
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: .moved, location: point, modifiers: modifiers, timestamp: time))))
            case .button(let button, let pressed, let time):
                guard let surface = focus else { continue }
                var count = 0
                if pressed {
                    count = clicks.press(button, at: location, time: time)
                    pressedButtons.append(button)
                } else {
                    guard let index = pressedButtons.firstIndex(of: button) else { continue }
                    pressedButtons.remove(at: index)
                }
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: pressed ? .down : .up, location: location, button: button,
                    clickCount: count, modifiers: modifiers, timestamp: time))))
            }
        }
        pieces.removeAll()
        if hasScroll, let surface = focus {
            result.append(Routed(surface: surface, event: .scroll(ScrollEvent(
                location: location, deltaX: scrollX, deltaY: scrollY, discreteX: discreteX,
                discreteY: discreteY, steps120X: steps120X, steps120Y: steps120Y, source: scrollSource,
                endsGesture: scrollStops, modifiers: modifiers, timestamp: scrollTime))))
        }
        (scrollX, scrollY, discreteX, discreteY, hasScroll) = (0, 0, 0, 0, false)
        (steps120X, steps120Y, hasValue120, scrollSource, scrollStops) = (0, 0, false, .unknown, false)
        return result
    }

    /// Releases every held button at once, for a compositor grab (interactive move or
    /// resize) that swallows the real releases; later releases of those buttons are ignored.
    mutating func releaseAllButtons(modifiers: ModifierFlags) -> [Routed] {
        guard let surface = focus else { return [] }
        let released = pressedButtons
        pressedButtons.removeAll()
        return released.map { button in
            Routed(surface: surface, event: .pointer(PointerEvent(
                kind: .up, location: location, button: button, modifiers: modifiers)))
        }
    }

    /// Drops everything about `surface` (it is being destroyed).
    mutating func forget(surface: Int) {
        pieces.removeAll { if case .enter(surface, _) = $0 { return true } else { return false } }
        if focus == surface {
            focus = nil
            pressedButtons.removeAll()
        }
    }
}

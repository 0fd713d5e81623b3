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
    /// This frame's `axis_discrete` steps (compositors before version 8).
    private var discrete = Axes<Int>()
    /// This frame's `axis_value120` movement (version 8).
    private var value120 = Axes<Int>()
    /// Whether this frame carried `axis_value120`: then it alone counts, and an
    /// `axis_discrete` in the same frame is not counted twice.
    private var hasValue120 = false
    /// The 120ths of a detent not yet given out as a whole discrete step, carried from
    /// frame to frame (see ``axisValue120(horizontal:value:)``).
    private(set) var remainder120 = Axes<Int>()
    private var scrollSource = ScrollSource.unknown
    private var scrollStops = false
    private var hasScroll = false
    private var scrollTime: UInt32 = 0
    private var clicks = ClickCounter()

    /// A value per scroll axis.
    struct Axes<Value: Equatable & AdditiveArithmetic>: Equatable {
        var x: Value = .zero
        var y: Value = .zero

        subscript(horizontal horizontal: Bool) -> Value {
            get { horizontal ? x : y }
            set { if horizontal { x = newValue } else { y = newValue } }
        }
    }

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

    /// Wheel steps along one axis (`axis_discrete`, before `wl_pointer` version 8): whole
    /// detents, also counted as detents × 120 of high-resolution movement. Ignored in a
    /// frame that carries `axis_value120` (version 8 sends no `axis_discrete`; should a
    /// compositor send both, the high-resolution value is the precise one).
    mutating func axisDiscrete(horizontal: Bool, steps: Int) {
        discrete[horizontal: horizontal] += steps
        hasScroll = true
    }

    /// High-resolution wheel movement along one axis, in 120ths of a detent
    /// (`axis_value120`, version 8).
    ///
    /// The whole movement reaches the frame's ``ScrollEvent/steps120X``/``ScrollEvent/steps120Y``
    /// (a pixel-precise consumer scrolls by the fraction). Discrete steps are counted
    /// from a remainder carried between frames: eight events of 15 make exactly one
    /// detent, in the frame that completes it. When the wheel turns the other way the
    /// remainder starts again from zero, as wlroots does when it turns `axis_value120`
    /// into `axis_discrete` for clients before version 8: a reversal then needs a whole
    /// detent of its own instead of completing the one left over from the other
    /// direction. Leaving or entering a surface also clears it.
    mutating func axisValue120(horizontal: Bool, value: Int) {
        hasValue120 = true
        value120[horizontal: horizontal] += value
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
                remainder120 = Axes()
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: .entered, location: point, modifiers: modifiers))))
            case .leave:
                guard let surface = focus else { continue }
                result.append(Routed(surface: surface, event: .pointer(PointerEvent(
                    kind: .exited, location: location, modifiers: modifiers))))
                focus = nil
                pressedButtons.removeAll()
                clicks.reset()
                remainder120 = Axes()
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
        if hasScroll {
            let (steps, detents) = hasValue120
                ? (value120, Axes(x: detentsCompleted(horizontal: true), y: detentsCompleted(horizontal: false)))
                : (Axes(x: discrete.x * 120, y: discrete.y * 120), discrete)
            if let surface = focus {
                result.append(Routed(surface: surface, event: .scroll(ScrollEvent(
                    location: location, deltaX: scrollX, deltaY: scrollY, discreteX: detents.x,
                    discreteY: detents.y, steps120X: steps.x, steps120Y: steps.y, source: scrollSource,
                    endsGesture: scrollStops, modifiers: modifiers, timestamp: scrollTime))))
            }
        }
        (scrollX, scrollY, discrete, value120, hasScroll) = (0, 0, Axes(), Axes(), false)
        (hasValue120, scrollSource, scrollStops) = (false, .unknown, false)
        return result
    }

    /// Adds this frame's `axis_value120` movement on one axis to the carried remainder and
    /// returns the whole detents it completes (toward zero), keeping the rest. A movement
    /// against the remainder's direction drops the remainder first.
    private mutating func detentsCompleted(horizontal: Bool) -> Int {
        let value = value120[horizontal: horizontal]
        var carried = remainder120[horizontal: horizontal]
        if value == 0 { return 0 }
        if (carried > 0 && value < 0) || (carried < 0 && value > 0) { carried = 0 }
        carried += value
        let detents = carried / 120  // Swift's division truncates toward zero
        carried -= detents * 120
        assert(abs(carried) < 120, "the remainder is less than a detent")
        remainder120[horizontal: horizontal] = carried
        return detents
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
            remainder120 = Axes()
        }
    }
}

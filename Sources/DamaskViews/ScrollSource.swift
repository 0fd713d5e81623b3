/// What produced a scroll event (`wl_pointer.axis_source`).
public enum ScrollSource: Sendable, Equatable {
    /// Not reported (a compositor before `wl_pointer` version 5, or a synthetic event).
    case unknown
    /// A mouse wheel: discrete detents, high-resolution steps in ``ScrollEvent/steps120X``.
    case wheel
    /// Fingers on a touchpad: continuous distances, a ``ScrollEvent/endsGesture`` event when
    /// the fingers lift (kinetic scrolling starts from there).
    case finger
    /// A continuous device without a physical end (a trackball, button scrolling).
    case continuous
    /// A sideways tilt of a wheel.
    case wheelTilt
}

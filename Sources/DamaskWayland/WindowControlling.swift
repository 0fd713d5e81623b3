import Foundation

/// What window decorations ask of the window system: the requests a title bar and its
/// borders make, and the state they reflect.
///
/// ``WaylandSurface`` implements it with `xdg_toplevel` requests; tests use a recording
/// stand-in. Main-actor.
@MainActor
public protocol WindowControlling: AnyObject {
    /// The states of the last configure (maximized, activated, tiled…).
    var states: ToplevelState { get }
    /// Starts an interactive move for the latest press; returns whether a request was sent.
    @discardableResult func beginInteractiveMove() -> Bool
    /// Starts an interactive resize from `edge` for the latest press; returns whether a
    /// request was sent.
    @discardableResult func beginInteractiveResize(from edge: ResizeEdge) -> Bool
    /// Maximizes or restores the window.
    func setMaximized(_ maximized: Bool)
    /// Minimizes the window.
    func minimize()
    /// Asks the compositor for its window menu at `point` (surface points) for the latest
    /// press; returns whether a request was sent.
    @discardableResult func showWindowMenu(at point: CGPoint) -> Bool
}

extension WaylandSurface: WindowControlling {}

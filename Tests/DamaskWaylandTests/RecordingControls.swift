import Foundation

@testable import DamaskWayland

/// A stand-in for the window system that records what decorations ask of it.
@MainActor
final class RecordingControls: WindowControlling {
    var states: ToplevelState = []
    private(set) var requests: [String] = []

    func beginInteractiveMove() -> Bool {
        requests.append("move")
        return true
    }

    func beginInteractiveResize(from edge: ResizeEdge) -> Bool {
        requests.append("resize \(edge)")
        return true
    }

    func setMaximized(_ maximized: Bool) {
        requests.append(maximized ? "maximize" : "unmaximize")
    }

    func minimize() {
        requests.append("minimize")
    }

    func showWindowMenu(at point: CGPoint) -> Bool {
        requests.append("menu \(Int(point.x)),\(Int(point.y))")
        return true
    }
}

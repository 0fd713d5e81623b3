/// How a surface holds its delegate: a ``Window`` uncounted, any other delegate weakly.
///
/// A weak reference gives the object it points to a side table, and every retain and
/// release of that object then takes the runtime's slow path. A window is touched on every
/// frame and input event, so a surface points to it `unowned(unsafe)`, and the window sets
/// the surface's delegate to `nil` in its `deinit` (docs/performance.md, "Back-pointers,
/// not weak"). Any other delegate is held weakly, as before. Main-actor isolated, as
/// surfaces are.
@MainActor public struct SurfaceDelegateReference {
    private unowned(unsafe) var window: Window?
    private weak var other: (any SurfaceDelegate)?

    /// An empty reference.
    public init() {}

    /// The delegate: the window, else the other delegate while it lives.
    public var delegate: (any SurfaceDelegate)? {
        get { window ?? other }
        set {
            if let newWindow = newValue as? Window {
                (window, other) = (newWindow, nil)
            } else {
                (window, other) = (nil, newValue)
            }
        }
    }
}

import CWaylandClient

/// A `wl_output`: a monitor, with the integer scale the compositor asks clients to use on it.
///
/// Owns its proxy (released in `destroy()`, called by the connection). Main-actor.
@MainActor
public final class WaylandOutput {
    /// The proxy; nil after `destroy()`.
    public private(set) var proxy: OpaquePointer?
    /// The output's buffer scale (1 until the compositor says otherwise).
    public private(set) var scale: Int32 = 1
    /// The current mode's size in pixels.
    public private(set) var pixelSize: (width: Int32, height: Int32) = (0, 0)
    /// The current mode's refresh rate in millihertz (60000 for 60 Hz; 0 if the compositor
    /// did not say).
    public private(set) var refreshMillihertz: Int32 = 0

    private var pendingScale: Int32 = 1
    private let version: UInt32
    private let onChange: () -> Void

    init(proxy: OpaquePointer, version: UInt32, onChange: @escaping () -> Void) {
        self.proxy = proxy
        self.version = version
        self.onChange = onChange
        wl_output_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    /// Releases the proxy. Idempotent.
    func destroy() {
        guard let proxy else { return }
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
        self.proxy = nil
    }

    private static let listener = StaticListener(
        wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, _, flags, width, height, refresh in
                let output = owner(data, as: WaylandOutput.self)
                MainActor.assumeIsolated {
                    if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 {
                        output.pixelSize = (width, height)
                        output.refreshMillihertz = max(refresh, 0)
                    }
                }
            },
            done: { data, _ in
                let output = owner(data, as: WaylandOutput.self)
                MainActor.assumeIsolated {
                    // Clamped like every scale off the wire (WaylandSurface.scaleRange).
                    output.scale = min(max(1, output.pendingScale), Int32(WaylandSurface.scaleRange.upperBound))
                    output.onChange()
                }
            },
            scale: { data, _, factor in
                let output = owner(data, as: WaylandOutput.self)
                MainActor.assumeIsolated { output.pendingScale = factor }
            },
            name: { _, _, _ in },
            description: { _, _, _ in }))
}

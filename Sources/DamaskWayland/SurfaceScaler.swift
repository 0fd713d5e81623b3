import CWaylandClient
import CWaylandProtocols
import DamaskViews
import Foundation

/// The scale side of a ``WaylandSurface``: its `wp_viewport` and `wp_fractional_scale_v1`,
/// the outputs it entered, the scale ``ScalePolicy`` chooses from them, the refresh
/// interval of those outputs, and how buffer pixels map to surface points on the wire.
///
/// Owned by its surface, which calls ``destroy()`` in `close()` before destroying the
/// `wl_surface`; the `wl_surface` itself stays the surface's. The fractional-scale object's
/// listener data is this object (``listenerData(for:)``) and it is destroyed in
/// ``destroy()``, so libwayland never calls back into a freed scaler. Main-actor.
///
/// Invariants (asserted): both scale objects exist or neither does (a fractional scale
/// needs a viewport to be shown); without them every scale is a whole output scale of at
/// least 1, which `wl_surface.set_buffer_scale` can carry; nothing is sent after
/// ``destroy()``.
@MainActor
final class SurfaceScaler {
    /// Runs with the scale the rules choose whenever one of their inputs changed (an output
    /// entered, left or changed, a new preferred fractional scale); set once by the owner,
    /// which decides whether that is a change of its scale.
    var onScaleChange: ((CGFloat) -> Void)?
    /// The rules and their state: entered outputs, the preferred fractional scale.
    private(set) var policy = ScalePolicy()
    /// The connection whose outputs are the candidates (it outlives the surface).
    private let connection: WaylandConnection
    /// The owner's `wl_surface` (not owned here); nil after ``destroy()``.
    private var surface: OpaquePointer?
    /// `wp_viewport` and `wp_fractional_scale_v1` (owned; destroyed in ``destroy()``), when
    /// the compositor offers both globals.
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    /// What the compositor was told last: the buffer scale, or the viewport's destination.
    private var appliedBufferScale: Int32 = 1
    private var appliedViewportSize: CGSize?
    /// ``refreshInterval`` as last worked out; `nil` once an output was entered, left or
    /// changed (a mode's refresh rate arrives with the output's `done`, which reports a change).
    private var cachedRefreshInterval: Double?

    /// Creates the scale objects of `surface` when the compositor offers both
    /// `wp_viewporter` and `wp_fractional_scale_manager_v1`.
    init(connection: WaylandConnection, surface: OpaquePointer) {
        self.connection = connection
        self.surface = surface
        if let viewporter = connection.viewporter, let manager = connection.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(
                fractionalScale, Self.fractionalScaleListener.pointer, listenerData(for: self))
        }
        assert((viewport == nil) == (fractionalScale == nil), "a fractional scale without a viewport, or the reverse")
    }

    /// Whether buffers are mapped onto the surface by a `wp_viewport` (any scale) rather
    /// than by `wl_surface.set_buffer_scale` (whole scales only).
    var usesViewport: Bool { viewport != nil }

    /// The scale the rules choose now, from the connection's outputs.
    var scale: CGFloat {
        let chosen = policy.scale(outputs: connection.outputs.values.map { (key: Self.key($0.proxy), scale: $0.scale) })
        assert(
            fractionalScale != nil || (chosen >= 1 && chosen == chosen.rounded()),
            "scale \(chosen) without a viewport: set_buffer_scale carries whole scales of at least 1 only")
        return chosen
    }

    /// The refresh interval of the fastest output the surface is on (``ScalePolicy/refreshInterval(outputs:)``).
    var refreshInterval: Double {
        if let cachedRefreshInterval { return cachedRefreshInterval }
        // A loop, not `map`; cached: every commit may ask (CONTRIBUTING.md, closures on hot paths).
        var outputs: [(key: Int, millihertz: Int32)] = []
        outputs.reserveCapacity(connection.outputs.count)
        for output in connection.outputs.values {
            outputs.append((key: Self.key(output.proxy), millihertz: output.refreshMillihertz))
        }
        let interval = policy.refreshInterval(outputs: outputs)
        cachedRefreshInterval = interval
        return interval
    }

    /// The surface entered the output whose key (``key(_:)``) is `output`.
    func enter(output: Int) {
        policy.enter(output: output)
        cachedRefreshInterval = nil
        onScaleChange?(scale)
    }

    /// The surface left the output whose key (``key(_:)``) is `output`.
    func leave(output: Int) {
        policy.leave(output: output)
        cachedRefreshInterval = nil
        onScaleChange?(scale)
    }

    /// The connection's outputs changed (a new scale, an output gone): forgets entered
    /// outputs that no longer exist.
    func outputsDidChange() {
        policy.keepOutputs(Set(connection.outputs.values.map { Self.key($0.proxy) }))
        cachedRefreshInterval = nil
        onScaleChange?(scale)
    }

    /// Tells the compositor how a buffer of `size` points at `scale` maps onto the surface,
    /// before an attach: the viewport's destination, or the whole buffer scale; each sent
    /// only when it changed.
    func apply(size: CGSize, scale: CGFloat) {
        assert(surface != nil, "scale applied after the scaler was destroyed")
        guard let surface else { return }
        if let viewport {
            guard appliedViewportSize != size else { return }
            wp_viewport_set_destination(viewport, Int32(size.width), Int32(size.height))
            appliedViewportSize = size
        } else {
            let bufferScale = Int32(scale.rounded())
            assert(bufferScale >= 1 && CGFloat(bufferScale) == scale, "buffer scale for \(scale) without a viewport")
            guard bufferScale != appliedBufferScale else { return }
            wl_surface_set_buffer_scale(surface, bufferScale)
            appliedBufferScale = bufferScale
        }
    }

    /// Destroys the scale objects; nothing is sent afterwards. Idempotent.
    func destroy() {
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        (fractionalScale, viewport, surface) = (nil, nil, nil)
    }

    /// An output's key in ``ScalePolicy``: its proxy's address.
    nonisolated static func key(_ proxy: OpaquePointer?) -> Int { Int(bitPattern: proxy) }

    private static let fractionalScaleListener = StaticListener(
        wp_fractional_scale_v1_listener(preferred_scale: { data, _, value in
            let scaler = owner(data, as: SurfaceScaler.self)
            MainActor.assumeIsolated {
                // 0 is no scale at all: ScalePolicy ignores it, as if the compositor had said nothing.
                scaler.policy.setPreferredScale(wireValue: value)
                scaler.onScaleChange?(scaler.scale)
            }
        }))
}

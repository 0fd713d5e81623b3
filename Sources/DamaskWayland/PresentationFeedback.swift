import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import Foundation

/// When commits reach the screen, through `wp_presentation` feedback.
///
/// Binds its own `wp_presentation` global on the connection (so that it hears the
/// `clock_id` event, which is sent once when the global is bound) and asks for feedback
/// on the next commit of a surface with ``requestFeedback(for:handler:)``. Each handler runs
/// once, on the main queue, when the compositor reports the commit presented or discarded.
///
/// Owns its registry, its `wp_presentation` proxy and every outstanding feedback proxy, and
/// destroys them in ``close()`` (also run by `deinit`); handlers of feedback still
/// outstanding then never run. The connection must outlive it. Main-actor isolated.
@MainActor
public final class PresentationFeedback {
    /// What the compositor reported for one commit.
    public enum Outcome: Sendable, Equatable {
        /// The content was shown at `timestamp` nanoseconds of ``clockID``'s clock;
        /// `refresh` is the output's refresh period in nanoseconds (0 if unknown).
        case presented(timestamp: UInt64, refresh: UInt32, flags: UInt32)
        /// The content was never shown (replaced before a repaint, or the surface hidden).
        case discarded
    }

    /// The clock the compositor's timestamps use (e.g. `CLOCK_MONOTONIC`), `nil` until the
    /// compositor announced it.
    public private(set) var clockID: clockid_t?

    private let connection: WaylandConnection
    private var registry: OpaquePointer?
    private var presentation: OpaquePointer?
    private var pending: [Int: (proxy: OpaquePointer, handler: @MainActor (Outcome) -> Void)] = [:]

    /// Binds `wp_presentation` on `connection` and waits (blocking, two round trips) for its
    /// clock. Returns `nil` when the compositor does not offer `wp_presentation`.
    public init?(connection: WaylandConnection) {
        self.connection = connection
        guard let display = connection.display, connection.presentation != nil else { return nil }
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(
            registry, Self.registryListener.pointer, listenerData(for: self))
        for _ in 0..<2 where presentation == nil || clockID == nil {
            do { try connection.roundtrip() } catch { break }
        }
        guard presentation != nil else {
            close()
            return nil
        }
    }

    isolated deinit {
        close()
    }

    /// Whether a feedback request has not been answered yet.
    public var hasOutstandingFeedback: Bool { !pending.isEmpty }

    /// Asks for feedback on the surface's next commit; `handler` runs once with the outcome.
    ///
    /// Call it before the commit it is about: the request joins the surface's pending state.
    /// Returns `false` (and never calls `handler`) when the surface or this object is closed.
    @discardableResult
    public func requestFeedback(
        for surface: WaylandSurface, handler: @escaping @MainActor (Outcome) -> Void
    ) -> Bool {
        guard let presentation, let proxy = surface.surfaceProxy,
            let feedback = wp_presentation_feedback(presentation, proxy)
        else { return false }
        pending[Int(bitPattern: feedback)] = (feedback, handler)
        wp_presentation_feedback_add_listener(
            feedback, Self.feedbackListener.pointer, listenerData(for: self))
        connection.setNeedsFlush()
        return true
    }

    /// Destroys the outstanding feedback, the `wp_presentation` proxy and the registry.
    /// Idempotent.
    public func close() {
        for entry in pending.values { wp_presentation_feedback_destroy(entry.proxy) }
        pending.removeAll()
        if let presentation { wp_presentation_destroy(presentation) }
        if let registry { wl_registry_destroy(registry) }
        (presentation, registry) = (nil, nil)
    }

    /// Ends the feedback whose proxy address is `key` and calls its handler.
    private func finish(_ key: Int, with outcome: Outcome) {
        // Every feedback proxy is in `pending` from its request until this, its one event
        // (`close()` destroys the rest), so an event can only be for a pending one.
        guard let entry = pending.removeValue(forKey: key) else {
            assertionFailure("presentation feedback for a proxy that is not pending")
            return
        }
        wp_presentation_feedback_destroy(entry.proxy)
        entry.handler(outcome)
    }

    private static let registryListener = StaticListener(
        wl_registry_listener(
            global: { data, registry, name, interface, version in
                guard let interface, String(cString: interface) == "wp_presentation" else { return }
                let timing = owner(data, as: PresentationFeedback.self)
                // Addresses cross into the main actor as integers (raw pointers are not Sendable).
                let registryAddress = Int(bitPattern: registry)
                let dataAddress = Int(bitPattern: data)
                MainActor.assumeIsolated {
                    guard timing.presentation == nil else { return }
                    let proxy = OpaquePointer(
                        wl_registry_bind(
                            OpaquePointer(bitPattern: registryAddress), name, damask_wp_presentation_interface(), 1))
                    timing.presentation = proxy
                    wp_presentation_add_listener(
                        proxy, PresentationFeedback.presentationListener.pointer,
                        UnsafeMutableRawPointer(bitPattern: dataAddress))
                }
            },
            global_remove: { _, _, _ in }))

    private static let presentationListener = StaticListener(
        wp_presentation_listener(clock_id: { data, _, clock in
            let timing = owner(data, as: PresentationFeedback.self)
            MainActor.assumeIsolated { timing.clockID = clockid_t(clock) }
        }))

    private static let feedbackListener = StaticListener(
        wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, refresh, _, _, flags in
                let timing = owner(data, as: PresentationFeedback.self)
                let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
                let timestamp = seconds * 1_000_000_000 + UInt64(nanoseconds)
                let key = Int(bitPattern: feedback)
                MainActor.assumeIsolated {
                    timing.finish(key, with: .presented(timestamp: timestamp, refresh: refresh, flags: flags))
                }
            },
            discarded: { data, feedback in
                let timing = owner(data, as: PresentationFeedback.self)
                let key = Int(bitPattern: feedback)
                MainActor.assumeIsolated { timing.finish(key, with: .discarded) }
            }))
}

import CDamaskShims
import CWaylandClient
import DamaskViews
import Foundation

/// The frame ticks of a ``WaylandSurface``: its one outstanding frame callback, idle frames
/// on a ``MainLoop`` timer, and the compositor's frame clock as seen from `CLOCK_MONOTONIC`.
///
/// Owned by its surface, which calls ``destroy()`` in `close()` before destroying the
/// `wl_surface`. The callback's listener data is this object (``listenerData(for:)``); the
/// callback is destroyed by its `done` or by ``destroy()``, so libwayland never calls back
/// into a freed clock. Main-actor.
@MainActor
final class SurfaceFrameClock {
    /// How long an idle frame waits: one frame at 60 Hz.
    static let idleFrameInterval = Duration.microseconds(16_667)

    /// Runs for every tick with its time: a callback's, or ``timestamp`` for an idle frame
    /// (set once by the owner).
    var onFrame: ((UInt32) -> Void)?
    /// The outstanding frame callback (at most one).
    private var callback: OpaquePointer?
    /// When the outstanding callback was asked for (`CLOCK_MONOTONIC`, milliseconds), for
    /// ``pendingCallbackAge``.
    private var callbackRequestTime: UInt32 = 0
    /// The timer of an idle frame; cancelled when a frame callback answers instead.
    private var idleTimer: MainLoop.Timer?
    /// The compositor's frame clock minus `CLOCK_MONOTONIC`, in milliseconds, as the latest
    /// frame callback showed it (0 before the first). Frame callback times have no defined
    /// base: mutter stamps them with `CLOCK_MONOTONIC`, headless and nested Weston with its
    /// presentation clock, `CLOCK_MONOTONIC_RAW`, which drifts from `CLOCK_MONOTONIC` by the
    /// clock's frequency correction (242 ms after 23 hours of uptime on the test machine).
    /// ``timestamp`` adds it, so that idle frames are stamped on the same clock as the frames
    /// the compositor sends.
    private var offset: UInt32 = 0

    /// Whether a frame callback is outstanding.
    var isFramePending: Bool { callback != nil }

    /// Whether an idle frame is on its way.
    var isIdleFramePending: Bool { idleTimer != nil }

    /// How long the outstanding frame callback has waited for its answer, in milliseconds
    /// (nil when none is outstanding): what a timeout reports.
    var pendingCallbackAge: UInt32? {
        callback == nil ? nil : monotonicMilliseconds() &- callbackRequestTime
    }

    /// The time now on the compositor's frame clock, in milliseconds (wrapping):
    /// `CLOCK_MONOTONIC` shifted by the offset the latest frame callback showed (so a little
    /// behind the compositor's clock by the callback's delivery time; before the first
    /// callback, `CLOCK_MONOTONIC` itself).
    var timestamp: UInt32 { monotonicMilliseconds() &+ offset }

    /// Asks `surface` for a frame callback (sent with its next commit) unless one is
    /// outstanding; returns whether it asked.
    @discardableResult
    func requestCallback(on surface: OpaquePointer) -> Bool {
        guard callback == nil else { return false }
        callback = wl_surface_frame(surface)
        callbackRequestTime = monotonicMilliseconds()
        let added = damask_wl_callback_add_listener(callback, Self.listener.pointer, listenerData(for: self))  // no libffi
        precondition(added == 0, "a new frame callback with a listener already")
        return true
    }

    /// Asks for one tick without a commit: an outstanding frame callback answers it;
    /// otherwise a timer fires one frame interval from now (or at `notBefore` on
    /// ``timestamp``'s clock, if later). A new request replaces a pending one.
    func requestIdleFrame(notBefore target: UInt32?) {
        guard callback == nil else { return }
        idleTimer?.cancel()
        var delay = Self.idleFrameInterval
        if let target {
            let wait = Int64(Int32(bitPattern: target &- timestamp))
            if wait > 16 { delay = .milliseconds(wait) }
        }
        idleTimer = MainLoop.shared.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.idleTimer = nil
            self.onFrame?(self.timestamp)
        }
    }

    /// Destroys the outstanding callback and cancels an idle frame. Idempotent.
    func destroy() {
        idleTimer?.cancel()
        idleTimer = nil
        if let callback { wl_callback_destroy(callback) }
        callback = nil
    }

    private static let listener = StaticListener(
        wl_callback_listener(done: { data, callback, time in
            let clock = owner(data, as: SurfaceFrameClock.self)
            let key = Int(bitPattern: callback)
            wl_callback_destroy(callback)
            onMainActor(clock, (callback: key, time: time)) { clock, done in
                // One callback is outstanding at a time and destroy() destroys it, so a done
                // can only be for the one the clock holds.
                assert(Int(bitPattern: clock.callback) == done.callback, "a frame callback the surface does not hold")
                clock.callback = nil
                clock.idleTimer?.cancel()  // this callback answers an idle-frame request too
                clock.idleTimer = nil
                clock.offset = done.time &- monotonicMilliseconds()
                clock.onFrame?(done.time)
            }
        }))
}

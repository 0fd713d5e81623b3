import DamaskGraphics
import Foundation

/// The screen as the view layer sees it: hand out a buffer, present it with damage, and
/// ask for the next frame.
///
/// `WaylandSurface` (in DamaskWayland) and ``MemorySurface`` implement it. A surface does
/// not retain its ``delegate``: it keeps it in a ``SurfaceDelegateReference`` (a window
/// uncounted, cleared by the window when it is freed; another delegate weakly). All calls
/// happen on the main actor.
@MainActor public protocol Surface: AnyObject {
    /// Receives resizes, frame callbacks, buffer releases and close requests (not retained).
    var delegate: (any SurfaceDelegate)? { get set }
    /// The size in logical points.
    var size: CGSize { get }
    /// Buffer pixels per point (may be fractional).
    var scale: CGFloat { get }
    /// `size.width × scale`, rounded half away from zero.
    var pixelWidth: Int { get }
    /// `size.height × scale`, rounded half away from zero.
    var pixelHeight: Int { get }
    /// The window title shown by the compositor.
    var title: String { get set }
    /// Returns a free buffer of the current pixel size, or `nil` when none is free and the
    /// surface already has as many buffers as it allows.
    func dequeueBuffer() -> SurfaceBuffer?
    /// Shows `buffer` in one commit; `damage` (buffer pixels) is where it differs from the
    /// last frame. With `requestingFrame`, the commit also asks for a frame callback (as
    /// ``requestFrame()`` does, at most one outstanding). The buffer must be one
    /// ``dequeueBuffer()`` handed out and not busy; it stays busy until the surface
    /// releases it.
    func present(_ buffer: SurfaceBuffer, damage: Region, requestingFrame: Bool)
    /// Asks for one frame callback when there is nothing to present (at most one is
    /// outstanding): the delegate's ``SurfaceDelegate/surfaceFrameDidFire(_:timestamp:)``
    /// runs once when it is a good time to draw the next frame. A Wayland surface sends it
    /// with a commit of its own; a frame that presents asks through
    /// ``present(_:damage:requestingFrame:)`` instead.
    func requestFrame()
    /// Asks for one frame tick that costs the compositor nothing: the delegate's
    /// ``SurfaceDelegate/surfaceFrameDidFire(_:timestamp:)`` runs once, about when the
    /// next frame would be (and not before `timestamp` on ``clockTimestamp``'s clock, when
    /// given), without a commit. A window asks for it when a display link or a timer wants
    /// a later frame but nothing changed, so there is no buffer to attach a frame request
    /// to. A pending ``requestFrame()`` answers it too; a new request replaces the last.
    /// The default calls ``requestFrame()``.
    func requestIdleFrame(notBefore timestamp: UInt32?)
    /// The time now on the clock that stamps frames, in milliseconds (wrapping). The
    /// default reads `CLOCK_MONOTONIC`; a surface whose frames come from a compositor maps it
    /// onto the compositor's frame clock (which has no defined base: mutter uses
    /// `CLOCK_MONOTONIC`, headless Weston `CLOCK_MONOTONIC_RAW`).
    var clockTimestamp: UInt32 { get }
    /// The interval between refreshes of the display the surface is shown on, in
    /// milliseconds (16.67 for 60 Hz): what a ``DisplayLink`` with
    /// ``DisplayLink/preferredFramesPerSecond`` skips frames against. The default is a
    /// 60 Hz display's.
    var refreshInterval: Double { get }
    /// Whether a change after a quiet spell may be committed without a frame request (an
    /// *unpaced commit*, ``FrameScheduler``): true for a surface whose compositor shows every
    /// commit at its next refresh anyway, so that an isolated change (a typed key, a caret
    /// blink) costs one wake-up instead of two. The default is false: every commit asks for
    /// a frame callback, which tests that fire frames by hand rely on.
    var allowsUnpacedCommits: Bool { get }
    /// The clipboard or primary selection this surface's window reads and writes, or `nil`
    /// when the platform has none of that kind. The default: the process's
    /// ``MemoryPasteboard`` of that kind.
    func pasteboard(_ kind: PasteboardKind) -> (any Pasteboard)?
    /// The part of the surface known to be opaque (surface points), sent with the next
    /// ``present(_:damage:requestingFrame:)``: the compositor need not blend what lies beneath it, and a
    /// surface that is opaque everywhere may present buffers without alpha. The window sets
    /// it before every present that follows a change (``OpaqueArea``). The default ignores it.
    func setOpaqueRegion(_ region: Region)
    /// The window's first responder changed, or a ``TextInput`` responder's text, caret or
    /// content type did (``Window/textInputDidChange()``): a surface that speaks a
    /// text-input protocol tells the input method. The default ignores it.
    func textInputStateDidChange()
}

extension Surface {
    public func textInputStateDidChange() {}

    /// Presents `buffer` without asking for a frame callback.
    public func present(_ buffer: SurfaceBuffer, damage: Region) {
        present(buffer, damage: damage, requestingFrame: false)
    }

    /// Ignores the region: a surface that cannot tell its compositor has nothing to do.
    public func setOpaqueRegion(_ region: Region) {}

    /// Calls ``requestFrame()``: a surface without a cheaper clock ticks with callbacks.
    public func requestIdleFrame(notBefore timestamp: UInt32?) {
        requestFrame()
    }

    /// The process's in-memory pasteboard of `kind`.
    public func pasteboard(_ kind: PasteboardKind) -> (any Pasteboard)? {
        MemoryPasteboard.shared(kind)
    }

    /// `CLOCK_MONOTONIC` in milliseconds.
    public var clockTimestamp: UInt32 { monotonicMilliseconds() }

    /// A 60 Hz display's interval, 1000/60 ms.
    public var refreshInterval: Double { 1000.0 / 60 }

    /// No: every commit asks for a frame callback.
    public var allowsUnpacedCommits: Bool { false }

    /// Rounds `size × scale` half away from zero, as every surface must for its pixel size.
    public static func pixelLength(_ points: CGFloat, scale: CGFloat) -> Int {
        Int((points * scale).rounded(.toNearestOrAwayFromZero))
    }
}

/// `CLOCK_MONOTONIC` in milliseconds, truncated to 32 bits as frame callbacks are.
public func monotonicMilliseconds() -> UInt32 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let milliseconds = UInt64(now.tv_sec) &* 1000 &+ UInt64(now.tv_nsec / 1_000_000)
    return UInt32(truncatingIfNeeded: milliseconds)
}

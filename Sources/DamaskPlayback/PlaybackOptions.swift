import Foundation

/// How a `ScriptPlayer` plays.
public struct PlaybackOptions: Sendable {
    /// Whether wall-clock waits are honoured (`.realtime`) or skipped (`.fast`, the default).
    public var speed: PlaybackSpeed = .fast
    /// The keyboard layout at the start of a script (a script's `layout` command changes it).
    /// Must match the layout the script was parsed with.
    public var layout: KeyboardLayout = .us
    /// The application commands (their handlers run when played).
    public var registry = ScriptCommandRegistry()
    /// Where `expect image` failures write their actual and difference PNGs.
    public var artifactsDirectory: String =
        FileManager.default.temporaryDirectory.appendingPathComponent("damask-playback").path
    /// The longest a single wait (frames, idle, settling) may take in wall-clock time before
    /// playback stops with an error.
    public var timeout: Duration = .seconds(5)
    /// Whether playback stops at the first failed expectation (default) or checks them all.
    public var stopsAtFirstFailure = true
    /// Whether checks and screenshots first let the window finish pending work (up to
    /// `settleFrameLimit` frames), so `click …` then `expect …` sees the click's result.
    public var settlesBeforeChecks = true
    /// The most frames settling waits before checking anyway (an animation never settles).
    public var settleFrameLimit = 60
    /// Points of scrolling per wheel step (`ScrollEvent.deltaX/Y`).
    public var scrollPointsPerStep: CGFloat = 10
    /// Milliseconds the event clock advances per event sent (timestamps strictly increase).
    public var millisecondsPerEvent: UInt32 = 1

    /// Creates options with the defaults.
    public init() {}
}

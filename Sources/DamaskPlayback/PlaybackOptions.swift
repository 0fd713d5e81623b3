import DamaskGraphics
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
    /// Where `expect image` failures write their actual and difference PNGs; nil (the
    /// default) for a private directory made with `mkdtemp` at the first failure
    /// (`$TMPDIR/damask-playback-XXXXXX`, mode 0700), so that nobody else sharing the
    /// temporary directory can plant a link where a failure image will be written.
    public var artifactsDirectory: String?
    /// The longest one wait (`wait frames N` as a whole, `wait idle`, settling before a
    /// check, or a `wait DURATION` skipped at `.fast` speed) may take in wall-clock time
    /// before playback stops with an error. A `wait DURATION` at `.realtime` speed is the
    /// wait the script asked for and is not bounded by it.
    public var timeout: Duration = .seconds(5)
    /// Whether playback stops at the first failed expectation (default) or checks them all.
    public var stopsAtFirstFailure = true
    /// Whether checks on what was drawn (pixels, images, damage, draws) and screenshots
    /// first let the window finish pending work (up to `settleFrameLimit` frames), so
    /// `click …` then `expect …` sees the click's result. Text and pasteboard checks never
    /// settle: they look again until they hold.
    public var settlesBeforeChecks = true
    /// The most frames settling waits before checking anyway (an animation never settles).
    public var settleFrameLimit = 60
    /// Points of scrolling per wheel step (`ScrollEvent.deltaX/Y`).
    public var scrollPointsPerStep: CGFloat = 10
    /// Milliseconds the event clock advances per event sent (timestamps strictly increase).
    public var millisecondsPerEvent: UInt32 = 1

    /// Where `ime` commands go instead of the first responder: nil (the default) applies them
    /// in-process; set, each update is handed to it (for instance, written to a compositor's
    /// input method, which sends it back through the text-input protocol), and the player
    /// waits until the window has applied one more input method update
    /// (``Window/appliedInputMethodUpdateCount``), at most ``timeout``.
    public var inputMethodChannel: (@Sendable @MainActor (InputMethodUpdate) throws -> Void)?

    /// Where `ime language` and `ime direction` go instead of the first responder: nil (the
    /// default) tells the first responder in-process; set, each setting is handed to it (the
    /// input method sends it through the text-input protocol before the updates after it).
    public var inputMethodSettingChannel: (@Sendable @MainActor (InputMethodSetting) throws -> Void)?

    /// Creates options with the defaults.
    public init() {}
}

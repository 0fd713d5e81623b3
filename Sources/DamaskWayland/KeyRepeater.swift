/// Repeats a held key at the compositor's rate, from ``MainLoop`` timers.
///
/// The state machine: a press of a repeating key arms the timer for ``delay``; when it
/// fires, ``onRepeat`` runs, then again every `1 / rate` seconds until the key is released,
/// another key is pressed (which takes over), the keyboard loses focus or the keymap
/// changes (``stop()``). A rate of 0 turns repeating off (`wl_keyboard.repeat_info`).
///
/// Owns its one ``MainLoop/Timer``, made on the first press and armed again for each press
/// and repeat (not a timer and a closure allocated per typed key), cancelled on stop and in
/// `deinit`. Not a main-queue `DispatchSourceTimer`: arming and cancelling one wakes
/// libdispatch's manager thread, and every typed key arms one at its press and cancels it at
/// its release (two extra thread wake-ups per key; `damask-bench typing-peers`).
/// Main-actor.
@MainActor
final class KeyRepeater {
    /// Repeats per second; 0 disables repeat.
    private(set) var rate: Int32
    /// Milliseconds between the press and the first repeat.
    private(set) var delay: Int32
    /// Called for every repeat with the key's xkb keycode.
    var onRepeat: (UInt32) -> Void = { _ in }
    /// The key being repeated (or waiting for its first repeat), if any.
    private(set) var activeKey: UInt32?
    /// How many repeats the current key produced so far.
    private(set) var repeatCount = 0

    private var timer: MainLoop.Timer?

    /// The fastest repeat accepted, per second; faster requests are clamped to it, so that a
    /// compositor asking for `INT32_MAX` cannot turn a held key into a busy loop.
    static let maximumRate: Int32 = 200
    /// The longest delay accepted before the first repeat, in milliseconds.
    static let maximumDelay: Int32 = 10_000

    /// Creates a repeater with `rate` repeats per second after `delay` milliseconds (the
    /// defaults are what most compositors send), clamped to 0…``maximumRate`` and
    /// 0…``maximumDelay``.
    init(rate: Int32 = 25, delay: Int32 = 600) {
        self.rate = Self.clampedRate(rate)
        self.delay = Self.clampedDelay(delay)
    }

    private static func clampedRate(_ rate: Int32) -> Int32 { min(max(0, rate), maximumRate) }
    private static func clampedDelay(_ delay: Int32) -> Int32 { min(max(0, delay), maximumDelay) }

    isolated deinit {
        timer?.cancel()
    }

    /// Applies `wl_keyboard.repeat_info`. A held key keeps repeating with the new timing.
    func setRate(_ rate: Int32, delay: Int32) {
        self.rate = Self.clampedRate(rate)
        self.delay = Self.clampedDelay(delay)
        if let key = activeKey {
            if self.rate == 0 { stop() } else { start(key) }
        }
    }

    /// A key went down; `repeats` says whether the keymap lets that key repeat.
    func keyPressed(_ keycode: UInt32, repeats: Bool) {
        guard repeats, rate > 0 else {
            // A non-repeating key (a modifier) does not end the repeat of a held key.
            return
        }
        start(keycode)
    }

    /// A key went up: stops the repeat if it was the repeating key.
    func keyReleased(_ keycode: UInt32) {
        if activeKey == keycode { stop() }
    }

    /// Stops repeating (focus lost, keymap changed, keyboard gone).
    func stop() {
        timer?.cancel()
        activeKey = nil
        repeatCount = 0
    }

    private func start(_ keycode: UInt32) {
        activeKey = keycode
        repeatCount = 0
        arm(afterNanoseconds: UInt64(delay) * 1_000_000)  // a waiting repeat of another key moves; delay ≥ 0 (clampedDelay)
    }

    /// Nanoseconds, not a `Duration`: this runs at every key press (``MainLoop/arm(_:afterNanoseconds:)``).
    private func arm(afterNanoseconds delay: UInt64) {
        let timer = self.timer ?? MainLoop.shared.makeTimer { [weak self] in self?.fire() }
        self.timer = timer
        MainLoop.shared.arm(timer, afterNanoseconds: delay)
    }

    private func fire() {
        guard let keycode = activeKey, rate > 0 else { return }
        repeatCount += 1
        // Armed before the callback, so that a stop() inside it cancels the next repeat.
        arm(afterNanoseconds: 1_000_000_000 / UInt64(rate))
        onRepeat(keycode)
    }
}

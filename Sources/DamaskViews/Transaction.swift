import DamaskGraphics
import Dispatch
import Foundation

/// Groups changes so that they reach the screen in one commit, and says how the
/// property changes made in it animate (Core Animation's `CATransaction`).
///
/// Every turn of the main loop is an implicit transaction: whatever changes in it is
/// presented together by the display pass queued at the end of the turn. An explicit
/// transaction (``begin()`` … ``commit()``, nestable) holds back the display passes of the
/// windows changed while it is open, even across `await`s, until the outermost
/// ``commit()``; a window nothing touched meanwhile goes on presenting (another window's
/// animation, or a window of an unrelated task). ``flush()`` presents every window's
/// pending changes at once.
///
/// **Animation settings.** Each transaction carries an ``animationDuration()``, an
/// ``animationTimingFunction()``, ``disableActions()`` and a completion block, used by the
/// implicit animations of the changes made in it (see ``Layer/action(forKey:)``). A
/// setting applies to the innermost open transaction, and a reading finds the innermost
/// transaction that set it (so nested transactions inherit their outer ones'); outside
/// ``begin()``/``commit()`` they apply to the implicit transaction of this main-queue turn
/// and end with it. Defaults: 0.25 s, ``TimingFunction/default``, actions enabled.
/// Main-actor isolated.
@MainActor public enum Transaction {
    /// How many explicit transactions are open.
    @exclusivity(unchecked) public private(set) static var depth = 0

    /// The windows changed while the outermost transaction is open. Not counted: a window
    /// freed meanwhile takes itself out (``windowDidDeinit(_:)``), so none has a side table.
    private static var heldWindows: [UncountedWindow] = []

    /// Whether an explicit transaction is open (display passes wait for its commit).
    public static var isOpen: Bool { depth > 0 }

    /// The settings of one transaction.
    @MainActor private final class Settings {
        var duration: TimeInterval?
        var timingFunction: TimingFunction?
        var disablesActions: Bool?
        var completion: AnimationCompletionGroup?

        /// Ends the transaction: its completion block waits for its animations.
        func close() {
            completion?.close()
        }
    }

    /// The settings of the open explicit transactions, outermost first.
    private static var explicitSettings: [Settings] = []
    /// The settings of this turn's implicit transaction, once something set one.
    private static var implicitSettings: Settings?

    /// The settings a setter changes: the innermost explicit transaction's, or the
    /// implicit one's (created on first use and closed at the end of the turn).
    private static var writableSettings: Settings {
        if let innermost = explicitSettings.last { return innermost }
        if let implicit = implicitSettings { return implicit }
        let implicit = Settings()
        implicitSettings = implicit
        DispatchQueue.main.async {
            if implicitSettings === implicit { implicitSettings = nil }
            implicit.close()
        }
        return implicit
    }

    /// The innermost value of a setting, or `nil` when no open transaction set it.
    private static func setting<Value>(_ value: (Settings) -> Value?) -> Value? {
        for settings in explicitSettings.reversed() {
            if let found = value(settings) { return found }
        }
        return implicitSettings.flatMap(value)
    }

    /// The duration of the implicit animations of changes made now, in seconds.
    /// Default 0.25.
    public static func animationDuration() -> TimeInterval {
        setting(\.duration) ?? 0.25
    }

    /// Sets the duration of implicit animations for the current transaction.
    public static func setAnimationDuration(_ duration: TimeInterval) {
        writableSettings.duration = duration
    }

    /// The timing function of the implicit animations of changes made now. Default:
    /// ``TimingFunction/default``.
    public static func animationTimingFunction() -> TimingFunction {
        setting(\.timingFunction) ?? .default
    }

    /// Sets the timing function of implicit animations for the current transaction
    /// (`nil` goes back to the inherited one).
    public static func setAnimationTimingFunction(_ function: TimingFunction?) {
        writableSettings.timingFunction = function
    }

    /// Whether property changes made now run no actions (no implicit animations).
    public static func disableActions() -> Bool {
        setting(\.disablesActions) ?? false
    }

    /// Turns implicit actions off (or on) for the current transaction.
    public static func setDisableActions(_ flag: Bool) {
        writableSettings.disablesActions = flag
    }

    /// Sets the block called once every animation added from now on in the current
    /// transaction (and its nested ones) has ended or been removed — at the end of the
    /// transaction's turn when it added none. A later call in the same transaction
    /// replaces the block for the animations still to come.
    public static func setCompletionBlock(_ block: (@MainActor () -> Void)?) {
        let settings = writableSettings
        settings.completion?.close()
        guard let block else {
            settings.completion = nil
            return
        }
        let group = AnimationCompletionGroup { _ in block() }
        group.open()
        settings.completion = group
    }

    /// Opens a transaction (they nest).
    public static func begin() {
        depth += 1
        explicitSettings.append(Settings())
    }

    /// Closes the innermost transaction; closing the outermost one schedules the held
    /// changes for the next display pass.
    public static func commit() {
        guard depth > 0 else {
            StandardError.write("damask: Transaction.commit() without a matching begin(); ignored")
            return
        }
        depth -= 1
        explicitSettings.popLast()?.close()
        if depth == 0 {
            let held = heldWindows.map(\.window)
            heldWindows.removeAll()
            for window in held { window.transactionDidCommit() }
        }
    }

    /// Adds `window` to the open transaction: its passes wait for the outermost commit.
    /// Called by the window when something in it changes while a transaction is open.
    static func hold(_ window: Window) {
        guard isOpen, !isHolding(window) else { return }
        heldWindows.append(UncountedWindow(window: window))
    }

    /// Forgets `window`, which is being freed.
    static func windowDidDeinit(_ window: Window) {
        heldWindows.removeAll { $0.window === window }
    }

    /// Whether the open transaction holds back `window`'s passes.
    static func isHolding(_ window: Window) -> Bool {
        isOpen && heldWindows.contains { $0.window === window }
    }

    /// Runs `body` inside a transaction.
    public static func perform<Result>(_ body: () throws -> Result) rethrows -> Result {
        begin()
        defer { commit() }
        return try body()
    }

    /// Presents every window's pending changes now, without waiting for a frame callback.
    public static func flush() {
        for window in Window.openWindows { window.flush() }
    }
}

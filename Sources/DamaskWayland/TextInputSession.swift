import DamaskGraphics
import DamaskViews
import Foundation

/// Connects one seat's text-input protocol object (``TextInputBinding``: zwp_text_input_v3
/// or v1) with the text field that has focus, so that an input method (IBus, Fcitx) can
/// compose into it.
///
/// The rules, whichever the protocol:
/// - enabled while the seat's text-input focus (v3 `enter`; v1 the keyboard focus) is on a
///   surface whose window's first responder is a ``TextInput`` that accepts an input
///   method; disabled when that ends (blur, another responder, `leave`);
/// - what the field shows (surrounding text, caret rectangle, content type) is sent when it
///   changes: ``Window/textInputDidChange()`` reaches here through the surface, no polling.
///   Changes are coalesced: they are sent at most once per frame, right after the focused
///   surface's next commit (``surfaceDidCommit(_:)``), in the same write, or one frame
///   interval later when no commit comes (``coalescingDelay``). Typing from a script with no
///   pauses used to send the whole surrounding text (up to 4,000 bytes) per key and filled
///   the socket. After the commit, not before it: the compositor then handles the frame
///   before it dispatches (and Weston logs) the surrounding text, which put up to a
///   tenth of a millisecond between a key and its frame at the end of a long line. Enable
///   and disable (a focus or responder change) are still sent at once;
/// - an update the input method makes current (v3 `done`, v1 each event) is applied to the
///   field as one ``InputMethodUpdate``; updates that arrive while disabled are dropped;
/// - on `leave` and on disable the field's preedit is removed, and what the input method
///   said about its text (v1 `language`, `text_direction`) is forgotten
///   (``TextInput/inputMethodDidDeactivate()``): it held for that activation only (v1 gives
///   the input method a new context per activation), so the next field, or the next
///   activation on the same one, starts from no language and automatic direction.
///
/// Owned by its ``WaylandSeat``, which calls ``destroy()`` before it goes.
@MainActor
final class TextInputSession {
    unowned let seat: WaylandSeat
    private(set) var binding: (any TextInputBinding)?
    /// The surface the text-input focus is on, by `wl_surface` address (v3: `enter`; v1:
    /// the keyboard focus).
    private var focusKey: Int?
    /// The responder the input method composes into while enabled.
    private weak var target: (any TextInput)?
    /// What was sent last while enabled.
    private var sent: TextInputState?
    /// Set while an update from the input method is being applied: the changes it makes
    /// are sent afterwards, with cause `inputMethod`.
    private var isApplying = false
    /// The field's surrounding text right after the input method's latest update (nil
    /// before one): a state that still equals it is the input method's.
    private var surroundingAfterInputMethod: SurroundingText?
    /// How many updates from the input method were applied and dropped (for tests and the
    /// debug log).
    private(set) var appliedCount = 0
    private(set) var droppedCount = 0
    /// The cause of the changes not sent yet (`other` when any of them was not the input
    /// method's), nil when nothing waits.
    private var pendingCause: TextChangeCause?
    /// Sends the pending changes when no commit of the focused surface came first: made
    /// once, armed while changes wait (``MainLoop/Timer/isDone`` otherwise).
    private var pendingTimer: MainLoop.Timer?
    /// How long a change waits for the focused surface's commit before it is sent anyway
    /// (a change that redraws nothing, or a window waiting for a frame callback that is late).
    static let coalescingDelay: Duration = .milliseconds(20)
    /// ``coalescingDelay`` in nanoseconds, converted once (the timer is armed at every key).
    private static let coalescingNanoseconds = MainLoop.nanoseconds(of: coalescingDelay)

    init(seat: WaylandSeat) {
        self.seat = seat
    }

    /// Starts speaking through `binding` (the connection bound a text-input manager).
    func attach(_ binding: any TextInputBinding) {
        self.binding = binding
        refresh(cause: .other)
    }

    /// Ends the protocol object. Idempotent.
    func destroy() {
        cancelPending()
        binding?.destroy()
        binding = nil
        target?.inputMethodDidDeactivate()
        target = nil
        sent = nil
    }

    // MARK: Focus

    /// The protocol's `enter` (v3) or the keyboard's (v1, when the binding follows it).
    func focusDidEnter(surfaceKey: Int) {
        focusKey = surfaceKey
        refresh(cause: .other)
    }

    /// The protocol's `leave` (v3) or the keyboard's (v1): the focus is gone; the preedit
    /// goes with it. After a v3 `leave` the compositor ignores requests, so nothing is sent.
    func focusDidLeave(sendsDisable: Bool) {
        focusKey = nil
        cancelPending()
        endComposition()
        target?.inputMethodDidDeactivate()
        if sendsDisable, binding?.isEnabled == true { binding?.disable() }
        sent = nil
    }

    /// The seat's keyboard focus moved (to `surfaceKey`, or away when nil).
    func keyboardFocusDidChange(to surfaceKey: Int?) {
        guard binding?.followsKeyboardFocus == true else { return }
        if let surfaceKey {
            focusDidEnter(surfaceKey: surfaceKey)
        } else {
            focusDidLeave(sendsDisable: true)
        }
    }

    /// The compositor ended the activation itself (v1 `leave`: the keyboard focus moved, or
    /// another client activated a text input of its own and took the input method while
    /// this field kept the focus): the preedit goes; keys still reach the field, and its next
    /// change (a key, a click), a keyboard enter or a responder change activates again
    /// (InputMethodWestonTests pins it with a second client).
    func bindingWasDeactivated() {
        cancelPending()
        endComposition()
        target?.inputMethodDidDeactivate()
        sent = nil
    }

    // MARK: State

    /// A surface's window changed its first responder or its text field's state.
    func stateMayHaveChanged(on surface: WaylandSurface) {
        guard let key = surface.surfaceKey, key == focusKey else { return }
        refresh(cause: .other)
    }

    /// The focused surface committed (and flushed): the changes waiting are sent now, so
    /// that the input method's view of the field follows the frame showing it in the same
    /// turn.
    func surfaceDidCommit(_ surface: WaylandSurface) {
        guard pendingCause != nil, let key = surface.surfaceKey, key == focusKey else { return }
        sendPending()
    }

    /// Enables or disables at once when the focused responder changed; otherwise marks the
    /// field's state as changed, to be sent right after the focused surface's next commit.
    private func refresh(cause: TextChangeCause) {
        guard let binding, !isApplying else { return }
        // A notification that finds the text, caret and selection as last sent or as the
        // input method left them (a layout moving the caret on the surface, a focus or
        // responder check) changed nothing the input method did not make: it does not make
        // the batch's cause `other`, so no `reset` goes out for the input method's own change
        // in the same batch, and its events in flight (made with the serial before) are not
        // dropped as stale.
        var cause = cause
        if cause == .other, let surrounding = target?.surroundingText,
            surrounding == surroundingAfterInputMethod || surrounding == sent?.surrounding
        {
            cause = .inputMethod
        }
        let surface = focusedSurface
        let responder = textInputResponder(of: surface)
        if binding.isEnabled, let responder, responder === target, responder.acceptsInputMethod, surface?.surfaceProxy != nil {
            pendingCause = pendingCause == .other ? .other : cause
            if pendingTimer?.isDone ?? true {
                let timer = pendingTimer ?? MainLoop.shared.makeTimer { [weak self] in self?.sendPending() }
                pendingTimer = timer
                MainLoop.shared.arm(timer, afterNanoseconds: Self.coalescingNanoseconds)
            }
            return
        }
        // The field the input method knew is going (blur, another responder): what it
        // changed since the last batch goes first, so that the input method's last view of
        // it is its final text.
        if let pending = pendingCause, binding.isEnabled, let target, let sent {
            let state = TextInputState(of: target)
            if state != sent { binding.send(state, previous: sent, cause: pending) }
        }
        cancelPending()
        sync(cause: cause)
    }

    /// The surface the text-input focus is on, if it is still open. Plain code, not
    /// `focusKey.flatMap { … }`: asked on every key (see CONTRIBUTING.md, closures on hot
    /// paths).
    private var focusedSurface: WaylandSurface? {
        guard let focusKey else { return nil }
        return seat.connection.surface(forKey: focusKey)
    }

    /// The first responder of `surface`'s window as a ``TextInput``, nil when it is none: the
    /// field composed into (`target`) when it still is the responder, which spares a protocol
    /// conformance lookup on every key.
    private func textInputResponder(of surface: WaylandSurface?) -> (any TextInput)? {
        guard let responder = (surface?.delegate as? Window)?.firstResponder else { return nil }
        if let target, target === responder { return target }
        return responder as? any TextInput
    }

    /// Sends the changes waiting, if any.
    private func sendPending() {
        guard let cause = pendingCause else { return }
        cancelPending()
        sync(cause: cause)
    }

    /// Forgets the changes waiting (they are sent with the next enable, or not at all).
    private func cancelPending() {
        pendingCause = nil
        pendingTimer?.cancel()
    }

    /// Enables, disables or sends what changed, so that the protocol matches the focused
    /// responder.
    private func sync(cause: TextChangeCause) {
        guard let binding, !isApplying else { return }
        let surface = focusedSurface
        let responder = textInputResponder(of: surface)
        guard let surface, let proxy = surface.surfaceProxy, let responder, responder.acceptsInputMethod else {
            if binding.isEnabled {
                endComposition()
                binding.disable()
            }
            target?.inputMethodDidDeactivate()
            target = nil
            sent = nil
            return
        }
        let state = TextInputState(of: responder)
        if !binding.isEnabled || target !== responder {
            if let old = target, old !== responder {
                endComposition()  // the preedit stays with the input method, not in the old field
                if binding.isEnabled { binding.disable() }  // another field: a fresh enable, as GTK does
                old.inputMethodDidDeactivate()
            }
            target = responder
            binding.enable(on: proxy, state: state)
            sent = state
            return
        }
        if let sent, sent != state {
            binding.send(state, previous: sent, cause: cause)
            self.sent = state
        }
    }

    // MARK: Updates from the input method

    /// Applies an update the input method made current (v3 `done`, v1 `preedit_string` or
    /// `commit_string`), if the text input is enabled on a responder; else drops it.
    func apply(_ update: InputMethodUpdate) {
        guard binding?.isEnabled == true, let target else {
            droppedCount += 1
            return
        }
        isApplying = true
        target.applyInputMethodUpdate(update)
        isApplying = false
        surroundingAfterInputMethod = target.surroundingText
        appliedCount += 1
        if let focusKey, let window = seat.connection.surface(forKey: focusKey)?.delegate as? Window {
            window.inputMethodDidApplyUpdate()
        }
        refresh(cause: .inputMethod)
    }

    /// Tells the focused responder the input method's language (v1 `language`), if the
    /// text input is enabled on it.
    func languageDidChange(to language: String) {
        guard binding?.isEnabled == true, let target else { return }
        target.inputMethodDidChangeLanguage(language)
    }

    /// Tells the focused responder the input method's text direction (v1 `text_direction`),
    /// if the text input is enabled on it.
    func textDirectionDidChange(to direction: TextInputDirection) {
        guard binding?.isEnabled == true, let target else { return }
        target.inputMethodDidChangeTextDirection(direction)
    }

    /// Counts an update the binding dropped (stale, disabled or not UTF-8).
    func drop() {
        droppedCount += 1
    }

    /// Delivers a key an input method sends back (v1 `keysym`: a key it did not use) to the
    /// focused surface, as the keyboard would.
    func deliverKey(_ event: KeyEvent) {
        guard let focusKey, let surface = seat.connection.surface(forKey: focusKey) else { return }
        surface.deliver(.key(event), from: seat)
    }

    /// Removes the field's preedit, if it shows one.
    private func endComposition() {
        guard let target, target.hasMarkedText else { return }
        isApplying = true
        target.applyInputMethodUpdate(InputMethodUpdate())
        isApplying = false
    }
}

import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import DamaskViews
import Foundation

/// zwp_text_input_v3 for one seat (GNOME's mutter, wlroots, KDE).
///
/// Double-buffered both ways: requests take effect at `commit`, events at `done`. The rules
/// kept here:
/// - every `commit` is counted (``commitCount``); `done` carries the count the compositor
///   had seen. The events before a `done` are applied at it as one ``InputMethodUpdate``
///   (a `done` without `preedit_string` removes the preedit), whatever its serial, as the
///   protocol asks; the change that makes is sent back with cause `input_method`, so the
///   input method catches up with the field's state in the next commit;
/// - state (surrounding text, cursor rectangle, content type) is sent when it changes, in
///   one commit, without waiting for a `done`: a compositor with no input method (mutter
///   alone) sends none, and the state must still be current when one starts (GTK 4 and
///   Qt 6 do the same);
/// - after `leave` nothing is sent (the compositor ignores requests until the next `enter`);
/// - events while disabled are dropped at `done`; a string that is not UTF-8 is rejected.
///
/// Owns its `zwp_text_input_v3` proxy (destroyed in ``destroy()``); listener data is
/// ``listenerData(for:)`` (unretained): the owning ``TextInputSession`` destroys this before
/// it goes.
@MainActor
final class TextInputV3: TextInputBinding {
    private var proxy: OpaquePointer?
    private unowned let session: TextInputSession
    private(set) var isEnabled = false
    var followsKeyboardFocus: Bool { false }
    /// `commit` requests sent, wrapping (what `done` compares with).
    private(set) var commitCount: UInt32 = 0
    /// The serial of the latest `done` (equal to ``commitCount`` when the input method's
    /// latest update was made against the state last committed).
    private(set) var lastDoneSerial: UInt32 = 0
    /// The events since the last `done`.
    private var pending = InputMethodUpdate()
    /// Whether a string in the pending events was rejected (not UTF-8).
    private var pendingRejected = false

    init(manager: OpaquePointer, seat: OpaquePointer, session: TextInputSession) {
        self.session = session
        proxy = zwp_text_input_manager_v3_get_text_input(manager, seat)
        zwp_text_input_v3_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    func enable(on surface: OpaquePointer, state: TextInputState) {
        guard let proxy else { return }
        zwp_text_input_v3_enable(proxy)
        isEnabled = true
        sendAll(state, cause: .other)
        commit()
    }

    func send(_ state: TextInputState, previous: TextInputState, cause: TextChangeCause) {
        guard proxy != nil, isEnabled else { return }
        sendChanges(state, previous: previous, cause: cause)
        commit()
    }

    func disable() {
        guard let proxy, isEnabled else { return }
        zwp_text_input_v3_disable(proxy)
        isEnabled = false
        commit()
    }

    func destroy() {
        guard let proxy else { return }
        zwp_text_input_v3_destroy(proxy)
        self.proxy = nil
        isEnabled = false
    }

    private func commit() {
        guard let proxy else { return }
        zwp_text_input_v3_commit(proxy)
        commitCount &+= 1
        session.seat.connection.setNeedsFlush()
    }

    /// Sends `surrounding` from the string's own bytes (passed as a `String`, it is copied).
    /// Nonisolated, so that the `withCString` closure is too: an isolated closure there gets
    /// the runtime's main-actor check on every typed key (docs/performance.md, "The wake-ups
    /// of a key").
    private nonisolated static func setSurroundingText(_ surrounding: SurroundingText, on proxy: OpaquePointer) {
        surrounding.text.withCString {
            zwp_text_input_v3_set_surrounding_text(proxy, $0, Int32(surrounding.cursor), Int32(surrounding.anchor))
        }
    }

    private func sendAll(_ state: TextInputState, cause: TextChangeCause) {
        guard let proxy else { return }
        if let surrounding = state.surrounding {
            Self.setSurroundingText(surrounding, on: proxy)
            zwp_text_input_v3_set_text_change_cause(proxy, Self.wireCause(cause))
        }
        zwp_text_input_v3_set_content_type(proxy, state.contentType.wireHints, state.contentType.v3Purpose)
        if let r = state.cursorRectangle {
            zwp_text_input_v3_set_cursor_rectangle(proxy, r.x, r.y, r.width, r.height)
        }
    }

    private func sendChanges(_ state: TextInputState, previous: TextInputState, cause: TextChangeCause) {
        guard let proxy else { return }
        if state.surrounding != previous.surrounding, let surrounding = state.surrounding {
            Self.setSurroundingText(surrounding, on: proxy)
            zwp_text_input_v3_set_text_change_cause(proxy, Self.wireCause(cause))
        }
        if state.contentType != previous.contentType {
            zwp_text_input_v3_set_content_type(proxy, state.contentType.wireHints, state.contentType.v3Purpose)
        }
        if let r = state.cursorRectangle, !TextInputState.hasSameCursorRectangle(state, previous) {
            zwp_text_input_v3_set_cursor_rectangle(proxy, r.x, r.y, r.width, r.height)
        }
    }

    private static func wireCause(_ cause: TextChangeCause) -> UInt32 {
        cause == .inputMethod ? ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue : ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue
    }

    // MARK: Events

    private func done(serial: UInt32) {
        lastDoneSerial = serial
        let update = pending
        let rejected = pendingRejected
        pending = InputMethodUpdate()
        pendingRejected = false
        if !rejected { session.apply(update) }  // dropped there when disabled
    }

    private func preedit(_ text: String?, begin: Int32, end: Int32) {
        guard let text else {
            pendingRejected = true
            return
        }
        pending.preedit = text
        if begin < 0 || end < 0 {
            pending.preeditCursor = nil
        } else {
            pending.preeditCursor = Int(min(begin, end))..<Int(max(begin, end))
        }
    }

    private static let listener = StaticListener(
        zwp_text_input_v3_listener(
            enter: { data, _, surface in
                let input = owner(data, as: TextInputV3.self)
                let key = Int(bitPattern: surface)
                MainActor.assumeIsolated {
                    guard key != 0 else { return }
                    input.isEnabled = false  // an enter starts disabled (the spec's reset)
                    input.session.focusDidEnter(surfaceKey: key)
                }
            },
            leave: { data, _, _ in
                let input = owner(data, as: TextInputV3.self)
                MainActor.assumeIsolated {
                    input.session.focusDidLeave(sendsDisable: false)
                    input.isEnabled = false
                }
            },
            preedit_string: { data, _, text, begin, end in
                let input = owner(data, as: TextInputV3.self)
                let decoded = WireText.decode(text)
                MainActor.assumeIsolated { input.preedit(decoded, begin: begin, end: end) }
            },
            commit_string: { data, _, text in
                let input = owner(data, as: TextInputV3.self)
                let decoded = WireText.decode(text)
                MainActor.assumeIsolated {
                    if let decoded { input.pending.commit = decoded } else { input.pendingRejected = true }
                }
            },
            delete_surrounding_text: { data, _, before, after in
                let input = owner(data, as: TextInputV3.self)
                MainActor.assumeIsolated {
                    input.pending.deleteBefore = Int(before)
                    input.pending.deleteAfter = Int(after)
                }
            },
            done: { data, _, serial in
                let input = owner(data, as: TextInputV3.self)
                MainActor.assumeIsolated { input.done(serial: serial) }
            }))
}

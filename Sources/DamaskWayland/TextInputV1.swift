import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import DamaskViews
import Foundation

/// zwp_text_input_v1 for one seat (Weston 10, whose `[input-method]` client — IBus's
/// `ibus-wayland`, or the tests' own — composes).
///
/// v1 has no `done`: each `preedit_string` and `commit_string` is applied when it arrives;
/// `preedit_cursor` and `preedit_styling` before a `preedit_string`, and
/// `delete_surrounding_text` and `cursor_position` before a `commit_string`, are its pending
/// parts. `language` and `text_direction` are told to the field as they come. The
/// client activates on the surface that has the keyboard focus (Weston deactivates when
/// that focus moves). The rules kept here:
/// - every state change ends with `commit_state(serial)`, the serial counting up;
/// - a change the input method did not make (typing, a click, a paste) is preceded by
///   `reset`, and events carrying a serial from before the latest reset are stale and
///   dropped (the input method composed against text that has changed since);
/// - after `deactivate` or `leave` events are dropped; a string that is not UTF-8 is
///   rejected whole;
/// - `keysym` (a key the input method did not use, sent back) reaches the field as a key;
/// - a change sends only its changed parts (the cursor rectangle only when it moved). It is
///   sent whether or not an input method is bound: Weston 10 answers `activate` with
///   `enter` either way and no event tells a client that none is (its requests then go
///   nowhere), so the client cannot hold them back (TextInputTrafficTests pins both).
///
/// Owns its `zwp_text_input_v1` proxy (destroyed in ``destroy()``); listener data is
/// ``listenerData(for:)`` (unretained): the owning ``TextInputSession`` destroys this before
/// it goes.
@MainActor
final class TextInputV1: TextInputBinding {
    private var proxy: OpaquePointer?
    private let seatProxy: OpaquePointer
    private unowned let session: TextInputSession
    private(set) var isEnabled = false
    var followsKeyboardFocus: Bool { true }
    /// The serial of the latest `commit_state`.
    private(set) var serial: UInt32 = 0
    /// The serial of the `commit_state` that followed the latest `reset`.
    private var resetSerial: UInt32 = 0
    /// `preedit_cursor` for the next `preedit_string` (bytes), nil when none came.
    private var pendingPreeditCursor: Int32?
    /// `preedit_styling` for the next `preedit_string` (byte ranges of it), in order.
    private var pendingStyles: [PreeditStyleRun] = []
    /// `delete_surrounding_text` for the next `commit_string`.
    private var pendingDelete: (before: Int, after: Int) = (0, 0)
    /// `cursor_position` for the next `commit_string` (bytes from the commit's end), nil
    /// when none came.
    private var pendingCursorPosition: (index: Int, anchor: Int)?
    /// Whether an `activate` was sent whose `enter` has not come yet: a `leave` before it
    /// ends an earlier activation (deactivated and activated again within one turn), not
    /// this one.
    private var awaitingEnter = false
    /// The modifier names of `keysym`'s mask, bit by bit (the input method's `modifiers_map`).
    private var modifierNames: [String] = []

    init(manager: OpaquePointer, seat: OpaquePointer, session: TextInputSession) {
        self.session = session
        seatProxy = seat
        proxy = zwp_text_input_manager_v1_create_text_input(manager)
        zwp_text_input_v1_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    func enable(on surface: OpaquePointer, state: TextInputState) {
        guard let proxy else { return }
        zwp_text_input_v1_activate(proxy, seatProxy, surface)
        isEnabled = true
        awaitingEnter = true
        pendingPreeditCursor = nil
        pendingStyles = []
        pendingDelete = (0, 0)
        pendingCursorPosition = nil
        sendAll(state)
        commitState(afterReset: true)
    }

    func send(_ state: TextInputState, previous: TextInputState, cause: TextChangeCause) {
        guard let proxy, isEnabled else { return }
        let textChanged = state.surrounding != previous.surrounding
        if textChanged, cause == .other { zwp_text_input_v1_reset(proxy) }
        if textChanged, let surrounding = state.surrounding {
            Self.setSurroundingText(surrounding, on: proxy)
        }
        if state.contentType != previous.contentType {
            zwp_text_input_v1_set_content_type(proxy, state.contentType.wireHints, state.contentType.v1Purpose)
        }
        if let r = state.cursorRectangle, !TextInputState.hasSameCursorRectangle(state, previous) {
            zwp_text_input_v1_set_cursor_rectangle(proxy, r.x, r.y, r.width, r.height)
        }
        commitState(afterReset: textChanged && cause == .other)
    }

    func disable() {
        guard let proxy, isEnabled else { return }
        zwp_text_input_v1_deactivate(proxy, seatProxy)
        isEnabled = false
        session.seat.connection.setNeedsFlush()
    }

    func destroy() {
        guard let proxy else { return }
        zwp_text_input_v1_destroy(proxy)
        self.proxy = nil
        isEnabled = false
    }

    /// Sends `surrounding` from the string's own bytes (passed as a `String`, it is copied).
    /// Nonisolated, so that the `withCString` closure is too: an isolated closure there gets
    /// the runtime's main-actor check on every typed key (docs/performance.md, "The wake-ups
    /// of a key").
    private nonisolated static func setSurroundingText(_ surrounding: SurroundingText, on proxy: OpaquePointer) {
        surrounding.text.withCString {
            zwp_text_input_v1_set_surrounding_text(proxy, $0, UInt32(surrounding.cursor), UInt32(surrounding.anchor))
        }
    }

    private func sendAll(_ state: TextInputState) {
        guard let proxy else { return }
        if let surrounding = state.surrounding {
            Self.setSurroundingText(surrounding, on: proxy)
        }
        zwp_text_input_v1_set_content_type(proxy, state.contentType.wireHints, state.contentType.v1Purpose)
        if let r = state.cursorRectangle {
            zwp_text_input_v1_set_cursor_rectangle(proxy, r.x, r.y, r.width, r.height)
        }
    }

    private func commitState(afterReset: Bool) {
        guard let proxy else { return }
        serial &+= 1
        if afterReset { resetSerial = serial }
        zwp_text_input_v1_commit_state(proxy, serial)
        session.seat.connection.setNeedsFlush()
    }

    /// Whether an event carrying `eventSerial` was composed before the latest reset.
    private func isStale(_ eventSerial: UInt32) -> Bool {
        Int32(bitPattern: eventSerial &- resetSerial) < 0
    }

    // MARK: Events

    private func preeditString(serial eventSerial: UInt32, text: String?) {
        let cursor = pendingPreeditCursor, styles = pendingStyles
        pendingPreeditCursor = nil
        pendingStyles = []
        guard isEnabled, !isStale(eventSerial), let text else { return session.drop() }
        let end = text.utf8.count
        let range: Range<Int>? = cursor.map { $0 < 0 ? nil : min(Int($0), end)..<min(Int($0), end) } ?? end..<end
        session.apply(InputMethodUpdate(preedit: text, preeditCursor: range, preeditStyles: styles))
    }

    private func commitString(serial eventSerial: UInt32, text: String?) {
        let delete = pendingDelete, position = pendingCursorPosition
        pendingDelete = (0, 0)
        pendingCursorPosition = nil
        pendingPreeditCursor = nil
        pendingStyles = []
        guard isEnabled, !isStale(eventSerial), let text else { return session.drop() }
        session.apply(
            InputMethodUpdate(
                commit: text, deleteBefore: delete.before, deleteAfter: delete.after,
                caretAfterCommit: position?.index, anchorAfterCommit: position?.anchor))
    }

    /// `preedit_styling(index, length, style)`: `length` bytes from byte `index` of the next
    /// preedit. A style this version does not know is drawn as the default.
    private func preeditStyling(index: UInt32, length: UInt32, style: UInt32) {
        // Bounded: a hostile input method could send any number; a preedit has at most as
        // many styled pieces as bytes, and the pieces are clamped to it when applied.
        guard pendingStyles.count < 4096, length > 0 else { return }
        let lower = Int(index), upper = Int(index) + Int(length)
        pendingStyles.append(PreeditStyleRun(range: lower..<upper, style: PreeditStyle(rawValue: style) ?? .default))
    }

    private func language(serial eventSerial: UInt32, _ language: String?) {
        guard isEnabled, !isStale(eventSerial), let language else { return }
        session.languageDidChange(to: language)
    }

    private func textDirection(serial eventSerial: UInt32, _ direction: UInt32) {
        guard isEnabled, !isStale(eventSerial) else { return }
        let value: TextInputDirection
        switch direction {
        case ZWP_TEXT_INPUT_V1_TEXT_DIRECTION_LTR.rawValue: value = .leftToRight
        case ZWP_TEXT_INPUT_V1_TEXT_DIRECTION_RTL.rawValue: value = .rightToLeft
        default: value = .automatic
        }
        session.textDirectionDidChange(to: value)
    }

    /// `delete_surrounding_text(index, length)`: `index` bytes from the caret (negative:
    /// before it), `length` bytes from there.
    private func deleteSurrounding(index: Int32, length: UInt32) {
        let start = Int(index), end = Int(index) + Int(length)
        pendingDelete = (before: max(-start, 0), after: max(end, 0))
    }

    private func keysym(time: UInt32, sym: UInt32, pressed: Bool, modifiers: UInt32) {
        guard isEnabled else { return }
        // The mask's bits name the input method's modifiers_map entries (xkb names).
        var flags: ModifierFlags = []
        for (bit, name) in modifierNames.enumerated() where bit < 32 && modifiers & (1 << UInt32(bit)) != 0 {
            switch name {
            case "Shift": flags.insert(.shift)
            case "Control": flags.insert(.control)
            case "Mod1": flags.insert(.alt)
            case "Mod4": flags.insert(.logo)
            default: break
            }
        }
        let text = pressed && flags.isDisjoint(with: [.control, .alt, .logo]) ? Self.text(ofKeysym: sym) : ""
        session.deliverKey(KeyEvent(phase: pressed ? .down : .up, keysym: sym, text: text, modifiers: flags, timestamp: time))
    }

    /// The text a keysym types (Latin-1 and Unicode keysyms), else "".
    private static func text(ofKeysym sym: UInt32) -> String {
        let value: UInt32
        switch sym {
        case 0x20...0x7E, 0xA0...0xFF: value = sym
        case 0x0100_0000...0x0110_FFFF: value = sym - 0x0100_0000
        default: return ""
        }
        return Unicode.Scalar(value).map { String(Character($0)) } ?? ""
    }

    private static let listener = StaticListener(
        zwp_text_input_v1_listener(
            enter: { data, _, _ in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.awaitingEnter = false }
            },
            leave: { data, _ in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated {
                    guard input.isEnabled, !input.awaitingEnter else { return }
                    input.isEnabled = false  // Weston deactivated us (focus moved)
                    input.session.bindingWasDeactivated()
                }
            },
            modifiers_map: { data, _, map in
                let input = owner(data, as: TextInputV1.self)
                // NUL-separated names (the array is owned by libwayland for the call).
                var names: [String] = []
                if let map, let base = map.pointee.data, map.pointee.size > 0 {
                    let bytes = UnsafeRawBufferPointer(start: base, count: map.pointee.size)
                    names = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                    if names.last == "" { names.removeLast() }
                }
                MainActor.assumeIsolated { input.modifierNames = names }
            },
            input_panel_state: { _, _, _ in },
            preedit_string: { data, _, serial, text, _ in
                let input = owner(data, as: TextInputV1.self)
                let decoded = WireText.decode(text)
                MainActor.assumeIsolated { input.preeditString(serial: serial, text: decoded) }
            },
            preedit_styling: { data, _, index, length, style in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.preeditStyling(index: index, length: length, style: style) }
            },
            preedit_cursor: { data, _, index in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.pendingPreeditCursor = index }
            },
            commit_string: { data, _, serial, text in
                let input = owner(data, as: TextInputV1.self)
                let decoded = WireText.decode(text)
                MainActor.assumeIsolated { input.commitString(serial: serial, text: decoded) }
            },
            cursor_position: { data, _, index, anchor in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.pendingCursorPosition = (Int(index), Int(anchor)) }
            },
            delete_surrounding_text: { data, _, index, length in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.deleteSurrounding(index: index, length: length) }
            },
            keysym: { data, _, _, time, sym, state, modifiers in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated {
                    input.keysym(time: time, sym: sym, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue, modifiers: modifiers)
                }
            },
            language: { data, _, serial, language in
                let input = owner(data, as: TextInputV1.self)
                let decoded = WireText.decode(language)
                MainActor.assumeIsolated { input.language(serial: serial, decoded) }
            },
            text_direction: { data, _, serial, direction in
                let input = owner(data, as: TextInputV1.self)
                MainActor.assumeIsolated { input.textDirection(serial: serial, direction) }
            }))
}

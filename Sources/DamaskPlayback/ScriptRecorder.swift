import CXKBCommon
import DamaskViews
import Foundation

/// Turns a stream of input events with timestamps into a script that plays them back.
///
/// The Wayland seat (or any other event source) calls `record(_:at:)` for every event it
/// dispatches; `finish()` returns the commands. What the script keeps and drops:
/// - pauses of `minimumPause` ms or more become `wait Nms` lines;
/// - pointer motion is coalesced per frame (`frameInterval`): of the moves within one frame
///   only the last is kept;
/// - a press and release at the same spot become `click X Y [BUTTON]`, and a second one with
///   click count 2 (3) turns it into `click X Y [BUTTON] double` (`triple`); other presses become
///   `move`/`press`/`move`…/`release`;
/// - key presses that produce text with at most Shift held are gathered into `type "…"`;
///   other keys become chords (`key ctrl+s`, `key Return`); modifier keys held across pointer
///   events become `keydown`/`keyup`, and a modifier pressed and released alone `key Shift_L`;
/// - wheel steps become `scroll DX DY` (smooth scrolling: points / `scrollPointsPerStep`);
///   touches become `touch down/move/up`; focus and enter/leave events are dropped.
///
/// Not thread-safe: feed it from one thread (the main actor in practice).
public final class ScriptRecorder {
    /// The shortest pause that becomes a `wait` line, in milliseconds.
    public var minimumPause: UInt32 = 10
    /// Moves closer together than this (milliseconds) are coalesced.
    public var frameInterval: UInt32 = 16
    /// Points of smooth scrolling per wheel step.
    public var scrollPointsPerStep: CGFloat = 10

    /// The commands recorded so far (without those still being gathered).
    public private(set) var commands: [ScriptCommand] = []

    /// The time of the last event that belongs to an emitted command.
    private var lastConsumed: UInt32?
    private var emittedPointer: CGPoint?
    private var pendingMove: Span<CGPoint>?
    private var pendingPress: PendingPress?
    private var pendingText: Span<String>?
    private var heldModifiers: [HeldModifier] = []

    /// A value gathered from events between `start` and `last` (milliseconds).
    private struct Span<Value> {
        var value: Value
        var start: UInt32
        var last: UInt32
    }

    private struct PendingPress {
        var button: ScriptButton
        var location: CGPoint
        var time: UInt32
        /// When the click began: the start of a move to the same spot, or the press.
        var clickStart: UInt32
        /// The click count this press takes the previous `click` to (2 or 3), if it continues it.
        var continuesClickTo: Int?
    }

    private struct HeldModifier {
        var keysym: UInt32
        var time: UInt32
        var isEmitted = false
        var isUsed = false
    }

    /// Creates an empty recorder.
    public init() {}

    /// Records one event that happened at `timestamp` (milliseconds; may wrap around).
    public func record(_ event: Event, at timestamp: UInt32) {
        switch event {
        case .pointer(let pointer): recordPointer(pointer, at: timestamp)
        case .scroll(let scroll): recordScroll(scroll, at: timestamp)
        case .key(let key): recordKey(key, at: timestamp)
        case .touch(let touch): recordTouch(touch, at: timestamp)
        case .keyboardFocus: break
        }
    }

    /// Emits everything still being gathered and returns all commands.
    public func finish() -> [ScriptCommand] {
        flushText()
        flushPress()
        flushMove()
        return commands
    }

    /// `finish()` printed as a script.
    public func script() -> String {
        ScriptPrinter.print(finish())
    }

    // MARK: Pointer

    private func recordPointer(_ event: PointerEvent, at time: UInt32) {
        switch event.kind {
        case .entered, .moved:
            if let press = pendingPress {
                if event.location == press.location { return }
                flushPress()
            }
            if var move = pendingMove, time &- move.start < frameInterval {
                move.value = event.location
                move.last = time
                pendingMove = move
            } else {
                flushMove()
                pendingMove = Span(value: event.location, start: time, last: time)
            }
        case .exited:
            flushMove()
        case .down:
            guard let button = ScriptRecorder.scriptButton(event.button) else { return }
            flushText()
            flushPress()
            emitHeldModifiers()
            // A move to the press's spot is kept aside: the click covers it.
            if let move = pendingMove, move.value != event.location { flushMove() }
            var continuedClick: Int?
            if case .click(let point, let clicked, let count) = commands.last, event.clickCount == count + 1,
                event.clickCount <= 3, point == event.location, clicked == button
            {
                continuedClick = event.clickCount
            }
            pendingPress = PendingPress(
                button: button, location: event.location, time: time,
                clickStart: pendingMove?.start ?? time, continuesClickTo: continuedClick)
        case .up:
            guard let button = ScriptRecorder.scriptButton(event.button) else { return }
            if let press = pendingPress, press.button == button, press.location == event.location {
                pendingPress = nil
                pendingMove = nil
                emittedPointer = press.location
                if let count = press.continuesClickTo {
                    commands[commands.count - 1] = .click(press.location, button: button, count: count)
                    lastConsumed = time
                } else {
                    emit(.click(press.location, button: button, count: 1),
                        start: press.clickStart, last: time)
                }
                return
            }
            flushPress()
            emitPointerMove(to: event.location, at: time)
            emit(.release(button), start: time, last: time)
        }
    }

    private func recordScroll(_ event: ScrollEvent, at time: UInt32) {
        flushText()
        flushPress()
        emitHeldModifiers()
        if event.source == .finger {
            guard event.deltaX.isFinite, event.deltaY.isFinite else { return }
            emitPointerMove(to: event.location, at: time)
            if event.deltaX != 0 || event.deltaY != 0 {
                emit(.touchpadScroll(dx: Double(event.deltaX), dy: Double(event.deltaY)), start: time, last: time)
            }
            if event.endsGesture { emit(.touchpadEnd, start: time, last: time) }
            return
        }
        if event.steps120X % 120 != 0 || event.steps120Y % 120 != 0 {
            emitPointerMove(to: event.location, at: time)
            emit(.wheel(dx: event.steps120X, dy: event.steps120Y), start: time, last: time)
            return
        }
        var dx = event.discreteX
        var dy = event.discreteY
        if dx == 0 && dy == 0 {
            dx = Self.steps(event.deltaX / scrollPointsPerStep)
            dy = Self.steps(event.deltaY / scrollPointsPerStep)
        }
        guard dx != 0 || dy != 0 else { return }
        emitPointerMove(to: event.location, at: time)
        emit(.scroll(dx: dx, dy: dy), start: time, last: time)
    }

    private func recordTouch(_ event: TouchEvent, at time: UInt32) {
        flushText()
        flushPress()
        flushMove()
        emitHeldModifiers()
        switch event.phase {
        case .began: emit(.touchDown(id: event.id, at: event.location), start: time, last: time)
        case .moved: emit(.touchMove(id: event.id, to: event.location), start: time, last: time)
        case .ended, .cancelled: emit(.touchUp(id: event.id), start: time, last: time)
        }
    }

    /// Emits the pending press as `move` (if needed) and `press`.
    private func flushPress() {
        guard let press = pendingPress else { return }
        pendingPress = nil
        emitPointerMove(to: press.location, at: press.time)
        emit(.press(press.button), start: press.time, last: press.time)
    }

    private func flushMove() {
        guard let move = pendingMove else { return }
        pendingMove = nil
        if emittedPointer != move.value {
            emittedPointer = move.value
            emit(.move(move.value), start: move.start, last: move.last)
        }
    }

    /// Emits the pending move, then `move` to `location` unless the pointer is there.
    private func emitPointerMove(to location: CGPoint, at time: UInt32) {
        if let move = pendingMove, move.value == location {
            flushMove()
            return
        }
        flushMove()
        guard emittedPointer != location else { return }
        emittedPointer = location
        emit(.move(location), start: time, last: time)
    }

    // MARK: Keys

    private func recordKey(_ event: KeyEvent, at time: UInt32) {
        if ScriptRecorder.modifierKeysyms.contains(event.keysym) {
            recordModifierKey(event, at: time)
            return
        }
        guard event.phase == .down else {
            absorb(time)
            return
        }
        guard !event.isRepeat else { return }
        // The command starts when the first modifier it uses went down.
        let start = heldModifiers.filter { !$0.isUsed && !$0.isEmitted }.map(\.time).min() ?? time
        for index in heldModifiers.indices { heldModifiers[index].isUsed = true }
        flushPress()
        flushMove()
        let chordModifiers = event.modifiers.intersection([.control, .alt, .logo])
        let isPrintable =
            !event.text.isEmpty
            && !event.text.unicodeScalars.contains { ScriptPrinter.needsEscape($0) }
        if chordModifiers.isEmpty, isPrintable {
            if var text = pendingText, start &- text.last < minimumPause {
                text.value += event.text
                text.last = time
                pendingText = text
            } else {
                flushText()
                pendingText = Span(value: event.text, start: start, last: time)
            }
            return
        }
        flushText()
        var modifiers: [KeyModifier] = []
        if event.modifiers.contains(.control) { modifiers.append(.control) }
        if event.modifiers.contains(.alt) { modifiers.append(.alt) }
        if event.modifiers.contains(.logo) { modifiers.append(.logo) }
        if event.modifiers.contains(.shift) { modifiers.append(.shift) }
        let chord = KeyChord(modifiers: modifiers, keyName: ScriptRecorder.keysymName(event.keysym))
        emit(.key(chord), start: start, last: time)
    }

    private func recordModifierKey(_ event: KeyEvent, at time: UInt32) {
        if event.phase == .down {
            if !heldModifiers.contains(where: { $0.keysym == event.keysym }) {
                heldModifiers.append(HeldModifier(keysym: event.keysym, time: time))
            }
            return
        }
        guard let index = heldModifiers.firstIndex(where: { $0.keysym == event.keysym }) else {
            return
        }
        let held = heldModifiers.remove(at: index)
        if held.isEmitted {
            flushText()
            flushPress()
            flushMove()
            emit(.keyUp(ScriptRecorder.keysymName(event.keysym)), start: time, last: time)
        } else if held.isUsed {
            absorb(time)
        } else {
            flushText()
            flushPress()
            flushMove()
            emit(.key(KeyChord(keyName: ScriptRecorder.keysymName(event.keysym))), start: held.time, last: time)
        }
    }

    /// Counts an event (a key release) as part of the command being gathered or just emitted.
    private func absorb(_ time: UInt32) {
        if pendingText != nil {
            pendingText?.last = time
        } else if lastConsumed != nil {
            lastConsumed = time
        }
    }

    private func flushText() {
        guard let text = pendingText else { return }
        pendingText = nil
        emit(.type(text.value), start: text.start, last: text.last)
    }

    /// Modifiers held when a pointer, scroll or touch event happens are written as `keydown`.
    private func emitHeldModifiers() {
        for index in heldModifiers.indices where !heldModifiers[index].isEmitted {
            flushText()
            heldModifiers[index].isEmitted = true
            heldModifiers[index].isUsed = true
            let held = heldModifiers[index]
            emit(.keyDown(ScriptRecorder.keysymName(held.keysym)), start: held.time, last: held.time)
        }
    }

    // MARK: Output

    /// Appends `command`, preceded by `wait` if it began `minimumPause` or more after the
    /// previous command's last event. Values are clamped to what the parser accepts (a
    /// compositor can send any coordinate or scroll amount): the recording always replays.
    private func emit(_ command: ScriptCommand, start: UInt32, last: UInt32) {
        guard let command = Self.clampedToParserRanges(command) else { return }
        if let previous = lastConsumed {
            let pause = start &- previous
            if pause >= minimumPause, pause < UInt32.max / 2 {
                commands.append(.wait(.duration(milliseconds: min(Double(pause), ScriptParser.maximumWaitMilliseconds))))
            }
        }
        lastConsumed = last
        commands.append(command)
    }

    /// `command` with coordinates and scroll steps clamped to the parser's ranges; nil for
    /// one no script can express (a negative touch id).
    static func clampedToParserRanges(_ command: ScriptCommand) -> ScriptCommand? {
        func clamp(_ point: CGPoint) -> CGPoint {
            let range = ScriptParser.coordinateRange
            func value(_ v: CGFloat) -> CGFloat {
                v.isNaN ? 0 : min(max(Double(v), range.lowerBound), range.upperBound)
            }
            return CGPoint(x: value(point.x), y: value(point.y))
        }
        func clamp(_ steps: Int) -> Int {
            min(max(steps, ScriptParser.scrollStepRange.lowerBound), ScriptParser.scrollStepRange.upperBound)
        }
        switch command {
        case .move(let point): return .move(clamp(point))
        case .scroll(let dx, let dy): return .scroll(dx: clamp(dx), dy: clamp(dy))
        case .wheel(let dx, let dy):
            let range = ScriptParser.wheelStepRange
            return .wheel(
                dx: min(max(dx, range.lowerBound), range.upperBound), dy: min(max(dy, range.lowerBound), range.upperBound))
        case .touchpadScroll(let dx, let dy):
            let range = ScriptParser.coordinateRange
            return .touchpadScroll(dx: min(max(dx, range.lowerBound), range.upperBound), dy: min(max(dy, range.lowerBound), range.upperBound))
        case .touchDown(let id, let point): return id < 0 ? nil : .touchDown(id: id, at: clamp(point))
        case .touchMove(let id, let point): return id < 0 ? nil : .touchMove(id: id, to: clamp(point))
        case .touchUp(let id): return id < 0 ? nil : .touchUp(id: id)
        default: return command
        }
    }

    /// Wheel steps for a smooth-scroll amount, within the parser's range (never a trap on
    /// an infinite or NaN amount).
    static func steps(_ amount: CGFloat) -> Int {
        guard amount.isFinite else { return 0 }
        let range = ScriptParser.scrollStepRange
        return Int(min(max(amount.rounded(), CGFloat(range.lowerBound)), CGFloat(range.upperBound)))
    }

    /// Shift, Control, Alt, Super, AltGr (ISO_Level3_Shift) and ISO_Level5_Shift, left and right.
    static let modifierKeysyms: Set<UInt32> = [
        0xFFE1, 0xFFE2, 0xFFE3, 0xFFE4, 0xFFE9, 0xFFEA, 0xFFEB, 0xFFEC, 0xFE03, 0xFE11,
    ]

    /// The XKB name of `keysym` (`Return`, `a`, `udiaeresis`), or its `0x…` form.
    static func keysymName(_ keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        guard length > 0 else { return String(format: "0x%08x", keysym) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func scriptButton(_ button: MouseButton?) -> ScriptButton? {
        switch button {
        case .left: .left
        case .right: .right
        case .middle: .middle
        default: nil
        }
    }
}

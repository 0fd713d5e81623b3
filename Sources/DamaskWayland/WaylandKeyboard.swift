import CDamaskShims
import CWaylandClient
import DamaskGraphics
import DamaskViews
import Foundation

/// A seat's `wl_keyboard`: the compositor's keymap compiled with xkbcommon, modifiers, key
/// events with their text, key repeat, and keyboard focus.
///
/// The keymap arrives as a file descriptor, mapped read-only and private, its text copied
/// and the file unmapped and closed at once; the text is compiled into an ``XKBKeyboard``
/// when a focus, key or modifier event first needs it (not before the window's first
/// frame). A keymap change or focus loss stops
/// key repeat. Key events go to the focused surface, whose window hands them to its first
/// responder.
///
/// Owns the `wl_keyboard` proxy (released in ``destroy()``, called by its seat), the xkb
/// objects and the repeat timer. Main-actor.
@MainActor
public final class WaylandKeyboard {
    /// The keyboard's seat (which owns the keyboard).
    public unowned let seat: WaylandSeat
    /// The `wl_keyboard` proxy; nil after ``destroy()``.
    public private(set) var proxy: OpaquePointer?
    /// The modifiers in effect.
    public var modifiers: ModifierFlags { xkb?.modifiers ?? [] }
    /// Repeats per second and delay (ms) from `wl_keyboard.repeat_info`.
    public var repeatRate: (rate: Int32, delay: Int32) { (repeater.rate, repeater.delay) }
    /// How many keymaps the compositor sent so far.
    public private(set) var keymapCount = 0

    /// The keymap text the compositor sent and nobody has needed yet. It is compiled when a
    /// focus, key or modifier event first asks for ``xkb``: compiling (and loading the compose
    /// table) takes milliseconds, and the compositor sends the keymap while the window is
    /// still making its first frame.
    private var pendingKeymapText: String?
    /// The compiled keymap and its state; nil before a keymap compiled or after one failed.
    private var compiledXKB: XKBKeyboard?
    /// The keyboard's xkb state, compiling the pending keymap first if there is one.
    private var xkb: XKBKeyboard? {
        if let text = pendingKeymapText {
            pendingKeymapText = nil
            do {
                compiledXKB = try XKBKeyboard(keymapText: text)
            } catch {
                // Keys typed under an unknown keymap would mean something else: ignore them.
                StandardError.write("damask: the compositor's keymap does not compile; the keyboard is ignored\n")
            }
        }
        return compiledXKB
    }
    private let repeater = KeyRepeater()
    private var focus: Int?
    /// The keys held down (the ones held on `enter` included): the ones that repeat.
    private var pressedKeys = HeldKeys()
    /// The keys whose press went to the focused surface and whose release has not: on
    /// `leave` each gets its release there, so no view believes a key still held.
    private var deliveredKeys = HeldKeys()
    /// The time of the last key event; repeats carry it (the protocol gives them none).
    private var lastKeyTime: UInt32 = 0

    init(seat: WaylandSeat, proxy: OpaquePointer?) {
        self.seat = seat
        self.proxy = proxy
        repeater.onRepeat = { [unowned self] keycode in self.repeatKey(keycode) }
        // Called without libffi: every typed key comes through it (CDamaskShims.h).
        let added = damask_wl_keyboard_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
        precondition(added == 0, "a wl_keyboard with a listener already")
    }

    /// Releases the keyboard, stops repeating and takes focus away. Idempotent.
    func destroy() {
        repeater.stop()
        if let proxy {
            if wl_keyboard_get_version(proxy) >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
        }
        proxy = nil
        loseFocus()
    }

    /// Forgets a surface that is going away.
    func forget(surfaceKey: Int) {
        if focus == surfaceKey {
            focus = nil
            repeater.stop()
            pressedKeys.removeAll()
            deliveredKeys.removeAll()
        }
    }

    // MARK: Events

    private func setKeymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        keymapCount += 1
        repeater.stop()
        compiledXKB = nil
        do {
            pendingKeymapText = try Self.readKeymap(format: format, fd: fd, size: size)
        } catch {
            // Keys typed under an unknown keymap would mean something else: ignore them.
            pendingKeymapText = nil
            StandardError.write("damask: \(error.message); the keyboard is ignored\n")
        }
    }

    /// The largest keymap accepted from the compositor, in bytes. Real keymaps are tens of
    /// kilobytes; xkbcommon would spend seconds (and gigabytes) on a hostile one.
    nonisolated static let maximumKeymapSize = 16 << 20

    /// Why a keymap from the compositor cannot be used, worded for the log.
    struct KeymapProblem: Error, Equatable {
        var message: String
    }

    /// Compiles the keymap the compositor sent in `fd` (`size` bytes including the final
    /// NUL, in `format`), as ``readKeymap(format:fd:size:)`` reads it; the caller keeps
    /// ownership of `fd` and closes it.
    ///
    /// - Throws: ``KeymapProblem`` for an unknown format, a file that cannot be mapped or
    ///   is shorter than `size`, or text xkbcommon does not compile.
    nonisolated static func compileKeymap(format: UInt32, fd: Int32, size: UInt32) throws(KeymapProblem) -> XKBKeyboard {
        let text = try readKeymap(format: format, fd: fd, size: size)
        do {
            return try XKBKeyboard(keymapText: text)
        } catch {
            throw KeymapProblem(message: "the compositor's keymap does not compile")
        }
    }

    /// The text of the keymap the compositor sent in `fd` (`size` bytes including the final
    /// NUL, in `format`). Maps the file read-only and private and unmaps it before
    /// returning; the caller keeps ownership of `fd` and closes it.
    ///
    /// - Throws: ``KeymapProblem`` for an unknown format, or a file that cannot be mapped or
    ///   is shorter than `size`.
    nonisolated static func readKeymap(format: UInt32, fd: Int32, size: UInt32) throws(KeymapProblem) -> String {
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            if format == WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue {
                throw KeymapProblem(message: "the compositor sends no keymap")
            }
            throw KeymapProblem(message: "the compositor's keymap has an unknown format (\(format))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw KeymapProblem(message: "cannot read the keymap: \(String(cString: strerror(errno)))")
        }
        guard size > 1 else { throw KeymapProblem(message: "the compositor's keymap is empty") }
        guard Int(size) <= maximumKeymapSize else {
            throw KeymapProblem(
                message: "the compositor's keymap is \(size) bytes, more than the limit of \(maximumKeymapSize) bytes (16 MiB)")
        }
        // Reading past the end of a mapped file raises SIGBUS: trust the file, not `size`.
        guard Int(size) <= Int(status.st_size) else {
            throw KeymapProblem(message: "the keymap is \(size) bytes but its file has \(status.st_size)")
        }
        guard let mapping = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), mapping != MAP_FAILED else {
            throw KeymapProblem(message: "cannot map the keymap: \(String(cString: strerror(errno)))")
        }
        defer { munmap(mapping, Int(size)) }
        // The text is NUL-terminated within `size` bytes.
        // strnlen, not a Swift per-byte closure: a keymap can be megabytes long.
        let length = strnlen(mapping.assumingMemoryBound(to: CChar.self), Int(size))
        return String(decoding: UnsafeRawBufferPointer(start: mapping, count: length), as: UTF8.self)
    }

    /// The xkb keycode of an evdev key code from the wire (xkb numbers keys from evdev + 8),
    /// or nil for a code so large that it has no xkb keycode.
    nonisolated static func xkbKeycode(evdev code: UInt32) -> UInt32? {
        let (keycode, overflow) = code.addingReportingOverflow(8)
        return overflow ? nil : keycode
    }

    private func enter(surface key: Int, keys: [UInt32]) {
        focus = key
        pressedKeys = HeldKeys(keys.compactMap(Self.xkbKeycode(evdev:)))
        send(.keyboardFocus(true))
        seat.textInput.keyboardFocusDidChange(to: key)
    }

    private func loseFocus() {
        repeater.stop()
        xkb?.resetCompose()
        pressedKeys.removeAll()
        if let xkb {
            for keycode in deliveredKeys.keycodes.sorted() {
                send(.key(KeyEvent(
                    phase: .up, keysym: xkb.translate(keycode).keysym, keycode: keycode, modifiers: xkb.modifiers,
                    timestamp: lastKeyTime, shortcutKeysym: xkb.shortcutKeysym(keycode))))
            }
        }
        deliveredKeys.removeAll()
        let hadFocus = focus != nil
        if hadFocus { send(.keyboardFocus(false)) }
        focus = nil
        if hadFocus { seat.textInput.keyboardFocusDidChange(to: nil) }
    }

    private func key(_ evdevCode: UInt32, pressed: Bool, time: UInt32) {
        // A code off the end of the keycode range names no key: drop it.
        guard let xkb, let keycode = Self.xkbKeycode(evdev: evdevCode), xkb.knows(keycode) else { return }
        // A release types nothing: its keysym, not its text (no UTF-8 and String per release).
        let translation = pressed ? xkb.press(keycode) : XKBKeyboard.Translation(keysym: xkb.keysym(keycode), text: "")
        let shortcut = xkb.shortcutKeysym(keycode)
        if pressed {
            pressedKeys.insert(keycode)
            deliveredKeys.insert(keycode)
            repeater.keyPressed(keycode, repeats: xkb.repeats(keycode))
        } else {
            pressedKeys.remove(keycode)
            deliveredKeys.remove(keycode)
            repeater.keyReleased(keycode)
        }
        lastKeyTime = time
        send(.key(KeyEvent(
            phase: pressed ? .down : .up, keysym: translation.keysym, keycode: keycode,
            text: translation.text, modifiers: xkb.modifiers, timestamp: time,
            shortcutKeysym: shortcut)))
    }

    private func repeatKey(_ keycode: UInt32) {
        guard let xkb, pressedKeys.contains(keycode) else { return repeater.stop() }
        let translation = xkb.translate(keycode)
        send(.key(KeyEvent(
            phase: .down, keysym: translation.keysym, keycode: keycode, text: translation.text,
            modifiers: xkb.modifiers, isRepeat: true, timestamp: lastKeyTime, shortcutKeysym: xkb.shortcutKeysym(keycode))))
    }

    private func send(_ event: Event) {
        guard let focus else { return }
        seat.connection.surface(forKey: focus)?.deliver(event, from: seat)
        // A key may change what is under a still pointer (a scene switch replaces a text
        // field): the cursor follows, as it does after pointer events.
        if case .key = event { seat.pointer?.refreshCursor() }
    }

    // MARK: Listener

    private static let listener = StaticListener(
        wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                let keyboard = owner(data, as: WaylandKeyboard.self)
                MainActor.assumeIsolated { keyboard.setKeymap(format: format, fd: fd, size: size) }
            },
            enter: { data, _, serial, surface, keys in
                let keyboard = owner(data, as: WaylandKeyboard.self)
                MainActor.assumeIsolated { keyboard.seat.latestInputSerial = serial }
                let key = Int(bitPattern: surface)
                var pressed: [UInt32] = []
                if let keys, let base = keys.pointee.data {
                    // A wl_array of uint32 keycodes: its size is a whole number of them.
                    assert(keys.pointee.size % MemoryLayout<UInt32>.size == 0, "a keys array of \(keys.pointee.size) bytes")
                    let count = keys.pointee.size / MemoryLayout<UInt32>.size
                    pressed = Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: count))
                }
                MainActor.assumeIsolated {
                    guard key != 0 else { return }
                    keyboard.enter(surface: key, keys: pressed)
                }
            },
            leave: { data, _, _, _ in
                let keyboard = owner(data, as: WaylandKeyboard.self)
                MainActor.assumeIsolated { keyboard.loseFocus() }
            },
            key: { data, _, serial, time, key, state in
                let event = (serial: serial, time: time, code: key, state: state)
                onMainActor(owner(data, as: WaylandKeyboard.self), event) { keyboard, event in
                    let pressed = event.state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
                    if pressed { keyboard.seat.latestInputSerial = event.serial }
                    keyboard.key(event.code, pressed: pressed, time: event.time)
                }
            },
            modifiers: { data, _, _, depressed, latched, locked, group in
                let keyboard = owner(data, as: WaylandKeyboard.self)
                MainActor.assumeIsolated {
                    keyboard.xkb?.updateModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
                }
            },
            repeat_info: { data, _, rate, delay in
                let keyboard = owner(data, as: WaylandKeyboard.self)
                MainActor.assumeIsolated { keyboard.repeater.setRate(rate, delay: delay) }
            }))
}

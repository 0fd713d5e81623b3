import CWaylandClient
import DamaskViews
import Foundation

/// A `wl_seat`: one user's pointer, keyboard and touch screen, whose devices may appear and
/// disappear while the program runs.
///
/// Created by ``WaylandConnection`` for every seat global. Owns its ``pointer``,
/// ``keyboard`` and ``touch`` (created when the capability appears, released when it goes);
/// the connection owns the `wl_seat` proxy itself and releases it after ``destroy()``.
/// Main-actor: all listeners run on the main queue.
@MainActor
public final class WaylandSeat {
    /// The seat's registry name.
    public let registryName: UInt32
    /// The `wl_seat` proxy (owned by the connection).
    public let proxy: OpaquePointer
    /// The bound protocol version.
    public let version: UInt32
    /// The seat's name ("default", "seat0"), once the compositor sent it.
    public private(set) var name = ""
    /// The devices the seat has now.
    public private(set) var capabilities: SeatCapabilities = []
    /// The pointer, while the seat has one.
    @exclusivity(unchecked) public private(set) var pointer: WaylandPointer?
    /// The keyboard, while the seat has one.
    public private(set) var keyboard: WaylandKeyboard?
    /// The touch screen, while the seat has one.
    public private(set) var touch: WaylandTouch?
    /// The seat's clipboard, once the compositor's `wl_data_device_manager` is bound.
    public private(set) var clipboard: WaylandSelection?
    /// The seat's primary selection, where the compositor offers one.
    public private(set) var primarySelection: WaylandSelection?
    /// The seat's text input (zwp_text_input_v3 or v1), where the compositor offers one:
    /// how an input method composes into the focused text field.
    private(set) lazy var textInput = TextInputSession(seat: self)
    /// The serial of the latest key press, button press or keyboard enter on this seat:
    /// what setting a selection must carry.
    public internal(set) var latestInputSerial: UInt32 = 0
    /// Called after the capabilities changed (devices appeared or disappeared).
    public var onCapabilitiesChanged: ((WaylandSeat) -> Void)?

    unowned let connection: WaylandConnection

    init(connection: WaylandConnection, registryName: UInt32, proxy: OpaquePointer, version: UInt32) {
        self.connection = connection
        self.registryName = registryName
        self.proxy = proxy
        self.version = version
        wl_seat_add_listener(proxy, Self.listener.pointer, listenerData(for: self))
    }

    /// Releases the devices (the seat went away or the connection closes). Idempotent.
    func destroy() {
        textInput.destroy()
        clipboard?.destroy()
        primarySelection?.destroy()
        (clipboard, primarySelection) = (nil, nil)
        setCapabilities([])
    }

    /// Creates the clipboard and primary selection devices whose managers are bound and
    /// that do not exist yet (managers and seats may be announced in any order).
    func attachSelections() {
        if clipboard == nil { clipboard = WaylandSelection(kind: .clipboard, seat: self) }
        if primarySelection == nil { primarySelection = WaylandSelection(kind: .primarySelection, seat: self) }
    }

    /// Creates the text-input object once a text-input manager is bound (v3 preferred over
    /// v1; managers and seats may be announced in any order).
    func attachTextInput() {
        guard textInput.binding == nil else { return }
        if let manager = connection.textInputManagerV3 {
            textInput.attach(TextInputV3(manager: manager, seat: proxy, session: textInput))
        } else if let manager = connection.textInputManagerV1 {
            textInput.attach(TextInputV1(manager: manager, seat: proxy, session: textInput))
        }
    }

    /// The selection of `kind`, if the compositor offers it.
    public func selection(_ kind: PasteboardKind) -> WaylandSelection? {
        kind == .clipboard ? clipboard : primarySelection
    }

    /// The latest press (button or touch) on `surface` through this seat: the serial that
    /// interactive move and resize requests must carry.
    func latestPressSerial(on surface: WaylandSurface) -> UInt32? {
        let key = Int(bitPattern: surface.surfaceProxy)
        let candidates = [pointer?.lastPress, touch?.lastPress].compactMap { $0 }.filter { $0.surface == key }
        return candidates.max { $0.order < $1.order }?.serial
    }

    private func setCapabilities(_ new: SeatCapabilities) {
        if new.contains(.pointer), pointer == nil {
            pointer = WaylandPointer(seat: self, proxy: wl_seat_get_pointer(proxy))
        } else if !new.contains(.pointer), let old = pointer {
            old.destroy()
            pointer = nil
        }
        if new.contains(.keyboard), keyboard == nil {
            keyboard = WaylandKeyboard(seat: self, proxy: wl_seat_get_keyboard(proxy))
        } else if !new.contains(.keyboard), let old = keyboard {
            old.destroy()
            keyboard = nil
        }
        if new.contains(.touch), touch == nil {
            touch = WaylandTouch(seat: self, proxy: wl_seat_get_touch(proxy))
        } else if !new.contains(.touch), let old = touch {
            old.destroy()
            touch = nil
        }
        let changed = new != capabilities
        capabilities = new
        if changed { onCapabilitiesChanged?(self) }
        connection.setNeedsFlush()
    }

    private static let listener = StaticListener(
        wl_seat_listener(
            capabilities: { data, _, bits in
                let seat = owner(data, as: WaylandSeat.self)
                MainActor.assumeIsolated { seat.setCapabilities(SeatCapabilities(rawValue: bits)) }
            },
            name: { data, _, name in
                let seat = owner(data, as: WaylandSeat.self)
                let text = name.map { String(cString: $0) } ?? ""
                MainActor.assumeIsolated { seat.name = text }
            }))
}

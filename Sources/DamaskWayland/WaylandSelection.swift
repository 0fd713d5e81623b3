import CWaylandClient
import CWaylandProtocols
import DamaskViews
import Dispatch
import Foundation

/// One seat's clipboard (`wl_data_device`) or primary selection
/// (`zwp_primary_selection_device_v1`), as a ``Pasteboard``.
///
/// Copying creates a data source offering the text as `text/plain;charset=utf-8`,
/// `UTF8_STRING`, `text/plain`, `TEXT` and `STRING`, and sets it as the selection with the
/// serial of the seat's latest input event; the compositor then asks for the text through
/// a pipe whenever another client pastes. Pasting reads the current selection offer in the
/// best text type it has, through a pipe read on a background queue (at most
/// ``maximumPasteSize`` bytes, giving up after ``pasteTimeout`` seconds without data).
/// While this seat owns the selection, pasting answers from memory.
///
/// Owns its device, its source and every offer proxy (destroyed when replaced and in
/// ``destroy()``); a pipe's descriptors are owned by the queue block that writes or reads
/// them and closed by it. The seat owns this object. Main-actor: listeners run on the main
/// queue.
@MainActor
public final class WaylandSelection: Pasteboard {
    /// Which selection this is.
    public let kind: PasteboardKind
    /// The largest paste read, in bytes.
    nonisolated public static let maximumPasteSize = 16 << 20
    /// How long a paste waits for the owner to send more data.
    nonisolated public static let pasteTimeout: Int32 = 3

    /// Types offered when copying, best first; also the order in which a paste picks one.
    nonisolated static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    /// The `wl_data_device_manager` version that added `wl_data_device.release`. Every other
    /// request sent here exists from version 1 of its interface (the primary-selection
    /// protocol has only version 1), so this is the only version guard needed.
    nonisolated static let dataDeviceReleaseVersion: UInt32 = 2

    private unowned let seat: WaylandSeat
    private var device: OpaquePointer?
    /// Offers announced by `data_offer`, with the types each has, by proxy address.
    private var offers: [Int: (proxy: OpaquePointer, types: [String])] = [:]
    /// The offer that is the current selection (a key of ``offers``), if any.
    private var selectionOffer: Int?
    /// A drag-and-drop offer being shown (never accepted; destroyed on leave or drop).
    private var dragOffer: Int?
    /// This client's source while it owns the selection, and the text it offers.
    private var source: OpaquePointer?
    private var ownedText: String?

    /// Creates the seat's device of `kind` through the connection's manager; nil when the
    /// compositor offers no manager of that kind.
    init?(kind: PasteboardKind, seat: WaylandSeat) {
        self.kind = kind
        self.seat = seat
        let data = listenerData(for: self)
        switch kind {
        case .clipboard:
            guard let manager = seat.connection.dataDeviceManager,
                let device = wl_data_device_manager_get_data_device(manager, seat.proxy)
            else { return nil }
            self.device = device
            wl_data_device_add_listener(device, Self.dataDeviceListener.pointer, data)
        case .primarySelection:
            guard let manager = seat.connection.primarySelectionManager,
                let device = zwp_primary_selection_device_manager_v1_get_device(manager, seat.proxy)
            else { return nil }
            self.device = device
            zwp_primary_selection_device_v1_add_listener(device, Self.primaryDeviceListener.pointer, data)
        }
        seat.connection.setNeedsFlush()
    }

    /// Whether this client owns the selection now.
    public var ownsSelection: Bool { source != nil }

    // MARK: Pasteboard

    public func setString(_ text: String) {
        guard let device else { return }
        destroySource()
        let data = listenerData(for: self)
        switch kind {
        case .clipboard:
            guard let manager = seat.connection.dataDeviceManager,
                let new = wl_data_device_manager_create_data_source(manager)
            else { return }
            wl_data_source_add_listener(new, Self.dataSourceListener.pointer, data)
            for type in Self.textTypes { wl_data_source_offer(new, type) }
            wl_data_device_set_selection(device, new, seat.latestInputSerial)
            source = new
        case .primarySelection:
            guard let manager = seat.connection.primarySelectionManager,
                let new = zwp_primary_selection_device_manager_v1_create_source(manager)
            else { return }
            zwp_primary_selection_source_v1_add_listener(new, Self.primarySourceListener.pointer, data)
            for type in Self.textTypes { zwp_primary_selection_source_v1_offer(new, type) }
            zwp_primary_selection_device_v1_set_selection(device, new, seat.latestInputSerial)
            source = new
        }
        ownedText = text
        seat.connection.setNeedsFlush()
    }

    public func requestString(_ completion: @escaping @MainActor (String?) -> Void) {
        if source != nil, let ownedText {
            DispatchQueue.main.async { completion(ownedText) }
            return
        }
        guard let key = selectionOffer, let offer = offers[key],
            let type = Self.textTypes.first(where: offer.types.contains)
        else {
            DispatchQueue.main.async { completion(nil) }
            return
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            DispatchQueue.main.async { completion(nil) }
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        switch kind {
        case .clipboard: wl_data_offer_receive(offer.proxy, type, ends[1])
        case .primarySelection: zwp_primary_selection_offer_v1_receive(offer.proxy, type, ends[1])
        }
        // libwayland duplicated the write end into the request; ours closes after the flush.
        seat.connection.flush()
        close(ends[1])
        let readEnd = ends[0]
        DispatchQueue.global(qos: .userInitiated).async {
            let bytes = Self.readAll(from: readEnd)
            close(readEnd)
            let text = bytes.map { String(decoding: $0, as: UTF8.self) }
            DispatchQueue.main.async { completion(text) }
        }
    }

    /// Reads `fd` to its end (nil on an error, a timeout or more than the limit).
    nonisolated private static func readAll(from fd: Int32) -> [UInt8]? {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, pasteTimeout * 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
            guard result.count <= maximumPasteSize else { return nil }
        }
    }

    /// Sends the owned text into `fd` (a paste's pipe, now ours), or just closes it.
    private func answer(_ fd: Int32) {
        guard let ownedText else {
            close(fd)
            return
        }
        Self.send(ownedText, to: fd)
    }

    /// Writes `text` to `fd` and closes it, on a background queue (the reader may be slow).
    nonisolated private static func send(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        DispatchQueue.global(qos: .userInitiated).async {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
            close(fd)
        }
    }

    // MARK: Lifetime

    /// Destroys the device, the source and every offer (the seat went away). Idempotent.
    func destroy() {
        destroySource()
        for key in Array(offers.keys) { destroyOffer(key) }
        if let device {
            switch kind {
            case .clipboard:
                // `release` exists from version 2; a version-1 device can only be forgotten.
                if wl_data_device_get_version(device) >= Self.dataDeviceReleaseVersion {
                    wl_data_device_release(device)
                } else {
                    wl_data_device_destroy(device)
                }
            case .primarySelection: zwp_primary_selection_device_v1_destroy(device)
            }
        }
        device = nil
    }

    private func destroySource() {
        guard let source else { return }
        switch kind {
        case .clipboard: wl_data_source_destroy(source)
        case .primarySelection: zwp_primary_selection_source_v1_destroy(source)
        }
        self.source = nil
        ownedText = nil
    }

    private func destroyOffer(_ key: Int) {
        guard let offer = offers.removeValue(forKey: key) else { return }
        switch kind {
        case .clipboard: wl_data_offer_destroy(offer.proxy)
        case .primarySelection: zwp_primary_selection_offer_v1_destroy(offer.proxy)
        }
        if selectionOffer == key { selectionOffer = nil }
        if dragOffer == key { dragOffer = nil }
    }

    // MARK: Events

    private func offerAnnounced(_ key: Int) {
        guard let proxy = OpaquePointer(bitPattern: key) else { return }
        offers[Int(bitPattern: proxy)] = (proxy, [])
        let data = listenerData(for: self)
        switch kind {
        case .clipboard: wl_data_offer_add_listener(proxy, Self.dataOfferListener.pointer, data)
        case .primarySelection:
            zwp_primary_selection_offer_v1_add_listener(proxy, Self.primaryOfferListener.pointer, data)
        }
    }

    private func offer(_ key: Int, hasType type: String) {
        offers[key]?.types.append(type)
    }

    private func selectionChanged(to proxy: Int) {
        let key = proxy == 0 ? nil : proxy
        if let old = selectionOffer, old != key { destroyOffer(old) }
        selectionOffer = key
    }

    private func dragEntered(_ proxy: Int) {
        if let old = dragOffer { destroyOffer(old) }
        dragOffer = proxy == 0 ? nil : proxy
    }

    private func dragEnded() {
        if let old = dragOffer { destroyOffer(old) }
    }

    private func sourceCancelled(_ proxy: Int) {
        guard let source, proxy == Int(bitPattern: source) else {
            // A source already replaced: it was destroyed when it was replaced.
            return
        }
        destroySource()
    }

    // MARK: Listeners

    /// Runs `handle` on the selection registered as a proxy's listener `data`, on the main
    /// actor (libwayland calls every listener on the main thread). Both kinds' listeners
    /// deliver their events through these helpers, so the clipboard and the primary
    /// selection handle offers, selections, sends and cancellations the same way.
    nonisolated private static func deliver(_ data: UnsafeMutableRawPointer?, _ handle: @MainActor (WaylandSelection) -> Void) {
        let selection = owner(data, as: WaylandSelection.self)
        MainActor.assumeIsolated { handle(selection) }
    }

    /// `data_offer`: a new offer proxy, whose types follow.
    nonisolated private static func announce(_ data: UnsafeMutableRawPointer?, offer: OpaquePointer?) {
        let proxy = Int(bitPattern: offer)
        deliver(data) { $0.offerAnnounced(proxy) }
    }

    /// `selection`: the offer that is the selection now (nil: there is none).
    nonisolated private static func select(_ data: UnsafeMutableRawPointer?, offer: OpaquePointer?) {
        let proxy = Int(bitPattern: offer)
        deliver(data) { $0.selectionChanged(to: proxy) }
    }

    /// An offer's `offer` event: one more type it has.
    nonisolated private static func add(_ data: UnsafeMutableRawPointer?, type: UnsafePointer<CChar>?, to offer: OpaquePointer?) {
        let proxy = Int(bitPattern: offer)
        let name = type.map { String(cString: $0) } ?? ""
        deliver(data) { $0.offer(proxy, hasType: name) }
    }

    /// A source's `send`: a paste wants the text written into `fd` (now ours).
    nonisolated private static func send(_ data: UnsafeMutableRawPointer?, into fd: Int32) {
        deliver(data) { $0.answer(fd) }
    }

    /// A source's `cancelled`: another client took the selection.
    nonisolated private static func cancel(_ data: UnsafeMutableRawPointer?, source: OpaquePointer?) {
        let proxy = Int(bitPattern: source)
        deliver(data) { $0.sourceCancelled(proxy) }
    }

    private static let dataDeviceListener = StaticListener(
        wl_data_device_listener(
            data_offer: { data, _, offer in announce(data, offer: offer) },
            enter: { data, _, _, _, _, _, offer in
                let proxy = Int(bitPattern: offer)
                deliver(data) { $0.dragEntered(proxy) }
            },
            leave: { data, _ in deliver(data) { $0.dragEnded() } },
            motion: { _, _, _, _, _ in },
            drop: { data, _ in deliver(data) { $0.dragEnded() } },
            selection: { data, _, offer in select(data, offer: offer) }))

    private static let dataOfferListener = StaticListener(
        wl_data_offer_listener(
            offer: { data, offer, type in add(data, type: type, to: offer) },
            source_actions: { _, _, _ in },
            action: { _, _, _ in }))

    private static let dataSourceListener = StaticListener(
        wl_data_source_listener(
            target: { _, _, _ in },
            send: { data, _, _, fd in send(data, into: fd) },
            cancelled: { data, source in cancel(data, source: source) },
            dnd_drop_performed: { _, _ in },
            dnd_finished: { _, _ in },
            action: { _, _, _ in }))

    private static let primaryDeviceListener = StaticListener(
        zwp_primary_selection_device_v1_listener(
            data_offer: { data, _, offer in announce(data, offer: offer) },
            selection: { data, _, offer in select(data, offer: offer) }))

    private static let primaryOfferListener = StaticListener(
        zwp_primary_selection_offer_v1_listener(
            offer: { data, offer, type in add(data, type: type, to: offer) }))

    private static let primarySourceListener = StaticListener(
        zwp_primary_selection_source_v1_listener(
            send: { data, _, _, fd in send(data, into: fd) },
            cancelled: { data, source in cancel(data, source: source) }))
}

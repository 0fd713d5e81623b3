import CDBus
import Foundation

/// A private libdbus connection driven from the main actor: its socket is read when a
/// ``DescriptorWatcher`` says it is readable (no polling, no thread), incoming method calls
/// and signals go to ``onMessage``, and replies to calls made with
/// ``call(_:_:_:_:_:reply:)`` go to their reply handler.
///
/// Ownership: the connection owns its `DBusConnection` (opened private, closed and unreffed
/// by ``close()`` or `deinit`). libdbus calls the watch and filter functions with
/// `Unmanaged.passUnretained(self)` as their data; ``close()`` removes both before the
/// object can go away. Writing: every send is followed by `dbus_connection_flush`, which
/// returns at once unless the socket's buffer is full (then it waits for the peer), so no
/// write watch is needed. Main-actor isolated; libdbus is only ever called from here.
@MainActor final class DBusConnection {
    /// The connection; nil once closed.
    private var connection: OpaquePointer?
    /// The read watches libdbus asked for, with what cancels each.
    private var watches: [OpaquePointer: @MainActor () -> Void] = [:]
    private let watcher: DescriptorWatcher
    /// Reply handlers by the serial of the call they answer.
    private var pendingReplies: [UInt32: @MainActor (Result<[DBusValue], DBusCallError>) -> Void] = [:]
    /// Called for every method call and signal that arrives; returns whether it was handled
    /// (an unhandled method call is answered with UnknownMethod).
    var onMessage: (@MainActor (DBusIncomingMessage) -> Bool)?
    /// Called once when the peer closes the connection.
    var onDisconnect: (@MainActor () -> Void)?
    /// The connection's unique name on its bus (":1.42").
    private(set) var uniqueName = ""

    /// Connects to the session bus, or to `address` (a private bus such as the
    /// accessibility bus), and says Hello. Blocks for the Hello round trip.
    init(address: String?, watcher: DescriptorWatcher) throws(DBusCallError) {
        self.watcher = watcher
        // Without a session bus to find, libdbus is not even opened (CDBusLoader opens it on
        // the first call: 1.3 MiB), and its autolaunch, which could start a bus, is never tried.
        if address == nil, !Self.sessionBusExists(ProcessInfo.processInfo.environment) {
            throw DBusCallError(
                name: "org.freedesktop.DBus.Error.NoServer",
                message: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist)")
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let opened: OpaquePointer?
        if let address {
            opened = dbus_connection_open_private(address, &error)
            if let opened, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                throw DBusCallError(error)
            }
        } else {
            opened = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        }
        guard let opened else { throw DBusCallError(error) }
        connection = opened
        dbus_connection_set_exit_on_disconnect(opened, 0)
        uniqueName = dbus_bus_get_unique_name(opened).map { String(cString: $0) } ?? ""
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(opened, dbusFilter, data, nil)
        dbus_connection_set_watch_functions(opened, dbusAddWatch, dbusRemoveWatch, dbusToggleWatch, data, nil)
        dbus_connection_set_dispatch_status_function(opened, dbusDispatchStatus, data, nil)
        dispatchPending()
    }


    /// Whether libdbus would find a session bus without autolaunching one:
    /// `DBUS_SESSION_BUS_ADDRESS`, or the socket `$XDG_RUNTIME_DIR/bus`.
    static func sessionBusExists(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: runtime + "/bus")
    }

    deinit {
        MainActor.assumeIsolated { close() }
    }

    /// Whether the connection is open.
    var isOpen: Bool { connection != nil }

    /// Closes the connection: no handler is called afterwards. Idempotent.
    func close() {
        guard let connection else { return }
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        dbus_connection_remove_filter(connection, dbusFilter, data)
        for cancel in watches.values { cancel() }
        watches.removeAll()
        pendingReplies.removeAll()
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        self.connection = nil
    }

    // MARK: Sending

    /// Calls `member` of `interface` on `path` at `destination` with `arguments`; `reply`
    /// runs with the reply's arguments or the error (never when the connection closes first).
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        reply: (@MainActor (Result<[DBusValue], DBusCallError>) -> Void)? = nil
    ) {
        guard let connection, let message = dbus_message_new_method_call(destination, path, interface, member) else {
            return
        }
        defer { dbus_message_unref(message) }
        DBusValue.append(arguments, to: message)
        if reply == nil { dbus_message_set_no_reply(message, 1) }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message, &serial) != 0 else { return }
        if let reply { pendingReplies[serial] = reply }
        dbus_connection_flush(connection)
    }

    /// Emits signal `member` of `interface` from `path`.
    func emitSignal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        guard let connection, let message = dbus_message_new_signal(path, interface, member) else { return }
        defer { dbus_message_unref(message) }
        DBusValue.append(arguments, to: message)
        dbus_connection_send(connection, message, nil)
        dbus_connection_flush(connection)
    }

    /// Answers the method call `message` with `arguments`.
    func reply(to message: DBusIncomingMessage, _ arguments: [DBusValue]) {
        guard let connection, !message.noReply, let answer = dbus_message_new_method_return(message.message) else { return }
        defer { dbus_message_unref(answer) }
        if !DBusValue.append(arguments, to: answer) {
            return replyError(to: message, "org.freedesktop.DBus.Error.Failed", "reply could not be encoded")
        }
        dbus_connection_send(connection, answer, nil)
        dbus_connection_flush(connection)
    }

    /// Answers the method call `message` with error `name` and `text`.
    func replyError(to message: DBusIncomingMessage, _ name: String, _ text: String) {
        guard let connection, !message.noReply, let answer = dbus_message_new_error(message.message, name, text) else {
            return
        }
        defer { dbus_message_unref(answer) }
        dbus_connection_send(connection, answer, nil)
        dbus_connection_flush(connection)
    }

    /// Asks the bus to deliver the signals `rule` matches (a D-Bus match rule).
    func addMatch(_ rule: String) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)])
    }

    // MARK: Receiving

    /// Reads what the socket holds and dispatches every complete message.
    fileprivate func handleReadable(_ watch: OpaquePointer) {
        guard connection != nil else { return }
        dbus_watch_handle(watch, UInt32(DBUS_WATCH_READABLE.rawValue))
        dispatchPending()
    }

    private func dispatchPending() {
        isDispatchScheduled = false
        while let connection, dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// Whether a dispatch is queued for the end of this turn.
    private var isDispatchScheduled = false

    /// Messages were queued without the socket becoming readable again (a flush reads what
    /// has arrived while it waits to write): they are dispatched after this turn, never
    /// inside libdbus's call that queued them.
    fileprivate func scheduleDispatch() {
        guard !isDispatchScheduled else { return }
        isDispatchScheduled = true
        Task { @MainActor [weak self] in
            guard let self, self.isDispatchScheduled else { return }
            self.dispatchPending()
        }
    }

    fileprivate func addWatch(_ watch: OpaquePointer) {
        let flags = dbus_watch_get_flags(watch)
        // Writes are flushed after each send (see the type's comment): only reads are watched.
        guard flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0, dbus_watch_get_enabled(watch) != 0 else { return }
        watches[watch]?()
        watches[watch] = watcher.watch(dbus_watch_get_unix_fd(watch)) { [weak self] in
            self?.handleReadable(watch)
        }
    }

    fileprivate func removeWatch(_ watch: OpaquePointer) {
        watches.removeValue(forKey: watch)?()
    }

    fileprivate func toggleWatch(_ watch: OpaquePointer) {
        if dbus_watch_get_enabled(watch) != 0 { addWatch(watch) } else { removeWatch(watch) }
    }

    fileprivate func handle(_ pointer: OpaquePointer) -> Bool {
        let message = DBusIncomingMessage(pointer)
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR:
            guard let reply = pendingReplies.removeValue(forKey: message.replySerial) else { return false }
            if message.type == DBUS_MESSAGE_TYPE_ERROR {
                reply(.failure(DBusCallError(name: message.errorName, message: message.arguments.first?.stringValue ?? "")))
            } else {
                reply(.success(message.arguments))
            }
            return true
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                // Not closed inside libdbus's dispatch: after this turn.
                Task { @MainActor [weak self] in
                    guard let self, self.isOpen else { return }
                    let callback = self.onDisconnect
                    self.close()
                    callback?()
                }
                return true
            }
            return onMessage?(message) ?? false
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            if onMessage?(message) ?? false { return true }
            replyError(
                to: message, "org.freedesktop.DBus.Error.UnknownMethod",
                "no method \(message.interface).\(message.member) on \(message.path)")
            return true
        default:
            return false
        }
    }
}

// MARK: libdbus callbacks (data: the DBusConnection, unretained; see the type's comment)
//
// libdbus calls these on the thread that called into it, always the main thread here. The
// pointers cross into `MainActor.assumeIsolated` as bit patterns (raw pointers are not
// Sendable); they stay libdbus's.

private func owner(_ bits: UInt) -> DBusConnection? {
    UnsafeMutableRawPointer(bitPattern: bits).map { Unmanaged<DBusConnection>.fromOpaque($0).takeUnretainedValue() }
}

private let dbusFilter: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = {
    _, message, data in
    let (messageBits, dataBits) = (UInt(bitPattern: message.map(UnsafeRawPointer.init)), UInt(bitPattern: data))
    let handled = MainActor.assumeIsolated { () -> Bool in
        guard let message = UnsafeRawPointer(bitPattern: messageBits).map(OpaquePointer.init),
            let connection = owner(dataBits)
        else { return false }
        return connection.handle(message)
    }
    return handled ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

/// Runs `body` on the main actor with the watch and its connection.
private func withWatch(_ watch: OpaquePointer?, _ data: UnsafeMutableRawPointer?, _ body: @MainActor (DBusConnection, OpaquePointer) -> Void) {
    let (watchBits, dataBits) = (UInt(bitPattern: watch.map(UnsafeRawPointer.init)), UInt(bitPattern: data))
    MainActor.assumeIsolated {
        guard let watch = UnsafeRawPointer(bitPattern: watchBits).map(OpaquePointer.init), let connection = owner(dataBits)
        else { return }
        body(connection, watch)
    }
}

private let dbusDispatchStatus: @convention(c) (OpaquePointer?, DBusDispatchStatus, UnsafeMutableRawPointer?) -> Void = {
    _, status, data in
    guard status == DBUS_DISPATCH_DATA_REMAINS else { return }
    let dataBits = UInt(bitPattern: data)
    MainActor.assumeIsolated { owner(dataBits)?.scheduleDispatch() }
}

private let dbusAddWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { watch, data in
    withWatch(watch, data) { $0.addWatch($1) }
    return 1
}

private let dbusRemoveWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, data in
    withWatch(watch, data) { $0.removeWatch($1) }
}

private let dbusToggleWatch: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, data in
    withWatch(watch, data) { $0.toggleWatch($1) }
}

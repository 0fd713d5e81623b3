import CDBus

/// A D-Bus error: a call's error reply, or a failure to connect, with its name
/// ("org.freedesktop.DBus.Error.ServiceUnknown") and text.
struct DBusCallError: Error, CustomStringConvertible, Sendable {
    let name: String
    let message: String

    init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The error libdbus filled in (or a generic one when it filled in none).
    init(_ error: DBusError) {
        name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        message = error.message.map { String(cString: $0) } ?? "unknown D-Bus failure"
    }

    var description: String { "\(name): \(message)" }
}

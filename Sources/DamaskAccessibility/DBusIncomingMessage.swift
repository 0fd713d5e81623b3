import CDBus

/// A message that arrived, read while libdbus holds it: valid only during the handler it
/// is passed to (the message is libdbus's; it is not retained here).
@MainActor struct DBusIncomingMessage {
    /// The libdbus message (borrowed).
    let message: OpaquePointer
    let type: Int32
    let path: String
    let interface: String
    let member: String
    let sender: String
    let replySerial: UInt32
    let errorName: String
    let noReply: Bool
    /// The arguments, decoded.
    let arguments: [DBusValue]

    init(_ message: OpaquePointer) {
        self.message = message
        type = dbus_message_get_type(message)
        path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        sender = dbus_message_get_sender(message).map { String(cString: $0) } ?? ""
        replySerial = dbus_message_get_reply_serial(message)
        errorName = dbus_message_get_error_name(message).map { String(cString: $0) } ?? ""
        noReply = dbus_message_get_no_reply(message) != 0
        arguments = DBusValue.arguments(of: message)
    }
}

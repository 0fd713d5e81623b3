import CDamaskShims
import CWaylandClient
import CWaylandProtocols
import DamaskGraphics
import Dispatch
import Foundation

/// The connection's errors as a person reads them: the protocol error libwayland recorded
/// (interface, object, code, and the compositor's message from libwayland's log), or why
/// the connection was lost.
extension WaylandConnection {
    /// The error the display is in, described for a person.
    func currentError() -> WaylandError {
        guard let display else { return .connectionLost(reason: "not connected") }
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let errorCode = wl_display_get_protocol_error(display, &interface, &objectID)
            let interfaceName = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return .protocolError(
                interface: interfaceName, objectID: objectID, code: errorCode,
                message: Self.lastLogMessage() ?? "no message")
        }
        switch code {
        case 0, EPIPE, ECONNRESET:
            return .connectionLost(reason: "the compositor closed the connection")
        default:
            // libwayland explains a malformed event (an unknown object, a bad opcode) only in
            // its log; pass that explanation on instead of a bare errno.
            let reason = String(cString: strerror(code))
            if let explanation = Self.lastLogMessage() {
                return .connectionLost(reason: "\(explanation); \(reason)")
            }
            return .connectionLost(reason: reason)
        }
    }

    /// The text part of libwayland's last log line, e.g. "invalid object 12" out of
    /// "wl_display@1: error 0: invalid object 12".
    fileprivate static func lastLogMessage() -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        guard damask_wayland_last_log(&buffer, buffer.count) > 0 else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let range = line.range(of: #"error \d+: "#, options: .regularExpression) {
            return String(line[range.upperBound...])
        }
        return line
    }
}

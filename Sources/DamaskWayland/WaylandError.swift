import Foundation

/// Why talking to the compositor failed, worded for the person running the program.
public enum WaylandError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No compositor answered; `tried` names the socket that was tried.
    case noCompositor(tried: String, reason: String)
    /// The compositor does not offer a global the client cannot work without.
    case missingGlobal(String)
    /// The compositor reported a protocol error and closed the connection.
    case protocolError(interface: String, objectID: UInt32, code: UInt32, message: String)
    /// The connection broke: the compositor crashed, quit or hung up.
    case connectionLost(reason: String)
    /// A system call failed.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .noCompositor(let tried, let reason):
            return "cannot connect to a Wayland compositor at \(tried): \(reason)"
        case .missingGlobal(let name):
            return "the compositor does not offer \(name), which Damask needs"
        case .protocolError(let interface, let objectID, let code, let message):
            return "protocol error on \(interface)@\(objectID), code \(code): \(message)"
        case .connectionLost(let reason):
            return "lost connection to the compositor (\(reason))"
        case .system(let call, let errno):
            return "\(call) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// The exit status a program should end with after this error: 2 when the program
    /// could not start (no compositor, missing global), 1 when it failed while running.
    public var exitStatus: Int32 {
        switch self {
        case .noCompositor, .missingGlobal: return 2
        case .protocolError, .connectionLost, .system: return 1
        }
    }
}

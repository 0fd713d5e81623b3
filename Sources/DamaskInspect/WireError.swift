/// Why a message could not be decoded, with the `wl_display.error` code a compositor would
/// send for it.
public struct WireError: Error, Sendable, CustomStringConvertible {
    /// `wl_display.error` codes.
    public enum Code: UInt32, Sendable {
        case invalidObject = 0
        case invalidMethod = 1
        case noMemory = 2
        case implementation = 3
    }

    public let code: Code
    /// The object the message was sent to (0 when the header itself was bad).
    public let objectID: UInt32
    public let message: String

    public init(_ code: Code, objectID: UInt32, _ message: String) {
        self.code = code
        self.objectID = objectID
        self.message = message
    }

    public var description: String { message }
}

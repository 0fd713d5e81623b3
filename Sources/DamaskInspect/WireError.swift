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
    /// What went wrong, in detail (the inspector's report).
    public let message: String
    /// The object the `wl_display.error` names: wl_display (1) for everything
    /// libwayland-server rejects while decoding, as it does; the registry for a bad bind.
    public let errorObject: UInt32
    /// The text the client is sent: libwayland-server's own wording where the inspector's
    /// detail differs (`invalid arguments for wl_shm@4.create_pool`), so that a client sees
    /// the error a compositor would give.
    public let sentMessage: String

    public init(_ code: Code, objectID: UInt32, _ message: String, errorObject: UInt32 = 1, sentMessage: String? = nil) {
        self.code = code
        self.objectID = objectID
        self.message = message
        self.errorObject = errorObject
        self.sentMessage = sentMessage ?? message
    }

    public var description: String { message }
}

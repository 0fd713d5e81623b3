/// A problem that stopped playback (not a failed expectation): a frame that never came, a
/// screenshot that could not be written, a command the surface cannot perform, an error
/// thrown by an application command.
///
/// Its `description` is `FILE:LINE:COL: error: message`.
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    /// The command that failed.
    public var location: SourceLocation
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `FILE:LINE:COL: error: message`.
    public var description: String { "\(location): error: \(message)" }
}

/// A parsed command with the location of its first token.
public struct ScriptStatement: Equatable, Sendable {
    /// The command.
    public var command: ScriptCommand
    /// Where the command starts in the script.
    public var location: SourceLocation

    /// Creates a statement.
    public init(_ command: ScriptCommand, at location: SourceLocation) {
        self.command = command
        self.location = location
    }
}

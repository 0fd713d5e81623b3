/// An application-defined script command: its name, how to parse its arguments, and what
/// the player does with it (the demo registers `scene NAME` this way).
///
/// The argument parser runs while the script is parsed, so a bad argument rejects the whole
/// script before anything is played; the handler runs on the main actor when the player
/// reaches the command, and may await (frames, time) like the built-in commands.
public struct ScriptCommandDefinition: Sendable {
    /// The command name (the first word of its lines).
    public let name: String
    /// A one-line usage summary for documentation and messages, e.g. `scene NAME`.
    public let usage: String
    let parseArguments: @Sendable (inout ArgumentReader) throws(ScriptError) -> any Sendable
    let handler: @MainActor @Sendable (any Sendable, ScriptPlayer) async throws -> Void

    /// Creates a command whose argument parser returns a `Payload` and whose handler receives
    /// it together with the player (for its window and its event helpers).
    ///
    /// The argument parser must read every argument it accepts; the parser rejects leftovers
    /// with "unexpected argument". Errors thrown by the handler stop playback and are reported
    /// with the command's line.
    public init<Payload: Sendable>(
        name: String,
        usage: String,
        parse: @escaping @Sendable (inout ArgumentReader) throws(ScriptError) -> Payload,
        handler: @escaping @MainActor @Sendable (Payload, ScriptPlayer) async throws -> Void
    ) {
        self.name = name
        self.usage = usage
        self.parseArguments = { (reader: inout ArgumentReader) throws(ScriptError) -> any Sendable in
            try parse(&reader)
        }
        self.handler = { payload, player in
            guard let payload = payload as? Payload else {
                preconditionFailure("payload of '\(name)' is not a \(Payload.self)")
            }
            try await handler(payload, player)
        }
    }
}

/// One use of an application-registered command: its name, its arguments as written, and the
/// value its argument parser returned.
public struct CustomInvocation: Equatable, Sendable {
    /// The command name, e.g. `scene`.
    public var name: String
    /// The arguments as written (kept so the printer can write the line back).
    public var arguments: [ScriptArgument]
    /// What the command's argument parser returned; handed to its handler when played.
    public var payload: any Sendable

    /// Creates an invocation.
    public init(name: String, arguments: [ScriptArgument], payload: any Sendable) {
        self.name = name
        self.arguments = arguments
        self.payload = payload
    }

    /// Two invocations are equal when they have the same name and the same written arguments.
    public static func == (lhs: CustomInvocation, rhs: CustomInvocation) -> Bool {
        lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }
}

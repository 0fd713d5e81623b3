/// One argument of a command as written in a script: its text and whether it was quoted.
///
/// Custom commands keep their arguments in this form so that `ScriptPrinter` can write them
/// back exactly.
public struct ScriptArgument: Hashable, Sendable {
    /// The text, with string escapes already resolved.
    public var text: String
    /// Whether the argument was a quoted string.
    public var isQuoted: Bool

    /// Creates an argument.
    public init(_ text: String, isQuoted: Bool = false) {
        self.text = text
        self.isQuoted = isQuoted
    }
}

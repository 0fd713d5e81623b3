/// One lexical token of a script line: a bare word or a quoted string, with its columns.
struct Token: Sendable {
    /// The token's text; for a quoted string, the text with escapes resolved and no quotes.
    var text: String
    /// Whether the token was written as a quoted string.
    var isQuoted: Bool
    /// The 1-based column of the token's first character (the opening quote for strings).
    var column: Int
    /// The 1-based column just past the token's last character.
    var endColumn: Int

    /// The token as an argument value, without its position.
    var argument: ScriptArgument { ScriptArgument(text, isQuoted: isQuoted) }
}

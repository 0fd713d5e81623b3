/// A problem found in a script before anything is played.
///
/// Its `description` is exactly one line in the compiler style,
/// `FILE:LINE:COL: error: what is wrong`, with the column pointing at the offending token.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, without location or severity (e.g. `unknown command 'jump'`).
    public var message: String

    /// Creates an error at `location`. Line breaks and other control characters in `message`
    /// (which may quote script text) are escaped, so the description stays one line.
    public init(_ message: String, at location: SourceLocation) {
        var singleLine = String.UnicodeScalarView()
        for scalar in message.unicodeScalars {
            if ScriptPrinter.needsEscape(scalar) {
                singleLine.append(contentsOf: ScriptPrinter.escape(scalar).unicodeScalars)
            } else {
                singleLine.append(scalar)
            }
        }
        self.message = String(singleLine)
        self.location = location
    }

    /// `FILE:LINE:COL: error: message`.
    public var description: String { "\(location): error: \(message)" }
}

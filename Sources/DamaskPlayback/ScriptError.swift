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
    /// (which may quote script text) are escaped, so the description stays one line; quoted
    /// text longer than ``quotedLimit`` characters and messages longer than ``messageLimit``
    /// are cut with "…", so a megabyte-long token gives a short message, in linear time.
    public init(_ message: String, at location: SourceLocation) {
        self.message = Self.singleLine(message)
        self.location = location
    }

    /// The most characters of quoted script text (between `'` marks) a message keeps.
    public static let quotedLimit = 80
    /// The most characters a message keeps.
    public static let messageLimit = 1_000

    /// `message` escaped to one line and cut to the limits.
    static func singleLine(_ message: String) -> String {
        var result = ""
        var inQuote = false
        var quotedLength = 0
        var length = 0
        for scalar in message.unicodeScalars {
            guard length < messageLimit else {
                result += "…"
                break
            }
            if scalar == "'" {
                inQuote.toggle()
                quotedLength = 0
            } else if inQuote {
                quotedLength += 1
                if quotedLength == quotedLimit + 1 { result += "…" }
                if quotedLength > quotedLimit { continue }
            }
            // `+=` of a short string, not `unicodeScalars.append(contentsOf:)`, which copies
            // the whole string each time (quadratic in a long token).
            result += ScriptPrinter.needsEscape(scalar) ? ScriptPrinter.escape(scalar) : String(scalar)
            length += 1
        }
        return result
    }

    /// `FILE:LINE:COL: error: message`.
    public var description: String { "\(location): error: \(message)" }
}

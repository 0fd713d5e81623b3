/// Splits one script line into tokens.
///
/// Rules: tokens are separated by spaces and tabs. A token starting with `"` is a string that
/// runs to the next unescaped `"` (escapes: `\"`, `\\`, `\n`, `\t`, `\r`, `\u{HEX}`). A `#` that
/// starts a token begins a comment running to the end of the line, except a colour literal
/// (`#` and six hexadecimal digits) that is not the first token of the line.
enum ScriptLexer {
    /// Returns the tokens of `line` (which contains no line break).
    static func tokenize(
        _ line: [Unicode.Scalar], lineNumber: Int, file: String
    ) throws(ScriptError) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        func location(_ i: Int) -> SourceLocation {
            SourceLocation(file: file, line: lineNumber, column: i + 1)
        }
        while index < line.count {
            let scalar = line[index]
            if isSpace(scalar) {
                index += 1
                continue
            }
            if scalar == "#" && !(tokens.count > 0 && isColourLiteral(line, at: index)) {
                break
            }
            if scalar == "\"" {
                let start = index
                var text = String.UnicodeScalarView()
                index += 1
                var closed = false
                while index < line.count {
                    let c = line[index]
                    if c == "\"" {
                        closed = true
                        index += 1
                        break
                    }
                    if c == "\\" {
                        let escapeStart = index
                        index += 1
                        guard index < line.count else { break }
                        switch line[index] {
                        case "\"": text.append("\"")
                        case "\\": text.append("\\")
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "r": text.append("\r")
                        case "u":
                            let (value, next) = try unicodeEscape(
                                line, at: index + 1, escapeStart: escapeStart, location: location)
                            text.append(value)
                            index = next
                            continue
                        default:
                            throw ScriptError(
                                "unknown escape '\\\(String(line[index]))' in string",
                                at: location(escapeStart))
                        }
                        index += 1
                        continue
                    }
                    text.append(c)
                    index += 1
                }
                guard closed else {
                    throw ScriptError("unterminated string", at: location(start))
                }
                if index < line.count && !isSpace(line[index]) {
                    throw ScriptError(
                        "expected a space after the closing quote", at: location(index))
                }
                tokens.append(
                    Token(text: String(text), isQuoted: true, column: start + 1, endColumn: index + 1))
                continue
            }
            let start = index
            var text = String.UnicodeScalarView()
            while index < line.count && !isSpace(line[index]) {
                text.append(line[index])
                index += 1
            }
            tokens.append(
                Token(text: String(text), isQuoted: false, column: start + 1, endColumn: index + 1))
        }
        return tokens
    }

    /// Whether `scalar` separates tokens.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{0B}" || scalar == "\u{0C}"
    }

    /// Whether a `#` at `index` begins `#rrggbb` followed by a separator or the end of the line.
    static func isColourLiteral(_ line: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + 7 <= line.count else { return false }
        for i in index + 1 ..< index + 7 where !line[i].properties.isASCIIHexDigit {
            return false
        }
        return index + 7 == line.count || isSpace(line[index + 7])
    }

    /// Parses the `{HEX}` part of a `\u{HEX}` escape starting at `index` (just past the `u`).
    private static func unicodeEscape(
        _ line: [Unicode.Scalar], at index: Int, escapeStart: Int,
        location: (Int) -> SourceLocation
    ) throws(ScriptError) -> (Unicode.Scalar, Int) {
        let bad = ScriptError(
            "bad unicode escape (expected \\u{HEX} with 1 to 6 hex digits)",
            at: location(escapeStart))
        guard index < line.count, line[index] == "{" else { throw bad }
        var i = index + 1
        var value: UInt32 = 0
        var digits = 0
        while i < line.count, line[i] != "}" {
            guard digits < 6, let digit = Self.hexValue(line[i]) else { throw bad }
            value = value * 16 + digit
            digits += 1
            i += 1
        }
        guard i < line.count, digits > 0, let scalar = Unicode.Scalar(value) else { throw bad }
        return (scalar, i + 1)
    }

    /// The value of one hexadecimal digit, or nil.
    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 48
        case "a"..."f": return scalar.value - 97 + 10
        case "A"..."F": return scalar.value - 65 + 10
        default: return nil
        }
    }
}

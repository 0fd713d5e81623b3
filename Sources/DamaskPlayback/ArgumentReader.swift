/// Reads the arguments of one command line, token by token, producing `ScriptError`s that
/// point at the offending token.
///
/// The parser uses it for the built-in commands, and hands one to the argument parser of every
/// application-registered command.
public struct ArgumentReader {
    /// The command as named in messages, e.g. `move` or `expect pixel`.
    public private(set) var commandName: String
    let tokens: [Token]
    private(set) var index: Int
    private let file: String
    private let line: Int
    /// The column just past the last token of the line (where a missing argument would go).
    private let endColumn: Int
    /// The column of the most recently read token.
    private var lastColumn: Int

    init(commandName: String, tokens: [Token], startIndex: Int, file: String, line: Int) {
        self.commandName = commandName
        self.tokens = tokens
        self.index = startIndex
        self.file = file
        self.line = line
        self.endColumn = tokens.last?.endColumn ?? 1
        self.lastColumn = startIndex > 0 ? tokens[startIndex - 1].column : 1
    }

    /// Whether every argument has been read.
    public var isAtEnd: Bool { index >= tokens.count }

    /// The next argument's text without consuming it, or nil at the end.
    public func peek() -> String? { isAtEnd ? nil : tokens[index].text }

    /// The arguments not read yet, as written.
    public var remainingArguments: [ScriptArgument] { tokens[index...].map(\.argument) }

    /// Reads the next argument (a word or a quoted string); `what` names it in the error if
    /// there is none.
    public mutating func word(_ what: String) throws(ScriptError) -> String {
        try next(what).text
    }

    /// Reads the next argument if there is one.
    public mutating func optionalWord() -> String? {
        guard !isAtEnd else { return nil }
        lastColumn = tokens[index].column
        index += 1
        return tokens[index - 1].text
    }

    /// Reads the next argument, which must be a quoted string.
    public mutating func quotedString(_ what: String) throws(ScriptError) -> String {
        let token = try next(what)
        guard token.isQuoted else {
            throw error("expected a quoted string for \(what), found '\(token.text)'")
        }
        return token.text
    }

    /// Reads a finite decimal number (`12`, `-3.5`, `1e3`).
    public mutating func number(_ what: String) throws(ScriptError) -> Double {
        let token = try next(what)
        guard let value = ArgumentReader.decimal(token.text) else {
            throw error("bad number '\(token.text)' for \(what)")
        }
        return value
    }

    /// Reads a number within `range`.
    public mutating func number(
        _ what: String, in range: ClosedRange<Double>
    ) throws(ScriptError) -> Double {
        let value = try number(what)
        guard range.contains(value) else {
            throw error(
                "\(what) \(ScriptPrinter.format(value)) is out of range "
                    + "\(ScriptPrinter.format(range.lowerBound))…\(ScriptPrinter.format(range.upperBound))"
            )
        }
        return value
    }

    /// Reads an integer within `range`.
    public mutating func integer(
        _ what: String, in range: ClosedRange<Int>
    ) throws(ScriptError) -> Int {
        let token = try next(what)
        guard let value = ArgumentReader.integer(token.text) else {
            throw error("bad number '\(token.text)' for \(what) (expected an integer)")
        }
        guard range.contains(value) else {
            throw error("\(what) \(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// Names the command by its subcommand too in later messages (`expect` → `expect pixel`).
    mutating func enterSubcommand(_ name: String) {
        commandName += " " + name
    }

    /// Fails if arguments are left over.
    public func finish() throws(ScriptError) {
        guard isAtEnd else {
            throw ScriptError(
                "unexpected argument '\(tokens[index].text)' for '\(commandName)'",
                at: location(tokens[index].column))
        }
    }

    /// An error at the most recently read token.
    public func error(_ message: String) -> ScriptError {
        ScriptError(message, at: location(lastColumn))
    }

    /// Reads the next token, or fails naming `what` as missing.
    mutating func next(_ what: String) throws(ScriptError) -> Token {
        guard !isAtEnd else {
            throw ScriptError(
                "missing argument \(what) for '\(commandName)'", at: location(endColumn))
        }
        lastColumn = tokens[index].column
        index += 1
        return tokens[index - 1]
    }

    private func location(_ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    // MARK: Number grammar

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` into a finite Double; nil otherwise
    /// (no `inf`, `nan`, hex or empty parts).
    static func decimal(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 40 else { return nil }
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                i += 1
            }
            guard digits() > 0 else { return nil }
        }
        guard i == bytes.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Parses `[+-]digits` into an Int; nil if malformed or too large.
    static func integer(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        let start = bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") ? 1 : 0
        guard start < bytes.count, bytes[start...].allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}

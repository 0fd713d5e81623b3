/// A position in a script: file name, 1-based line and 1-based column.
///
/// Columns count Unicode scalars from the start of the line, so a tab or a `ü` is one column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the parser (used verbatim in messages).
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COL`.
    public var description: String { "\(file):\(line):\(column)" }
}

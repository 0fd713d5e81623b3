import Foundation

/// Unbuffered output for the human table, so a slow suite shows its rows as they come.
enum Console {
    /// Writes `line` and a newline to stdout at once.
    static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

import Foundation

/// Every caret position of a line at once.
extension Font {
    /// The x offset of the caret at every position 0…`string.count` (as
    /// ``caretOffset(atCharacter:in:)`` gives one), from one layout of the line: what
    /// visual caret movement compares.
    public func caretOffsets(in string: String) -> [CGFloat] {
        let line = line(for: string)
        return (0...line.clusters.count).map { line.caretOffset(at: $0) }
    }
}

/// One note: its text. The first line is its title in the list.
struct Note: Equatable {
    /// What was typed.
    var text: String

    /// What the list shows: the first line, or "New note" while it is empty.
    var title: String {
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return firstLine.isEmpty ? "New note" : String(firstLine)
    }
}

/// What an input method is told about the text around the caret.
extension EditableText {
    /// The text around the caret without the preedit, at most `limit` UTF-8 bytes (cut at
    /// cluster boundaries, about half before the caret and half after), with the caret and
    /// the selection's anchor in bytes of it.
    ///
    /// Costs what it returns, not the text's length: it walks outwards from the caret (a
    /// text of 100,000 characters is never copied whole). A selection longer than `limit`
    /// is reported as a caret at the ``caret`` (the protocols cannot carry it).
    public func surroundingText(limit: Int = SurroundingText.maximumBytes) -> SurroundingText {
        let limit = max(limit, 0)
        // With a preedit, the caret stands where it begins (both ends of the selection).
        let lowPosition = markedRange?.lowerBound ?? min(anchor, caret)
        let highPosition = markedRange?.lowerBound ?? max(anchor, caret)
        var low = stringIndex(ofCharacter: lowPosition)
        var high = stringIndex(ofCharacter: highPosition)
        var selectionBytes = text.utf8.distance(from: low, to: high)
        if selectionBytes > limit {
            low = caretIndex
            high = caretIndex
            selectionBytes = 0
        }
        // After the caret, the text resumes past the preedit.
        let resume = markedRange.map { text.index(high, offsetBy: $0.count) } ?? high
        var budget = limit - selectionBytes
        var start = low
        let beforeBudget = budget / 2
        var used = 0
        while start > text.startIndex {
            let previous = text.index(before: start)
            let size = text.utf8.distance(from: previous, to: start)
            guard used + size <= beforeBudget else { break }
            used += size
            start = previous
        }
        budget -= used
        var end = resume
        while end < text.endIndex {
            let next = text.index(after: end)
            let size = text.utf8.distance(from: end, to: next)
            guard size <= budget else { break }
            budget -= size
            end = next
        }
        let surrounding = String(text[start..<high]) + text[resume..<end]
        let lowByte = used
        let highByte = used + selectionBytes
        let caretIsLow = markedRange != nil || caret <= anchor
        if selectionBytes == 0 {
            return SurroundingText(text: surrounding, cursor: lowByte, anchor: lowByte)
        }
        return caretIsLow
            ? SurroundingText(text: surrounding, cursor: lowByte, anchor: highByte)
            : SurroundingText(text: surrounding, cursor: highByte, anchor: lowByte)
    }
}

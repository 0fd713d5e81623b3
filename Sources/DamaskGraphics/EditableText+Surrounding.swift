/// What an input method is told about the text around the caret.
extension EditableText {
    /// The text around the caret without the preedit, at most `limit` UTF-8 bytes (cut at
    /// cluster boundaries, about half before the caret and half after, the room one side
    /// does not need going to the other), with the caret and
    /// the selection's anchor in bytes of it.
    ///
    /// Costs what it returns, not the text's length: it steps outwards from the caret by
    /// bytes and then to the nearest cluster boundaries inside (a text of 100,000
    /// characters is never walked or copied whole). A selection longer than `limit`
    /// is reported as a caret at the ``caret`` (the protocols cannot carry it).
    public func surroundingText(limit: Int = SurroundingText.defaultLimit) -> SurroundingText {
        let limit = max(limit, 0)
        // The whole text fits and no preedit is cut out: the text itself (its storage
        // shared, nothing built), the caret and anchor as byte offsets, which a native
        // string gives in constant time. A typed key in a field of up to `limit` bytes
        // takes this way (docs/performance.md, "Listeners without libffi").
        if markedRange == nil, text.utf8.count <= limit {
            let cursor = text.utf8.distance(from: text.startIndex, to: caretIndex)
            let anchorByte =
                anchor == caret ? cursor : text.utf8.distance(from: text.startIndex, to: stringIndex(ofCharacter: anchor))
            return SurroundingText(text: text, cursor: cursor, anchor: anchorByte)
        }
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
        // Byte steps (constant time on a native string), then onto cluster boundaries:
        // forwards at the start, backwards at the end, so the text stays within the limit.
        // About half before the caret, more when the text after it is shorter.
        let budget = limit - selectionBytes
        let after = text.utf8.distance(from: resume, to: text.endIndex)
        let before = max(budget / 2, budget - after)
        let roughStart = text.utf8.index(low, offsetBy: -before, limitedBy: text.startIndex) ?? text.startIndex
        let start = clusterBoundary(atOrAfter: roughStart, notAfter: low)
        let used = text.utf8.distance(from: start, to: low)
        let roughEnd = text.utf8.index(resume, offsetBy: budget - used, limitedBy: text.endIndex) ?? text.endIndex
        let end = clusterBoundary(atOrBefore: roughEnd, notBefore: resume)
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

    /// The first cluster boundary at or after `index` (no further than `limit`, a boundary).
    private func clusterBoundary(atOrAfter index: String.Index, notAfter limit: String.Index) -> String.Index {
        var candidate = index
        while candidate < limit {
            if let boundary = String.Index(candidate, within: text) { return boundary }
            candidate = text.utf8.index(after: candidate)
        }
        return limit
    }

    /// The last cluster boundary at or before `index` (no earlier than `limit`, a boundary).
    private func clusterBoundary(atOrBefore index: String.Index, notBefore limit: String.Index) -> String.Index {
        var candidate = index
        while candidate > limit {
            if let boundary = String.Index(candidate, within: text) { return boundary }
            candidate = text.utf8.index(before: candidate)
        }
        return limit
    }
}

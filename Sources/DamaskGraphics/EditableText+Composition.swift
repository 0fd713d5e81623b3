import Foundation

/// Text an input method composes: the preedit, shown inline as marked text.
extension EditableText {
    /// Applies an input method's update (see ``InputMethodUpdate``): removes the marked
    /// text, deletes around the caret, inserts the commit string (an undo step, joined with
    /// typing and commits right before it) and marks the new preedit at the caret, the
    /// caret at its cursor (hidden when it has none: ``isCaretHidden``).
    ///
    /// The preedit is never recorded for undo, and any other edit or move removes it first,
    /// so the undo history always describes the text without it.
    public mutating func apply(_ update: InputMethodUpdate) {
        unmarkText()
        if update.deleteBefore > 0 || update.deleteAfter > 0 {
            let caretByte = text.utf8.distance(from: text.startIndex, to: caretIndex)
            let lowerByte = max(caretByte - update.deleteBefore, 0)
            let upperByte = min(caretByte + update.deleteAfter, text.utf8.count)
            // Widened to whole clusters.
            let lower = caret - text[stringIndex(atOrBefore: lowerByte)..<caretIndex].count
            let upper = caret + text[caretIndex..<stringIndex(atOrAfter: upperByte)].count
            if lower < upper {
                replace(lower..<upper, with: "", kind: .other)
            }
        }
        if !update.commit.isEmpty {
            if hasSelection { isCoalescing = false }
            replace(selection, with: update.commit, kind: .typing)
        }
        guard !update.preedit.isEmpty else {
            isCaretHidden = false
            return
        }
        // Not recorded: insert the preedit with the history paused.
        let start = caret
        let wasCoalescing = isCoalescing
        let savedUndo = undoSteps, savedRedo = redoSteps
        replace(selection, with: update.preedit, kind: .other)
        undoSteps = savedUndo
        redoSteps = savedRedo
        isCoalescing = wasCoalescing
        markedRange = start..<caret
        if let cursor = update.preeditCursor {
            let byte = min(max(cursor.lowerBound, 0), update.preedit.utf8.count)
            let prefix = update.preedit.utf8.prefix(byte)
            let clusters = String(decoding: prefix, as: UTF8.self).count
            placeCaret(at: start + min(clusters, caret - start))
            isCaretHidden = false
        } else {
            isCaretHidden = true
        }
        anchor = caret
    }

    /// Removes the marked text (the preedit), if any, and puts the caret where it began:
    /// what blur, a click or any edit does to a composition in progress.
    public mutating func unmarkText() {
        guard let marked = markedRange else { return }
        markedRange = nil
        isCaretHidden = false
        let wasCoalescing = isCoalescing
        let savedUndo = undoSteps, savedRedo = redoSteps
        replace(marked, with: "", kind: .other)
        undoSteps = savedUndo
        redoSteps = savedRedo
        isCoalescing = wasCoalescing
    }

    /// The text without the marked text: what an input method is told surrounds the caret.
    public var unmarkedText: String {
        guard let marked = markedRange else { return text }
        let start = stringIndex(ofCharacter: marked.lowerBound)
        let end = text.index(start, offsetBy: marked.count)
        return String(text[..<start]) + text[end...]
    }

    /// The string index of the cluster boundary at or before UTF-8 byte `offset`.
    private func stringIndex(atOrBefore offset: Int) -> String.Index {
        var index = caretIndex
        let target = text.utf8.index(text.startIndex, offsetBy: offset)
        while index > target { index = text.index(before: index) }
        return index
    }

    /// The string index of the cluster boundary at or after UTF-8 byte `offset`.
    private func stringIndex(atOrAfter offset: Int) -> String.Index {
        var index = caretIndex
        let target = text.utf8.index(text.startIndex, offsetBy: offset)
        while index < target { index = text.index(after: index) }
        return index
    }
}

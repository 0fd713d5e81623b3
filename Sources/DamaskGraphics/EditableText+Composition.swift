import Foundation

/// Text an input method composes: the preedit, shown inline as marked text.
extension EditableText {
    /// Applies an input method's update (see ``InputMethodUpdate``): removes the marked
    /// text, deletes around the caret, inserts the commit string (an undo step, joined with
    /// typing and commits right before it) and marks the new preedit at the caret, the
    /// caret at its cursor (hidden when it has none: ``isCaretHidden``). The caret and the
    /// anchor move by ``InputMethodUpdate/caretAfterCommit`` after the commit; the preedit's
    /// styles become ``markedStyles`` (a cursor range with no styles: that range highlighted).
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
        if update.caretAfterCommit != nil || update.anchorAfterCommit != nil {
            let newCaret = position(bytesFromCaret: update.caretAfterCommit ?? 0)
            let newAnchor = position(bytesFromCaret: update.anchorAfterCommit ?? 0)
            if newCaret != caret || newAnchor != anchor {
                isCoalescing = false
                placeCaret(at: newCaret)
                anchor = newAnchor
            }
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
        var runs = update.preeditStyles
        if runs.isEmpty, let cursor = update.preeditCursor, !cursor.isEmpty {
            runs = [PreeditStyleRun(range: cursor, style: .selection)]
        }
        markedStyles = runs.compactMap { run in
            let lower = Self.clusters(in: update.preedit, upToByte: run.range.lowerBound, roundingUp: false)
            let upper = Self.clusters(in: update.preedit, upToByte: run.range.upperBound, roundingUp: true)
            guard lower < upper else { return nil }
            return PreeditStyleRun(range: (start + lower)..<(start + upper), style: run.style)
        }
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
        markedStyles = []
        isCaretHidden = false
        let wasCoalescing = isCoalescing
        let savedUndo = undoSteps, savedRedo = redoSteps
        replace(marked, with: "", kind: .other)
        undoSteps = savedUndo
        redoSteps = savedRedo
        isCoalescing = wasCoalescing
    }

    /// How the cluster at `position` is drawn as part of the marked text: nil when it is not
    /// marked, the last of ``markedStyles`` that covers it, else ``PreeditStyle/default``.
    public func preeditStyle(at position: Int) -> PreeditStyle? {
        PreeditStyleRun.style(at: position, marked: markedRange, runs: markedStyles)
    }

    /// The clusters of `string` before UTF-8 byte `offset` (clamped); a cluster the offset
    /// falls inside counts when `roundingUp`.
    private static func clusters(in string: String, upToByte offset: Int, roundingUp: Bool) -> Int {
        let byte = min(max(offset, 0), string.utf8.count)
        var count = 0
        var index = string.startIndex
        let target = string.utf8.index(string.startIndex, offsetBy: byte)
        while index < target {
            let next = string.index(after: index)
            if next > target && !roundingUp { break }
            count += 1
            index = next
        }
        return count
    }

    /// The cluster position `bytes` UTF-8 bytes from the caret (negative: before it),
    /// clamped to the text and moved to the nearest cluster boundary towards the caret.
    private func position(bytesFromCaret bytes: Int) -> Int {
        let caretByte = text.utf8.distance(from: text.startIndex, to: caretIndex)
        let targetByte = min(max(caretByte + bytes, 0), text.utf8.count)
        if targetByte < caretByte {
            return caret - text[stringIndex(atOrAfterBackwards: targetByte)..<caretIndex].count
        }
        return caret + text[caretIndex..<stringIndex(atOrBeforeForwards: targetByte)].count
    }

    /// The cluster boundary at or after UTF-8 byte `offset`, which is before the caret.
    private func stringIndex(atOrAfterBackwards offset: Int) -> String.Index {
        var index = caretIndex
        let target = text.utf8.index(text.startIndex, offsetBy: offset)
        while index > target {
            let previous = text.index(before: index)
            if previous < target { break }
            index = previous
        }
        return index
    }

    /// The cluster boundary at or before UTF-8 byte `offset`, which is after the caret.
    private func stringIndex(atOrBeforeForwards offset: Int) -> String.Index {
        var index = caretIndex
        let target = text.utf8.index(text.startIndex, offsetBy: offset)
        while index < target {
            let next = text.index(after: index)
            if next > target { break }
            index = next
        }
        return index
    }

    /// The marked text's UTF-8 bytes in ``text`` (nil when nothing is marked); found from the
    /// caret, so it costs the preedit's length, not the text's.
    public var markedUTF8Range: Range<Int>? {
        guard let marked = markedRange else { return nil }
        let start = stringIndex(ofCharacter: marked.lowerBound), end = stringIndex(ofCharacter: marked.upperBound)
        return text.utf8.distance(from: text.startIndex, to: start)..<text.utf8.distance(from: text.startIndex, to: end)
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

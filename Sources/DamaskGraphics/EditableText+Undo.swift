import Foundation

/// Editing through one primitive, and undo and redo.
extension EditableText {
    /// What kind of edit a step is: consecutive steps of the same coalescing kind merge.
    enum EditKind: Equatable, Sendable {
        case typing, deletingBackward, deletingForward, other
    }

    /// One undoable change: the UTF-8 bytes at ``offset`` that were ``removed`` and what
    /// was ``inserted`` in their place, with the caret and anchor on either side. Offsets
    /// are in UTF-8 bytes, not clusters: an inserted combining mark joins the cluster
    /// before it, so cluster counts do not add up across an edit, bytes do.
    struct Edit: Equatable, Sendable {
        var offset: Int
        var removed: String
        var inserted: String
        var kind: EditKind
        var caretBefore: Int, anchorBefore: Int
        var caretAfter: Int
    }

    /// The most undo steps kept (the oldest are forgotten first).
    public static let undoLimit = 500

    /// Whether ``undo()`` would change something.
    public var canUndo: Bool { !undoSteps.isEmpty }

    /// Whether ``redo()`` would change something.
    public var canRedo: Bool { !redoSteps.isEmpty }

    /// Reverts the newest undo step (Ctrl+Z): the text it changed and the caret and
    /// selection from before it. Returns whether there was one.
    @discardableResult
    public mutating func undo() -> Bool {
        unmarkText()
        guard let step = undoSteps.popLast() else { return false }
        splice(at: step.offset, removing: step.inserted.utf8.count, inserting: step.removed)
        placeCaret(at: step.caretBefore)
        anchor = min(step.anchorBefore, count)
        redoSteps.append(step)
        isCoalescing = false
        return true
    }

    /// Reapplies the step ``undo()`` reverted last (Ctrl+Shift+Z, Ctrl+Y); returns whether
    /// there was one. Any new edit forgets the steps there were to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        unmarkText()
        guard let step = redoSteps.popLast() else { return false }
        splice(at: step.offset, removing: step.removed.utf8.count, inserting: step.inserted)
        placeCaret(at: step.caretAfter)
        anchor = caret
        undoSteps.append(step)
        isCoalescing = false
        return true
    }

    /// Replaces the clusters in `range` (clamped) with `string`, puts the caret after it
    /// and records the change as an undo step of `kind` (merged into the newest step when
    /// both are typing, or both deletions in the same direction, with no caret move in
    /// between).
    mutating func replace(_ range: Range<Int>, with string: String, kind: EditKind) {
        let lower = min(max(range.lowerBound, 0), count), upper = min(max(range.upperBound, lower), count)
        let start = stringIndex(ofCharacter: lower)
        // Typing replaces nothing: no index walked, no empty string made from a slice.
        let end = upper == lower ? start : text.index(start, offsetBy: upper - lower)
        let offset = text.utf8.distance(from: text.startIndex, to: start)
        let removed = upper == lower ? "" : String(text[start..<end])
        let step = Edit(
            offset: offset, removed: removed, inserted: string, kind: kind, caretBefore: caret, anchorBefore: anchor,
            caretAfter: 0)
        splice(at: offset, removing: removed.utf8.count, inserting: string)
        // The caret goes after the inserted text: as many clusters as the text up to it
        // holds (fewer than lower + string.count when a mark joined the cluster before).
        // splice left the caret at a cluster boundary before the change.
        let end8 = text.utf8.index(text.startIndex, offsetBy: offset + string.utf8.count)
        placeCaret(at: caret + text[caretIndex..<end8].count)
        anchor = caret
        record(step, caretAfter: caret)
    }

    private mutating func record(_ newStep: Edit, caretAfter: Int) {
        var step = newStep
        step.caretAfter = caretAfter
        redoSteps.removeAll()
        defer { isCoalescing = step.kind != .other }
        // The newest step is merged where it lies in the array: a copy of it would share its
        // strings, and appending to a shared string copies it whole (typing a paragraph was
        // quadratic, each key copying everything typed since the caret last moved).
        if isCoalescing, let newest = undoSteps.indices.last, undoSteps[newest].kind == step.kind,
            Self.merge(step, into: &undoSteps[newest])
        {
            undoSteps[newest].caretAfter = caretAfter
            return
        }
        appendStep(step)
    }

    /// Merges `step` into `last`, the newest step of the same kind, when it continues it
    /// (typing at its end, deleting backward from its start, deleting forward at its
    /// offset); returns whether it did.
    private static func merge(_ step: Edit, into last: inout Edit) -> Bool {
        assert(step.kind == last.kind, "only steps of one kind merge")
        switch step.kind {
        case .typing where last.offset + last.inserted.utf8.count == step.offset:
            last.inserted += step.inserted
        case .deletingBackward where step.offset + step.removed.utf8.count == last.offset:
            last.offset = step.offset
            last.removed = step.removed + last.removed
        case .deletingForward where step.offset == last.offset:
            last.removed += step.removed
        default:
            return false
        }
        return true
    }

    private mutating func appendStep(_ step: Edit) {
        undoSteps.append(step)
        if undoSteps.count > Self.undoLimit { undoSteps.removeFirst(undoSteps.count - Self.undoLimit) }
    }

    /// Replaces `length` UTF-8 bytes at byte `offset` with `string` and recounts the
    /// clusters around the change; leaves the caret (and its index) at a cluster boundary
    /// at or before the change, for the caller to place. Both offsets fall on scalar
    /// boundaries (they came from cluster indices or from an earlier edit).
    ///
    /// Grapheme breaks outside the clusters next to a change stay where they were (the
    /// rules look one scalar to the right of a break and only regional-indicator pairs
    /// and emoji ZWJ sequences look far to its left), so only the cluster before the
    /// change, the change and the cluster after it are recounted; with a regional
    /// indicator or a ZWJ near the change, the whole text is.
    private mutating func splice(at offset: Int, removing length: Int, inserting string: String) {
        let start = text.utf8.index(text.startIndex, offsetBy: offset)
        let end = text.utf8.index(start, offsetBy: length)
        // The cluster boundaries around the change, before it is made.
        let lowerCharacter = text[..<start].isEmpty ? 0 : max(characterPosition(atOrBefore: start) - 1, 0)
        let lowerIndex = stringIndex(ofCharacter: lowerCharacter)
        let lowerOffset = text.utf8.distance(from: text.startIndex, to: lowerIndex)
        var upperIndex = lowerIndex
        var upperCharacter = lowerCharacter
        while upperIndex < text.endIndex, upperIndex < end {
            upperIndex = text.index(after: upperIndex)
            upperCharacter += 1
        }
        if upperIndex < text.endIndex {
            upperIndex = text.index(after: upperIndex)
            upperCharacter += 1
        }
        let upperOffset = text.utf8.distance(from: text.startIndex, to: upperIndex)
        let risky = Self.joinsFar(text.utf8[lowerIndex..<upperIndex]) || Self.joinsFar(string.utf8)
        text.replaceSubrange(start..<end, with: string)
        revision += 1
        if recentSplices.count >= Self.recentSpliceLimit { recentSplices.removeFirst() }
        recentSplices.append(TextSplice(offset: offset, removedLength: length, insertedLength: string.utf8.count))
        let newLower = text.utf8.index(text.startIndex, offsetBy: lowerOffset)
        if risky {
            count = text.count
            caret = text[..<newLower].count
        } else {
            let newUpper = text.utf8.index(text.startIndex, offsetBy: upperOffset - length + string.utf8.count)
            count += text[newLower..<newUpper].count - (upperCharacter - lowerCharacter)
            caret = lowerCharacter
        }
        caretIndex = newLower
        assert(count == text.count, "cluster count \(count) after an edit, the text has \(text.count)")
    }

    /// The cluster position of the boundary at or before the scalar boundary `index`.
    private func characterPosition(atOrBefore index: String.Index) -> Int {
        // Walk from the caret (edits happen at or near it) or the start.
        var position = 0, current = text.startIndex
        if caretIndex <= index {
            position = caret
            current = caretIndex
        } else if text.utf8.distance(from: index, to: caretIndex) < text.utf8.distance(from: text.startIndex, to: index) {
            position = caret
            current = caretIndex
            while current > index {
                current = text.index(before: current)
                position -= 1
            }
            return position
        }
        while current < text.endIndex {
            let next = text.index(after: current)
            if next > index { break }
            current = next
            position += 1
        }
        return position
    }

    /// Whether `bytes` hold a regional indicator or a ZWJ, whose grapheme rules look far
    /// to the left of a break.
    private static func joinsFar<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        // U+200D is E2 80 8D; U+1F1E6…U+1F1FF are F0 9F 87 A6…BF.
        var previous: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for byte in bytes {
            if previous.1 == 0xE2, previous.2 == 0x80, byte == 0x8D { return true }
            if previous.0 == 0xF0, previous.1 == 0x9F, previous.2 == 0x87, byte >= 0xA6 { return true }
            previous = (previous.1, previous.2, byte)
        }
        return false
    }
}

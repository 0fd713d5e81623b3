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
        guard let step = undoSteps.popLast() else { return false }
        splice(at: step.offset, removing: step.inserted.utf8.count, inserting: step.removed)
        caret = min(step.caretBefore, text.count)
        anchor = min(step.anchorBefore, text.count)
        redoSteps.append(step)
        isCoalescing = false
        return true
    }

    /// Reapplies the step ``undo()`` reverted last (Ctrl+Shift+Z, Ctrl+Y); returns whether
    /// there was one. Any new edit forgets the steps there were to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let step = redoSteps.popLast() else { return false }
        splice(at: step.offset, removing: step.removed.utf8.count, inserting: step.inserted)
        caret = min(step.caretAfter, text.count)
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
        let lower = min(max(range.lowerBound, 0), text.count), upper = min(max(range.upperBound, lower), text.count)
        let start = text.index(text.startIndex, offsetBy: lower)
        let end = text.index(start, offsetBy: upper - lower)
        let offset = text.utf8.distance(from: text.startIndex, to: start)
        let removed = String(text[start..<end])
        let step = Edit(
            offset: offset, removed: removed, inserted: string, kind: kind, caretBefore: caret, anchorBefore: anchor,
            caretAfter: 0)
        splice(at: offset, removing: removed.utf8.count, inserting: string)
        // The caret goes after the inserted text: as many clusters as the text up to it
        // holds (fewer than lower + string.count when a mark joined the cluster before).
        let prefix = text.utf8.index(text.startIndex, offsetBy: offset + string.utf8.count)
        caret = text[..<prefix].count
        anchor = caret
        record(step, caretAfter: caret)
    }

    private mutating func record(_ newStep: Edit, caretAfter: Int) {
        var step = newStep
        step.caretAfter = caretAfter
        redoSteps.removeAll()
        defer { isCoalescing = step.kind != .other }
        if isCoalescing, var last = undoSteps.last, last.kind == step.kind {
            switch step.kind {
            case .typing where last.offset + last.inserted.utf8.count == step.offset:
                last.inserted += step.inserted
            case .deletingBackward where step.offset + step.removed.utf8.count == last.offset:
                last.offset = step.offset
                last.removed = step.removed + last.removed
            case .deletingForward where step.offset == last.offset:
                last.removed += step.removed
            default:
                appendStep(step)
                return
            }
            last.caretAfter = caretAfter
            undoSteps[undoSteps.count - 1] = last
            return
        }
        appendStep(step)
    }

    private mutating func appendStep(_ step: Edit) {
        undoSteps.append(step)
        if undoSteps.count > Self.undoLimit { undoSteps.removeFirst(undoSteps.count - Self.undoLimit) }
    }

    /// Replaces `count` UTF-8 bytes at byte `offset` with `string`. Both offsets fall on
    /// scalar boundaries (they came from cluster indices or from an earlier edit).
    private mutating func splice(at offset: Int, removing count: Int, inserting string: String) {
        let start = text.utf8.index(text.startIndex, offsetBy: offset)
        let end = text.utf8.index(start, offsetBy: count)
        text.replaceSubrange(start..<end, with: string)
    }
}

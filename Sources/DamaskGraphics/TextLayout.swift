import Foundation

/// A line of editable text laid out in one font in chunks, so that an edit lays out again
/// only the chunk it falls in and drawing touches only the chunks in view: a line of any
/// length shows, and a keystroke costs what it changes, not the line's length.
///
/// Chunks are shaped separately (``Font``'s shaping, bidi and fallback per chunk) and
/// placed side by side in the paragraph's direction. A chunk ends only where that changes
/// nothing: before a letter of the paragraph's direction that follows a space after
/// another such letter (no shaping crosses a space, and the bidi algorithm resolves that
/// space to the paragraph level whether or not the line is cut there), once the chunk holds
/// ``preferredLength`` clusters; and, in a run without such spaces (CJK, one long word),
/// between two such letters once it holds ``longestLength`` (a kerning pair may be lost
/// there). A line with no letter of the paragraph's direction at all stays one chunk.
/// Chunks are cut greedily from the start, so after an edit the chunks before it stay and
/// those after it are reused as soon as a new cut meets an old one.
///
/// A ``StyledRun`` (an input method's preedit in the language and direction the input
/// method types in) is a chunk of its own, shaped in its ``TextRunStyle`` and placed like
/// any chunk; the chunk after it is shaped in the paragraph's direction (it may start with a
/// letter of the other direction). An edit whose splices cover the old and the new run
/// (a preedit update) still lays out only what it touched.
///
/// Positions are cluster (`Character`) indices into the whole line, x offsets user units
/// from the line's origin, as ``Font``'s caret and selection functions give for a line.
public struct TextLayout: @unchecked Sendable {
    /// A run of the line shaped on its own in a style of its own.
    public struct StyledRun: Equatable, Sendable {
        /// Its UTF-8 bytes in the line (at cluster boundaries; non-empty).
        public var utf8Range: Range<Int>
        /// Its language and base direction.
        public var style: TextRunStyle

        /// Creates a run.
        public init(utf8Range: Range<Int>, style: TextRunStyle) {
            self.utf8Range = utf8Range
            self.style = style
        }
    }

    /// Clusters a chunk holds before it may end at a space.
    public static let preferredLength = 32
    /// Clusters a chunk holds before it may end between two letters.
    public static let longestLength = 48

    /// One chunk: its text, where it sits in the line, and its shaped line.
    struct Chunk {
        var text: String
        var utf8Start: Int
        var firstCharacter: Int
        var count: Int
        /// The shaped chunk, from the font's line cache (immutable, shared).
        var line: TextLine
        /// The style it was shaped in: the styled run's, the paragraph's direction for the
        /// chunk after it, nil (its own text's direction) for the others.
        var style: TextRunStyle?
        /// The widths of the chunks before this one in logical order.
        var precedingWidth: CGFloat = 0
        var width: CGFloat { line.width }
        var utf8Length: Int { text.utf8.count }
    }

    /// The font the line is laid out in.
    public let font: Font
    /// The chunks in logical order.
    private(set) var chunks: [Chunk] = []
    /// The line's advance width.
    public private(set) var width: CGFloat = 0
    /// Whether the paragraph direction is right to left.
    public private(set) var isRightToLeft = false
    /// How many clusters the line holds.
    public private(set) var count = 0
    /// The ``EditableText/revision`` this layout follows (see ``update(for:styledRun:)``).
    public private(set) var revision = -1
    /// The run shaped in a style of its own, if any.
    public private(set) var styledRun: StyledRun?

    /// Lays out `text` in `font`, `styledRun` in its own style (ignored when it is empty or
    /// reaches outside the text).
    public init(_ text: String, font: Font, styledRun: StyledRun? = nil) {
        self.font = font
        self.styledRun = Self.valid(styledRun, in: text)
        rebuild(text)
    }

    /// Lays out `editor`'s text in `font`, `styledRun` in its own style.
    public init(_ editor: EditableText, font: Font, styledRun: StyledRun? = nil) {
        self.init(editor.text, font: font, styledRun: styledRun)
        revision = editor.revision
    }

    /// How many chunks the line is laid out in.
    public var chunkCount: Int { chunks.count }
    /// How many clusters each chunk holds, in logical order.
    public var chunkCounts: [Int] { chunks.map(\.count) }

    /// Follows `editor` to its current text, `styledRun` in its own style (ignored when it is
    /// empty or reaches outside the text): when the edits since this layout are among its recent splices and cover the
    /// old and the new styled run where they differ, lays out only the chunks they touched;
    /// otherwise the whole line.
    public mutating func update(for editor: EditableText, styledRun newRun: StyledRun? = nil) {
        let newRun = Self.valid(newRun, in: editor.text)
        guard editor.revision != revision || newRun != styledRun else { return }
        let behind = editor.revision - revision
        let oldRun = styledRun
        styledRun = newRun
        if behind > 0, behind <= editor.recentSplices.count {
            let splices = editor.recentSplices.suffix(behind)
            let splice = splices.dropFirst().reduce(splices.first!) { $0.followed(by: $1) }
            if Self.splice(splice, covers: oldRun, and: newRun) {
                apply(splice, to: editor.text)
            } else {
                rebuild(editor.text)
            }
        } else {
            rebuild(editor.text)
        }
        revision = editor.revision
        assert(count == editor.count, "layout holds \(count) clusters, the editor \(editor.count)")
    }

    /// `run` when it is non-empty and within `text`'s bytes, else nil.
    private static func valid(_ run: StyledRun?, in text: String) -> StyledRun? {
        guard let run, !run.utf8Range.isEmpty, run.utf8Range.lowerBound >= 0, run.utf8Range.upperBound <= text.utf8.count
        else { return nil }
        return run
    }

    /// Whether laying out again what `splice` touched is enough to go from `old` to `new`:
    /// the run is the same and outside the change (moved with it), or the old one lay in the
    /// removed bytes and the new one lies in the inserted ones.
    static func splice(_ splice: TextSplice, covers old: StyledRun?, and new: StyledRun?) -> Bool {
        let removedEnd = splice.offset + splice.removedLength, insertedEnd = splice.offset + splice.insertedLength
        if let old {
            let range = old.utf8Range
            var moved: StyledRun?
            if range.upperBound <= splice.offset {
                moved = old
            } else if range.lowerBound >= removedEnd {
                let delta = splice.insertedLength - splice.removedLength
                moved = StyledRun(utf8Range: (range.lowerBound + delta)..<(range.upperBound + delta), style: old.style)
            }
            if let moved, moved == new { return true }
            guard range.lowerBound >= splice.offset, range.upperBound <= removedEnd else { return false }
        }
        if let new {
            guard new.utf8Range.lowerBound >= splice.offset, new.utf8Range.upperBound <= insertedEnd else { return false }
        }
        return true
    }

    // MARK: Queries

    /// The x of the caret at `position` (0…``count``), as ``Font/caretOffset(atCharacter:in:)``.
    public func caretOffset(at position: Int) -> CGFloat {
        guard !chunks.isEmpty else { return 0 }
        let chunk = chunkIndex(containing: position)
        return origin(of: chunk) + chunks[chunk].line.caretOffset(at: position - chunks[chunk].firstCharacter)
    }

    /// The caret positions of the chunks around `position` with their x: what visual
    /// caret movement chooses from (the nearest caret on screen is in the caret's chunk or
    /// at a neighbour's near edge).
    public func caretOffsets(around position: Int) -> [(position: Int, x: CGFloat)] {
        guard !chunks.isEmpty else { return [(0, 0)] }
        let middle = chunkIndex(containing: position)
        var result: [(position: Int, x: CGFloat)] = []
        for index in max(middle - 1, 0)...min(middle + 1, chunks.count - 1) {
            let chunk = chunks[index], x = origin(of: index)
            for local in 0...chunk.count {
                result.append((chunk.firstCharacter + local, x + chunk.line.caretOffset(at: local)))
            }
        }
        return result
    }

    /// The caret position (0…``count``) nearest to `x`.
    public func characterIndex(closestTo x: CGFloat) -> Int {
        guard !chunks.isEmpty else { return 0 }
        let index = chunkIndex(atX: x)
        return chunks[index].firstCharacter + chunks[index].line.caretIndex(closestTo: x - origin(of: index))
    }

    /// The x ranges covered by the clusters in `range`, left to right, merged where they
    /// touch; only the chunks overlapping `visible` (x, user units) are looked at.
    public func selectionRanges(for range: Range<Int>, visible: ClosedRange<CGFloat>) -> [ClosedRange<CGFloat>] {
        var pieces: [ClosedRange<CGFloat>] = []
        for index in chunkIndices(overlapping: visible) {
            let chunk = chunks[index]
            let lower = max(range.lowerBound - chunk.firstCharacter, 0)
            let upper = min(range.upperBound - chunk.firstCharacter, chunk.count)
            guard lower < upper else { continue }
            let x = origin(of: index)
            pieces += chunk.line.selectionRanges(for: lower..<upper).map { ($0.lowerBound + x)...($0.upperBound + x) }
        }
        pieces.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<CGFloat>] = []
        for piece in pieces {
            if let last = merged.last, piece.lowerBound <= last.upperBound + 0.01 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, piece.upperBound)
            } else {
                merged.append(piece)
            }
        }
        return merged
    }

    /// One chunk as laid out at one moment: where it sits and the shaped line it shows,
    /// kept so that after an edit a text view can tell the chunks that stayed exactly as
    /// they were (``isLaidOutLike(_:)``) from those whose clusters it must compare
    /// (``ClusterList``). Holds the chunk's text and line (shared, immutable): cheap to keep.
    public struct ChunkSnapshot {
        let text: String
        let line: TextLine
        /// The position of its first cluster in the line.
        public let firstCharacter: Int
        /// How many clusters it holds.
        public let count: Int
        /// Its left edge, user units from the line's origin.
        public let origin: CGFloat

        /// Whether `other` shows the same clusters at the same place from the same shaped
        /// line (so its pixels are the same).
        public func isLaidOutLike(_ other: ChunkSnapshot) -> Bool {
            line === other.line && firstCharacter == other.firstCharacter && count == other.count && origin == other.origin
        }
    }

    /// The chunks overlapping `visible` (x, user units; one more on each side), in logical
    /// order.
    public func chunks(overlapping visible: ClosedRange<CGFloat>) -> [ChunkSnapshot] {
        chunkIndices(overlapping: visible).map { index in
            let chunk = chunks[index]
            return ChunkSnapshot(
                text: chunk.text, line: chunk.line, firstCharacter: chunk.firstCharacter, count: chunk.count,
                origin: origin(of: index))
        }
    }

    /// Draws the chunks overlapping `visible` (x, user units from the line's origin) with
    /// the line's origin at `point`, as ``GraphicsContext/draw(_:at:font:color:)`` draws a
    /// line.
    public func draw(in context: GraphicsContext, at point: CGPoint, visible: ClosedRange<CGFloat>, color: Color) {
        for index in chunkIndices(overlapping: visible) {
            context.draw(chunks[index].line, at: CGPoint(x: point.x + origin(of: index), y: point.y), font: font, color: color)
        }
    }

    // MARK: Chunks

    /// The x of chunk `index`'s left edge.
    private func origin(of index: Int) -> CGFloat {
        isRightToLeft ? width - chunks[index].precedingWidth - chunks[index].width : chunks[index].precedingWidth
    }

    /// The chunk holding the cluster at `position` (the last one at the end).
    private func chunkIndex(containing position: Int) -> Int {
        var low = 0, high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunks[middle].firstCharacter <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The chunk under `x` (the nearest end one outside the line).
    private func chunkIndex(atX x: CGFloat) -> Int {
        // Logical distance from the paragraph's start edge.
        let distance = isRightToLeft ? width - x : x
        var low = 0, high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunks[middle].precedingWidth <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The chunks whose extent overlaps `visible`, with one more on each side (a glyph's
    /// ink may reach past its advance).
    private func chunkIndices(overlapping visible: ClosedRange<CGFloat>) -> ClosedRange<Int> {
        guard !chunks.isEmpty else { return 1...0 }
        let a = chunkIndex(atX: visible.lowerBound), b = chunkIndex(atX: visible.upperBound)
        return max(min(a, b) - 1, 0)...min(max(a, b) + 1, chunks.count - 1)
    }

    private mutating func rebuild(_ text: String) {
        isRightToLeft = Self.paragraphIsRightToLeft(text)
        // A one-chunk line edited is laid out again whole: its old line still helps shape it.
        let oldFirstLine = chunks.first?.line
        chunks = []
        appendChunks(of: text, from: text.startIndex, firstCharacter: 0, stopAt: nil, reusing: oldFirstLine)
        finish()
        // The first chunk's shaping decides the paragraph direction; should this guess
        // differ, the line is one chunk (always right), or three around a styled run.
        if let first = chunks.first(where: { $0.style == nil }), first.line.isRightToLeft != isRightToLeft {
            isRightToLeft = first.line.isRightToLeft
            chunks = []
            appendChunks(of: text, from: text.startIndex, firstCharacter: 0, stopAt: nil, cutsBetweenLetters: false)
            finish()
        }
    }

    /// Re-lays out after `splice` turned the old text into `text`: from the chunk before the
    /// change until a new cut meets an old one.
    private mutating func apply(_ splice: TextSplice, to text: String) {
        guard chunks.count > 1, Self.paragraphIsRightToLeft(text) == isRightToLeft else {
            rebuild(text)
            return
        }
        // The chunk holding the change's first byte (a change at a chunk's start belongs
        // to the chunk before: its cut depends on the clusters around it).
        var low = 0, high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunks[middle].utf8Start < splice.offset { low = middle } else { high = middle - 1 }
        }
        // A change after the chunk's first byte leaves its cut where it is (a cut depends on
        // the text before it and the first scalar after it), so the layout restarts there;
        // at the chunk's start, one chunk earlier. Typing at the end of a line then shapes
        // the last chunk again, not the two last.
        let restart = splice.offset > chunks[low].utf8Start ? low : max(low - 1, 0)
        let delta = splice.insertedLength - splice.removedLength
        let changeEnd = splice.offset + splice.insertedLength
        // Old cuts after the change, in new byte offsets, to meet.
        var oldCuts: [Int: Int] = [:]  // new utf8 start → old chunk index
        for index in (restart + 1)..<chunks.count where chunks[index].utf8Start >= splice.offset + splice.removedLength {
            oldCuts[chunks[index].utf8Start + delta] = index
        }
        // Only the chunks from the restart on are set aside (copying the whole array would
        // cost a retain per chunk of the line).
        let tail = Array(chunks[restart...])
        let restartChunk = chunks[restart]
        chunks.removeSubrange(restart...)
        assert(
            styledRun.map { !($0.utf8Range.lowerBound < restartChunk.utf8Start && restartChunk.utf8Start < $0.utf8Range.upperBound) }
                ?? true, "a layout restarts inside its styled run")
        let start = text.utf8.index(text.startIndex, offsetBy: restartChunk.utf8Start)
        let met = appendChunks(
            of: text, from: start, firstCharacter: restartChunk.firstCharacter,
            stopAt: { offset in offset >= changeEnd ? oldCuts[offset] : nil }, reusing: restartChunk.line)
        if let (oldIndex, firstCharacter) = met {
            let shift = firstCharacter - tail[oldIndex - restart].firstCharacter
            for var chunk in tail[(oldIndex - restart)...] {
                chunk.utf8Start += delta
                chunk.firstCharacter += shift
                chunks.append(chunk)
            }
        }
        finish(from: restart)
    }

    /// Cuts `text` from `start` (a cut) into chunks and appends them: by the rules above
    /// (only around the styled run when `cutsBetweenLetters` is false), and the styled run
    /// as one chunk. Before each cut after the first, asks `stopAt` with the cut's byte
    /// offset: a non-nil answer (an old chunk index) stops there, returned with the cut's
    /// cluster position. `oldLine`, the old line of the chunk that started at `start`, helps
    /// shape the first chunk (``Font/line(for:style:reusing:)``).
    @discardableResult
    private mutating func appendChunks(
        of text: String, from start: String.Index, firstCharacter: Int, stopAt: ((Int) -> Int?)?,
        cutsBetweenLetters: Bool = true, reusing oldLine: TextLine? = nil
    ) -> (Int, Int)? {
        var oldLine = oldLine
        var chunkStart = start
        var chunkFirst = firstCharacter
        var length = 0
        var previous: (String.ClusterHead?, String.ClusterHead?) = (nil, nil)
        var index = start
        let rightToLeft = isRightToLeft
        let paragraphStyle = TextRunStyle(direction: rightToLeft ? .rightToLeft : .leftToRight)
        // The styled run's bounds, when it is not before the start.
        let startOffset = text.utf8.distance(from: text.startIndex, to: start)
        let run = styledRun.flatMap { run -> (start: String.Index, end: String.Index, style: TextRunStyle)? in
            guard run.utf8Range.upperBound > startOffset else { return nil }
            return (
                text.utf8.index(text.startIndex, offsetBy: run.utf8Range.lowerBound),
                text.utf8.index(text.startIndex, offsetBy: run.utf8Range.upperBound), run.style
            )
        }
        var runDone = run == nil
        // The chunk after the styled run may start with a letter of the other direction.
        var chunkStyle: TextRunStyle? = styledRun?.utf8Range.upperBound == startOffset ? paragraphStyle : nil
        /// Ends the chunk being built at `end` (`count` clusters, shaped in `style`); unless
        /// it is the last, returns the meeting when `stopAt` finds an old cut there.
        func cut(at end: String.Index, count: Int, style: TextRunStyle?, last: Bool = false) -> (Int, Int)? {
            let offset = text.utf8.distance(from: text.startIndex, to: chunkStart)
            chunks.append(makeChunk(
                String(text[chunkStart..<end]), utf8Start: offset, firstCharacter: chunkFirst, count: count, style: style,
                reusing: oldLine))
            oldLine = nil
            chunkFirst += count
            chunkStart = end
            length = 0
            guard !last, let stopAt, let old = stopAt(text.utf8.distance(from: text.startIndex, to: end)) else { return nil }
            return (old, chunkFirst)
        }
        while index < text.endIndex {
            if !runDone, let run, index >= run.start {
                runDone = true
                if length > 0, let met = cut(at: index, count: length, style: chunkStyle) { return met }
                var runLength = 0
                var end = index
                while end < run.end, end < text.endIndex {
                    end = text.index(after: end)
                    runLength += 1
                }
                index = end
                previous = (nil, nil)
                chunkStyle = paragraphStyle
                if let met = cut(at: end, count: runLength, style: run.style) { return met }
                continue
            }
            let (head, next) = text.clusterHead(startingAt: index)
            if cutsBetweenLetters, length >= Self.preferredLength, Self.isStrong(head.scalar, rightToLeft: rightToLeft),
                (previous.1?.isSpace == true && previous.0.map { Self.isStrong($0.scalar, rightToLeft: rightToLeft) } == true)
                    || (length >= Self.longestLength
                        && previous.1.map { Self.isStrong($0.scalar, rightToLeft: rightToLeft) } == true)
            {
                let style = chunkStyle
                chunkStyle = nil
                if let met = cut(at: index, count: length, style: style) { return met }
            }
            previous = (previous.1, head)
            length += 1
            index = next
        }
        if length > 0 || chunks.isEmpty { _ = cut(at: text.endIndex, count: length, style: chunkStyle, last: true) }
        return nil
    }

    private func makeChunk(
        _ text: String, utf8Start: Int, firstCharacter: Int, count: Int, style: TextRunStyle?, reusing previous: TextLine?
    ) -> Chunk {
        Chunk(
            text: text, utf8Start: utf8Start, firstCharacter: firstCharacter, count: count,
            line: font.line(for: text, style: style, reusing: previous), style: style)
    }

    /// Sums the widths and the count, from chunk `first` on (the ones before are unchanged).
    private mutating func finish(from first: Int = 0) {
        let first = min(first, chunks.count)
        var total: CGFloat = first > 0 ? chunks[first - 1].precedingWidth + chunks[first - 1].width : 0
        for index in first..<chunks.count {
            chunks[index].precedingWidth = total
            total += chunks[index].width
        }
        width = total
        count = chunks.last.map { $0.firstCharacter + $0.count } ?? 0
    }

    /// Whether a cluster whose first scalar is `scalar` is a letter of the paragraph's
    /// direction.
    private static func isStrong(_ scalar: Unicode.Scalar, rightToLeft: Bool) -> Bool {
        if scalar.isASCII {  // the only alphabetic ASCII scalars are A–Z and a–z: no table
            let value = scalar.value | 0x20
            return !rightToLeft && value >= 0x61 && value <= 0x7A
        }
        guard scalar.properties.isAlphabetic,
            scalar.properties.generalCategory != .nonspacingMark, scalar.properties.generalCategory != .spacingMark
        else { return false }
        return isRightToLeftScript(scalar.value) == rightToLeft
    }

    /// Scalars of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, …).
    private static func isRightToLeftScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// The direction of the first letter (left to right when there is none).
    private static func paragraphIsRightToLeft(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            return isRightToLeftScript(scalar.value)
        }
        return false
    }
}

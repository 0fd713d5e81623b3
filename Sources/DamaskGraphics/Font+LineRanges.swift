import Foundation

/// Wrapping that keeps every character: for editable text, whose positions must survive it.
extension Font {
    /// The lines `paragraph` (one paragraph: no line breaks in it) wraps into at `width`
    /// (user units), as `Character` offset ranges that together cover it: the same break
    /// opportunities and widths as ``wrap(_:toWidth:)``, but the spaces at a wrapped line's
    /// end stay in that line (they hang past the width, as in a text editor) instead of being
    /// dropped. An empty paragraph is one empty line; a width of 0 or less wraps nothing.
    public func lineRanges(wrapping paragraph: String, toWidth width: CGFloat) -> [Range<Int>] {
        let characters = Array(paragraph)
        guard !characters.isEmpty, width > 0, measure(paragraph).width > width else { return [0..<characters.count] }
        func fits(_ range: Range<Int>) -> Bool {
            var end = range.upperBound  // trailing spaces hang: they are not measured
            while end > range.lowerBound, characters[end - 1].isWhitespace { end -= 1 }
            return measure(String(characters[range.lowerBound..<end])).width <= width
        }
        var segmentStarts = [0]
        for index in 1..<characters.count where Self.canBreak(between: characters[index - 1], and: characters[index]) {
            segmentStarts.append(index)
        }
        var ranges: [Range<Int>] = []
        var lineStart = 0, lineEnd = 0
        for (number, start) in segmentStarts.enumerated() {
            let end = number + 1 < segmentStarts.count ? segmentStarts[number + 1] : characters.count
            if lineEnd == lineStart || fits(lineStart..<end) {
                lineEnd = end
            } else {
                ranges.append(lineStart..<lineEnd)
                lineStart = start
                lineEnd = end
            }
            // A segment too wide on its own is split between clusters.
            while lineEnd - lineStart > 1, !fits(lineStart..<lineEnd) {
                var fit = lineStart + 1
                while fit < lineEnd, fits(lineStart..<(fit + 1)) { fit += 1 }
                ranges.append(lineStart..<fit)
                lineStart = fit
            }
        }
        ranges.append(lineStart..<lineEnd)
        return ranges
    }
}

import Foundation

/// Wrapping and truncation by shaped width.
extension Font {
    /// `text` broken into lines no wider than `width` (user units) where possible:
    /// at every line break (`\n`, `\r\n`, `\r`, U+2028, U+2029, U+0085, …), after spaces
    /// (not after a no-break space) and zero-width spaces, and between CJK characters (never
    /// before closing punctuation, CJK or Latin, nor after opening punctuation). Widths are
    /// shaped widths, as drawn. A word wider than `width` on its own is broken between
    /// grapheme clusters. Spaces at the end of a wrapped line are dropped.
    public func wrap(_ text: String, toWidth width: CGFloat) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lines += wrapParagraph(String(paragraph), width: width)
        }
        return lines
    }

    /// `text` shortened to fit `width` by dropping whole grapheme clusters from its end
    /// and adding "…" (unchanged when it already fits; "" when not even "…" fits).
    public func truncate(_ text: String, toWidth width: CGFloat) -> String {
        if measure(text).width <= width { return text }
        let characters = Array(text)
        var low = 0, high = characters.count - 1  // the longest prefix that fits, by bisection
        guard measure("…").width <= width else { return "" }
        while low < high {
            let middle = (low + high + 1) / 2
            if measure(String(characters[..<middle]) + "…").width <= width {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return String(characters[..<low]).trimmingTrailingWhitespace + "…"
    }

    private func wrapParagraph(_ paragraph: String, width: CGFloat) -> [String] {
        let characters = Array(paragraph)
        guard !characters.isEmpty, measure(paragraph).width > width else { return [paragraph] }
        // Segments end at break opportunities.
        var segments: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if index > 0, Self.canBreak(between: characters[index - 1], and: character), !current.isEmpty {
                segments.append(current)
                current = ""
            }
            current.append(character)
        }
        segments.append(current)

        var lines: [String] = []
        var line = ""
        for segment in segments {
            let candidate = line + segment
            if line.isEmpty || measure(candidate.trimmingTrailingWhitespace).width <= width {
                line = candidate
            } else {
                lines.append(line.trimmingTrailingWhitespace)
                line = segment
            }
            // A segment too wide on its own is split between clusters.
            while measure(line.trimmingTrailingWhitespace).width > width, line.count > 1 {
                let parts = Array(line)
                var fit = 1
                while fit < parts.count, measure(String(parts[..<(fit + 1)])).width <= width { fit += 1 }
                lines.append(String(parts[..<fit]))
                line = String(parts[fit...])
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line.trimmingTrailingWhitespace) }
        return lines
    }

    /// Whether a line may break between `before` and `after`.
    static func canBreak(between before: Character, and after: Character) -> Bool {
        if before == "\u{200B}" { return true }  // ZERO WIDTH SPACE: a break opportunity by itself
        if isNoBreakSpace(before) || isNoBreakSpace(after) { return false }
        if before.isWhitespace { return !after.isWhitespace }
        guard isCJK(before) || isCJK(after), !after.isWhitespace else { return false }
        return !closingPunctuation.contains(after) && !openingPunctuation.contains(before)
    }

    /// Spaces that glue their neighbours (no-break, narrow no-break and figure spaces, word
    /// joiner): a line never breaks at them.
    static func isNoBreakSpace(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let value = character.unicodeScalars.first?.value else { return false }
        return value == 0x00A0 || value == 0x202F || value == 0x2007 || value == 0x2060 || value == 0xFEFF
    }

    /// Han, kana, CJK symbols and fullwidth forms: scripts written without spaces, where
    /// a line may break between any two characters.
    static func isCJK(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        return (0x2E80...0x2FDF).contains(value) || (0x3000...0x30FF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFFEF).contains(value)
            || (0x20000...0x3FFFF).contains(value)
    }

    /// Punctuation a line never starts with (CJK and Latin closing punctuation, small kana,
    /// the prolonged sound mark, iteration marks).
    private static let closingPunctuation: Set<Character> = Set(
        "、。，．：；！？）」』】》〉〕｝］〗〙〛ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〻ゝゞヽヾ"
            + ".,:;!?)]}%…‥’”›»‼⁇⁈⁉")
    /// Punctuation a line never ends with (CJK and Latin opening brackets and quotes).
    private static let openingPunctuation: Set<Character> = Set("（「『【《〈〔｛［〖〘〚([{‘“‹«")
}

extension String {
    /// The string without whitespace at its end.
    fileprivate var trimmingTrailingWhitespace: String {
        var result = self
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}

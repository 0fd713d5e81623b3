import DamaskViews
import Foundation

/// The Text and EditableText interfaces, over ``AccessibilityTextProviding``. Offsets are
/// characters; an end of -1 means the end of the text.
extension AccessibilityBridge {
    private func characters(_ text: String) -> [Character] { Array(text) }

    private func clampedRange(_ start: Int, _ end: Int, count: Int) -> Range<Int> {
        let lower = min(max(start, 0), count)
        let upper = end < 0 ? count : min(max(end, lower), count)
        return lower..<upper
    }

    func text(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        guard let provider = node.accessible as? any AccessibilityTextProviding else { return nil }
        let all = characters(provider.accessibilityText)
        func arg(_ index: Int) -> Int { index < arguments.count ? Int(arguments[index].int32Value ?? 0) : 0 }
        func slice(_ range: Range<Int>) -> String { String(all[range]) }
        switch member {
        case "GetText":
            return [.string(slice(clampedRange(arg(0), arg(1), count: all.count)))]
        case "GetCharacterAtOffset":
            let offset = arg(0)
            guard all.indices.contains(offset), let scalar = all[offset].unicodeScalars.first else { return [.int32(0)] }
            return [.int32(Int32(scalar.value))]
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset", "GetStringAtOffset":
            let unit = member == "GetStringAtOffset" ? TextUnit(granularity: arg(1)) : TextUnit(boundary: arg(1))
            let range = boundary(all, offset: arg(0), unit: unit, member: member, provider: provider)
            return [.string(slice(range)), .int32(Int32(range.lowerBound)), .int32(Int32(range.upperBound))]
        case "SetCaretOffset":
            let offset = min(max(arg(0), 0), all.count)
            provider.setAccessibilitySelectedRange(offset..<offset)
            return [.boolean(true)]
        case "GetNSelections":
            return [.int32(provider.accessibilitySelectedRange.isEmpty ? 0 : 1)]
        case "GetSelection":
            let range = provider.accessibilitySelectedRange
            return range.isEmpty || arg(0) != 0 ? [.int32(0), .int32(0)] : [.int32(Int32(range.lowerBound)), .int32(Int32(range.upperBound))]
        case "AddSelection":
            provider.setAccessibilitySelectedRange(clampedRange(arg(0), arg(1), count: all.count))
            return [.boolean(true)]
        case "SetSelection":
            guard arg(0) == 0 else { return [.boolean(false)] }
            provider.setAccessibilitySelectedRange(clampedRange(arg(1), arg(2), count: all.count))
            return [.boolean(true)]
        case "RemoveSelection":
            let caret = provider.accessibilitySelectedRange.upperBound
            provider.setAccessibilitySelectedRange(caret..<caret)
            return [.boolean(true)]
        case "GetCharacterExtents":
            let rect = provider.accessibilityFrame(ofCharacterAt: arg(0))?.integral ?? .zero
            return [rect.minX, rect.minY, rect.width, rect.height].map { .int32(Int32($0)) }
        case "GetRangeExtents":
            let range = clampedRange(arg(0), arg(1), count: all.count)
            let rects = range.compactMap { provider.accessibilityFrame(ofCharacterAt: $0) }
            let union = rects.dropFirst().reduce(rects.first ?? .zero) { $0.union($1) }.integral
            return [union.minX, union.minY, union.width, union.height].map { .int32(Int32($0)) }
        case "GetOffsetAtPoint":
            let offset = provider.accessibilityCharacterOffset(at: CGPoint(x: arg(0), y: arg(1)))
            return [.int32(Int32(offset ?? -1))]
        case "GetAttributes", "GetAttributeRun":
            return [.dictionary([], valueSignature: "s"), .int32(0), .int32(Int32(all.count))]
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            return [.dictionary([], valueSignature: "s")]
        default:
            return nil
        }
    }

    /// What a Text query's range is made of: AT-SPI's boundary types (`GetTextAtOffset` and
    /// its Before/After: 0 char, 1–2 word start/end, 3–4 sentence start/end, 5–6 line
    /// start/end) and `GetStringAtOffset`'s granularities (0 char, 1 word, 2 sentence,
    /// 3 line, 4 paragraph).
    enum TextUnit: Equatable {
        case character, word, sentence, lineStart, lineEnd, paragraph

        init(boundary: Int) {
            switch boundary {
            case 1, 2: self = .word
            case 3, 4: self = .sentence
            case 5: self = .lineStart
            case 6: self = .lineEnd
            default: self = .character
            }
        }

        init(granularity: Int) {
            switch granularity {
            case 1: self = .word
            case 2: self = .sentence
            case 3: self = .lineStart
            case 4: self = .paragraph
            default: self = .character
            }
        }
    }

    /// The range of the character, word, sentence, line or paragraph around `offset`.
    /// Words keep the spaces after them; a sentence ends after ".", "!", "?" or "…" and the
    /// spaces after it, or at a line break; a line is the provider's
    /// (``AccessibilityTextProviding/accessibilityLineRange(containing:)``: a visual line of
    /// a text view, the whole text of a field), from its start to the next line's start
    /// (line end: from the end of the line before to its own end, without line breaks); a
    /// paragraph runs to the line break after it. "Before" and "After" take the unit
    /// before or after it.
    func boundary(
        _ all: [Character], offset: Int, unit kind: TextUnit, member: String, provider: any AccessibilityTextProviding
    ) -> Range<Int> {
        let offset = min(max(offset, 0), all.count)
        func lineStart(at position: Int) -> Range<Int> {
            provider.accessibilityLineRange(containing: position) ?? 0..<all.count
        }
        func unit(at position: Int) -> Range<Int> {
            switch kind {
            case .character: return position < all.count ? position..<(position + 1) : position..<position
            case .word:
                var start = position, end = position
                while start > 0, !all[start - 1].isWhitespace { start -= 1 }
                while end < all.count, !all[end].isWhitespace { end += 1 }
                while end < all.count, all[end].isWhitespace, all[end] != "\n" { end += 1 }  // a word with its space
                return start..<end
            case .sentence:
                func endsSentence(at index: Int) -> Bool {  // a sentence ends before `index`
                    guard index > 0, index < all.count else { return index >= all.count }
                    if all[index - 1] == "\n" { return true }
                    guard !all[index].isWhitespace else { return false }
                    var mark = index - 1
                    while mark > 0, all[mark].isWhitespace { mark -= 1 }
                    return mark < index - 1 && ".!?…".contains(all[mark])
                }
                var start = min(position, max(all.count - 1, 0)), end = position + 1
                while start > 0, !endsSentence(at: start) { start -= 1 }
                while end < all.count, !endsSentence(at: end) { end += 1 }
                return start..<min(end, all.count)
            case .lineStart:
                return lineStart(at: position)
            case .lineEnd:
                let line = lineStart(at: position)
                let lower = line.lowerBound > 0 && all[line.lowerBound - 1] == "\n" ? line.lowerBound - 1 : line.lowerBound
                let upper = line.upperBound > line.lowerBound && all[line.upperBound - 1] == "\n" ? line.upperBound - 1 : line.upperBound
                return lower..<upper
            case .paragraph:
                var start = position, end = position
                while start > 0, all[start - 1] != "\n" { start -= 1 }
                while end < all.count, all[end] != "\n" { end += 1 }
                return start..<min(end + 1, all.count)
            }
        }
        let here = unit(at: offset)
        switch member {
        case "GetTextBeforeOffset": return here.lowerBound > 0 ? unit(at: here.lowerBound - 1) : 0..<0
        case "GetTextAfterOffset": return here.upperBound < all.count ? unit(at: here.upperBound) : all.count..<all.count
        default: return here
        }
    }

    func editableText(_ member: String, _ arguments: [DBusValue], _ node: AtspiNode) -> [DBusValue]? {
        guard let provider = node.accessible as? any AccessibilityTextProviding, provider.isAccessibilityTextEditable
        else { return nil }
        let count = provider.accessibilityText.count
        func arg(_ index: Int) -> Int { index < arguments.count ? Int(arguments[index].int32Value ?? 0) : 0 }
        switch member {
        case "SetTextContents":
            return [.boolean(provider.replaceAccessibilityText(in: 0..<count, with: arguments.first?.stringValue ?? ""))]
        case "InsertText":
            let offset = min(max(arg(0), 0), count)
            let text = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
            let length = arguments.count > 2 ? arg(2) : text.count
            return [.boolean(provider.replaceAccessibilityText(in: offset..<offset, with: String(text.prefix(max(length, 0)))))]
        case "DeleteText":
            return [.boolean(provider.replaceAccessibilityText(in: clampedRange(arg(0), arg(1), count: count), with: ""))]
        case "CopyText":
            return []  // the clipboard is the text field's own (keyboard shortcuts)
        case "CutText", "PasteText":
            return [.boolean(false)]
        default:
            return nil
        }
    }
}

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
        case "GetTextAtOffset", "GetStringAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            let range = boundary(all, offset: arg(0), granularity: arg(1), member: member)
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
            let point = CGPoint(x: arg(0), y: arg(1))
            let offset = all.indices.first { provider.accessibilityFrame(ofCharacterAt: $0)?.contains(point) ?? false }
            return [.int32(Int32(offset ?? -1))]
        case "GetAttributes", "GetAttributeRun":
            return [.dictionary([], valueSignature: "s"), .int32(0), .int32(Int32(all.count))]
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            return [.dictionary([], valueSignature: "s")]
        default:
            return nil
        }
    }

    /// The range of the character, word or line around `offset` (AT-SPI's boundary types:
    /// 0 char, 1–2 word, 3–4 sentence, 5–6 line; a single-line field's sentence and line
    /// are the whole text). "Before" and "After" take the unit before or after it.
    private func boundary(_ all: [Character], offset: Int, granularity: Int, member: String) -> Range<Int> {
        let offset = min(max(offset, 0), all.count)
        func unit(at position: Int) -> Range<Int> {
            switch granularity {
            case 0: return position < all.count ? position..<(position + 1) : position..<position
            case 1, 2:
                var start = position, end = position
                while start > 0, !all[start - 1].isWhitespace { start -= 1 }
                while end < all.count, !all[end].isWhitespace { end += 1 }
                while end < all.count, all[end].isWhitespace { end += 1 }  // a word with its space
                return start..<end
            default:
                return 0..<all.count
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

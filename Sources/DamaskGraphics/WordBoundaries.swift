import Foundation

/// Word boundaries in a line of text by the rules of Unicode Standard Annex #29 (word
/// boundaries, WB1–WB16, WB999), over grapheme clusters (Swift `Character`s): what
/// Ctrl+←/→, Ctrl+Backspace/Delete and a double click use.
///
/// The Word_Break property of each cluster is derived from its first scalar's Unicode
/// properties (letters, digits, connector punctuation, spaces) and the annex's short
/// lists of mid-word and mid-number punctuation, so "can't", "e.g", "3.14" and "1,000"
/// are one word each, "foo_bar" is one word and Hangul syllables join into words.
/// Departures from the annex, stated: ideographs and kana without a dictionary break
/// between every cluster, as the annex's default rules do; runs of scripts that need a
/// dictionary (Thai, Lao, Khmer, Myanmar: Line_Break=SA) stay one word each rather than
/// breaking at every letter. Format characters (Cf, such as a soft hyphen) and the
/// clusters' own marks are ignored (WB4), since a cluster already holds its marks.
public struct WordBoundaries: Sendable {
    /// The text's clusters.
    public let characters: [Character]
    /// Every boundary (0…`characters.count`, ascending; always holds 0 and the end).
    public let boundaries: [Int]
    /// For every segment between consecutive boundaries, whether it is a word (holds a
    /// letter, a digit or an ideograph) rather than spaces or punctuation.
    public let isWord: [Bool]

    /// Finds the boundaries of `text`.
    public init(_ text: String) {
        self.init(characters: Array(text))
    }

    /// Finds the boundaries of `characters`.
    public init(characters: [Character]) {
        self.characters = characters
        let classes = characters.map(Self.wordBreakClass)
        var boundaries = [0]
        // The classes with WB4's ignorable clusters (Format) skipped, and where each is.
        let kept = classes.indices.filter { classes[$0] != .format }
        var keptPosition = 0
        for index in characters.indices.dropFirst() {
            // WB4: no boundary before an ignorable cluster (it attaches to what precedes),
            // except after a hard break (WB3a).
            if classes[index] == .format {
                if Self.isHardBreak(classes[index - 1]) { boundaries.append(index) }
                continue
            }
            while keptPosition < kept.count, kept[keptPosition] < index { keptPosition += 1 }
            if Self.breaks(at: keptPosition, kept: kept, classes: classes) { boundaries.append(index) }
        }
        if !characters.isEmpty { boundaries.append(characters.count) }
        self.boundaries = boundaries
        var isWord: [Bool] = []
        for segment in 0..<max(boundaries.count - 1, 0) {
            isWord.append(characters[boundaries[segment]..<boundaries[segment + 1]].contains(where: Self.isWordCharacter))
        }
        self.isWord = isWord
    }

    /// The segment (word, spaces or punctuation) holding the cluster at `index`, or the
    /// last one when `index` is the end: what a double click selects.
    public func segment(at index: Int) -> Range<Int> {
        guard boundaries.count > 1 else { return 0..<0 }
        let position = min(max(index, 0), characters.count - 1)
        let segment = segmentIndex(containing: position)
        return boundaries[segment]..<boundaries[segment + 1]
    }

    /// Where Ctrl+→ goes from `position` in a left-to-right line: the end of the word
    /// after the caret (skipping spaces and punctuation), or the end of the text.
    public func nextWordEnd(after position: Int) -> Int {
        for segment in 0..<isWord.count where isWord[segment] && boundaries[segment + 1] > position {
            return boundaries[segment + 1]
        }
        return characters.count
    }

    /// Where Ctrl+← goes from `position` in a left-to-right line: the start of the word
    /// before the caret (skipping spaces and punctuation), or the start of the text.
    public func previousWordStart(before position: Int) -> Int {
        for segment in stride(from: isWord.count - 1, through: 0, by: -1)
        where isWord[segment] && boundaries[segment] < position {
            return boundaries[segment]
        }
        return 0
    }

    private func segmentIndex(containing position: Int) -> Int {
        var low = 0, high = boundaries.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if boundaries[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: The rules

    /// The annex's Word_Break values this implementation tells apart.
    enum Class: Equatable {
        case cr, lf, newline, format, katakana, hebrewLetter, aLetter, singleQuote, doubleQuote
        case midNumLet, midLetter, midNum, numeric, extendNumLet, wSegSpace, regionalIndicator
        /// A letter of a script that needs a dictionary (Line_Break=SA): kept together.
        case complexContext
        case other
    }

    /// Whether there is a boundary before the kept cluster `kept[position]` (WB3–WB999),
    /// looking at kept (non-ignorable) neighbours.
    private static func breaks(at position: Int, kept: [Int], classes: [Class]) -> Bool {
        guard position > 0, position < kept.count else { return true }
        func at(_ offset: Int) -> Class? {
            let index = position + offset
            return index >= 0 && index < kept.count ? classes[kept[index]] : nil
        }
        let before = at(-1)!, after = at(0)!
        // A Format cluster between kept clusters was skipped: the rules see through it,
        // except that hard breaks (WB3a, WB3b) look at direct neighbours.
        if before == .cr, after == .lf, kept[position] == kept[position - 1] + 1 { return false }  // WB3
        if isHardBreak(before) || isHardBreak(after) { return true }  // WB3a, WB3b
        if before == .wSegSpace, after == .wSegSpace, kept[position] == kept[position - 1] + 1 { return false }  // WB3d
        let isAHLetter: (Class?) -> Bool = { $0 == .aLetter || $0 == .hebrewLetter }
        let isMidLetterQ: (Class?) -> Bool = { $0 == .midLetter || $0 == .midNumLet || $0 == .singleQuote }
        let isMidNumQ: (Class?) -> Bool = { $0 == .midNum || $0 == .midNumLet || $0 == .singleQuote }
        if isAHLetter(before), isAHLetter(after) { return false }  // WB5
        if isAHLetter(before), isMidLetterQ(after), isAHLetter(at(1)) { return false }  // WB6
        if isAHLetter(at(-2)), isMidLetterQ(before), isAHLetter(after) { return false }  // WB7
        if before == .hebrewLetter, after == .singleQuote { return false }  // WB7a
        if before == .hebrewLetter, after == .doubleQuote, at(1) == .hebrewLetter { return false }  // WB7b
        if at(-2) == .hebrewLetter, before == .doubleQuote, after == .hebrewLetter { return false }  // WB7c
        if before == .numeric, after == .numeric { return false }  // WB8
        if isAHLetter(before), after == .numeric { return false }  // WB9
        if before == .numeric, isAHLetter(after) { return false }  // WB10
        if at(-2) == .numeric, isMidNumQ(before), after == .numeric { return false }  // WB11
        if before == .numeric, isMidNumQ(after), at(1) == .numeric { return false }  // WB12
        if before == .katakana, after == .katakana { return false }  // WB13
        let joinsExtendNumLet: (Class) -> Bool = { isAHLetter($0) || $0 == .numeric || $0 == .katakana }
        if joinsExtendNumLet(before) || before == .extendNumLet, after == .extendNumLet { return false }  // WB13a
        if before == .extendNumLet, joinsExtendNumLet(after) { return false }  // WB13b
        if before == .complexContext, after == .complexContext { return false }  // SA runs (see the type)
        // WB15, WB16: regional indicators pair into flags, and a cluster already is a
        // whole flag (grapheme rules GB12, GB13), so two flag clusters break between them.
        return true  // WB999
    }

    private static func isHardBreak(_ value: Class) -> Bool {
        value == .cr || value == .lf || value == .newline
    }

    /// Whether a cluster makes its segment a word: a letter, a digit or an ideograph.
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || scalar.properties.generalCategory == .decimalNumber
    }

    /// The Word_Break class of a cluster: that of its first scalar (a cluster's marks and
    /// joiners are Extend/ZWJ, which WB4 attaches to it), two regional indicators a flag.
    static func wordBreakClass(_ character: Character) -> Class {
        guard let scalar = character.unicodeScalars.first else { return .other }
        let value = scalar.value
        switch value {
        case 0x0D: return character.unicodeScalars.count > 1 ? .newline : .cr
        case 0x0A: return .lf
        case 0x0B, 0x0C, 0x85, 0x2028, 0x2029: return .newline
        case 0x27: return .singleQuote
        case 0x22: return .doubleQuote
        case 0x2E, 0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E: return .midNumLet
        case 0x3A, 0xB7, 0x387, 0x55F, 0x5F4, 0x2027, 0xFE13, 0xFE55, 0xFF1A: return .midLetter
        case 0x2C, 0x3B, 0x37E, 0x589, 0x60C, 0x60D, 0x66C, 0x7F8, 0x2044, 0xFE10, 0xFE14, 0xFE50, 0xFE54, 0xFF0C, 0xFF1B:
            return .midNum
        case 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: return .wSegSpace
        case 0x202F: return .extendNumLet
        case 0x1F1E6...0x1F1FF: return .regionalIndicator
        case 0x3031...0x3035, 0x309B, 0x309C, 0x30A0...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0x32D0...0x32FE,
            0x3300...0x3357, 0xFF66...0xFF9D, 0x1B000:
            return .katakana
        case 0x05D0...0x05EA, 0x05EF...0x05F2, 0xFB1D, 0xFB1F...0xFB28, 0xFB2A...0xFB4F: return .hebrewLetter
        default: break
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .format: return value == 0x200C || value == 0x200D ? .other : .format
        case .connectorPunctuation: return .extendNumLet
        case .decimalNumber: return (0xFF10...0xFF19).contains(value) ? .other : .numeric
        default: break
        }
        if isComplexContext(value) {
            return properties.isAlphabetic || properties.generalCategory == .nonspacingMark ? .complexContext : .other
        }
        guard properties.isAlphabetic, !properties.isIdeographic else { return .other }
        // Hiragana (and the ideographs above) are not ALetter: each is its own segment.
        if (0x3040...0x309F).contains(value) || (0x1B001...0x1B11F).contains(value) { return .other }
        return .aLetter
    }

    /// Scripts written without spaces whose words need a dictionary (Line_Break=SA):
    /// Thai, Lao, Myanmar, Khmer, Tai Le, New Tai Lue, Tai Tham, Tai Viet.
    private static func isComplexContext(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1950...0x19DF, 0x1A20...0x1AAF, 0xA9E0...0xA9FF,
            0xAA60...0xAADF, 0x19E0...0x19FF:
            return true
        default: return false
        }
    }
}

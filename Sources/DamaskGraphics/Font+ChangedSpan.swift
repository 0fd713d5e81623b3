import Foundation

extension Font {
    /// The horizontal span (user units from the line's origin) outside which drawing
    /// `new` paints exactly the pixels drawing `old` painted; `nil` when the strings are
    /// equal. For redrawing only the glyphs that differ (a label whose text changes).
    ///
    /// The characters both strings share at the start and at the end are kept when they
    /// stay in place (kerning moves the glyph after a pair, which the caret positions
    /// catch); the span covers the old and new extents of the rest, one character more on
    /// each side where letters meet (a ligature can take in a shared letter), and a margin
    /// for ink beyond the advances. Text with combining marks, bidirectional runs or complex
    /// scripts (any scalar from U+0300 up) gets the whole width of both strings.
    public func changedSpan(from old: String, to new: String) -> ClosedRange<CGFloat>? {
        guard old != new else { return nil }
        let oldWidth = measure(old).width, newWidth = measure(new).width
        let margin = (size * 0.1).rounded(.up)
        let whole = -margin...(max(oldWidth, newWidth) + margin)
        let isSimple = { (text: String) in text.unicodeScalars.allSatisfy { $0.value < 0x300 } }
        guard isSimple(old), isSimple(new) else { return whole }
        let oldCharacters = Array(old), newCharacters = Array(new)
        var prefix = 0
        while prefix < oldCharacters.count, prefix < newCharacters.count,
            oldCharacters[prefix] == newCharacters[prefix]
        {
            prefix += 1
        }
        var suffix = 0
        while suffix < oldCharacters.count - prefix, suffix < newCharacters.count - prefix,
            oldCharacters[oldCharacters.count - 1 - suffix] == newCharacters[newCharacters.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldTail = oldCharacters.count - suffix, newTail = newCharacters.count - suffix
        // Letters on both sides of a boundary may form a ligature: take one more character.
        let joinsAtStart = prefix > 0 && oldCharacters[prefix - 1].isLetter
            && ((prefix < oldCharacters.count && oldCharacters[prefix].isLetter)
                || (prefix < newCharacters.count && newCharacters[prefix].isLetter))
        let joinsAtEnd = suffix > 0 && oldCharacters[oldTail].isLetter
            && ((oldTail > 0 && oldCharacters[oldTail - 1].isLetter) || (newTail > 0 && newCharacters[newTail - 1].isLetter))
        let start = joinsAtStart ? prefix - 1 : prefix
        let low = min(caretOffset(atCharacter: start, in: old), caretOffset(atCharacter: start, in: new))
        let extra = joinsAtEnd ? 1 : 0
        let high: CGFloat
        if caretOffset(atCharacter: oldTail, in: old) == caretOffset(atCharacter: newTail, in: new) {
            // The shared end stays in place: stop there.
            high = max(
                caretOffset(atCharacter: min(oldCharacters.count, oldTail + extra), in: old),
                caretOffset(atCharacter: min(newCharacters.count, newTail + extra), in: new))
        } else {
            high = max(oldWidth, newWidth)  // the shared end moved: all of it differs
        }
        return (low - margin)...(high + margin)
    }
}

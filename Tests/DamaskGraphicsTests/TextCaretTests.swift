import DamaskGraphics
import Foundation
import Testing

/// Caret movement, deletion and hit testing over grapheme clusters and bidirectional text.
@Suite("Carets over grapheme clusters and bidirectional text", .timeLimit(.minutes(5)))
struct TextCaretTests {
    /// Clusters that are one caret step and one deletion each, with the scalars they hold.
    static let clusters: [(name: String, cluster: String)] = [
        ("Hangul syllable", "한"),
        ("Hangul jamo sequence", "\u{1112}\u{1161}\u{11AB}"),
        ("e + combining acute", "e\u{0301}"),
        ("emoji ZWJ sequence", "👩\u{200D}💻"),
        ("flag", "🇮🇩"),
        ("Bengali vowel sign", "কি"),
        ("Arabic letter + harakat", "\u{0628}\u{064E}"),
        ("Hebrew letter + point", "\u{05E9}\u{05C1}"),
    ]

    @Test("a cluster of several scalars is one caret step and one Backspace", arguments: clusters.map(\.name))
    func clusterIsOneStep(name: String) throws {
        let cluster = try #require(Self.clusters.first { $0.name == name }).cluster
        #expect(cluster.unicodeScalars.count > 1 || name == "Hangul syllable")
        var field = EditableText("a" + cluster + "b")
        #expect(field.text.count == 3)
        let font = try Font(size: 16)
        let firstMove = field.moveLeft(in: font)
        #expect(firstMove && field.caret == 2)
        let secondMove = field.moveLeft(in: font)
        #expect(secondMove && field.caret == 1)
        field.moveCaret(to: 2)
        let deletedBackward = field.deleteBackward()
        #expect(deletedBackward && field.text == "ab" && field.caret == 1)
        field = EditableText("a" + cluster + "b", caret: 1)
        let deletedForward = field.deleteForward()
        #expect(deletedForward)
        #expect(field.text == "ab" && field.caret == 1)
    }

    @Test("Bengali conjuncts and Korean words delete one cluster at a time, never a broken scalar")
    func seedWordsDeleteByCluster() throws {
        for word in ["অ্যাপ্লিকেশনে", "সংকেত", "강제로", "寄宿圖", "مرحبا", "שלום"] {
            var field = EditableText(word)
            var steps = 0
            while field.deleteBackward() {
                steps += 1
                // What is left is always a prefix of whole clusters of the word.
                #expect(word.hasPrefix(field.text))
                #expect(Array(word.prefix(field.text.count)) == Array(field.text))
            }
            #expect(steps == word.count)
        }
    }

    @Test("typing a combining mark after a letter joins its cluster and keeps the caret after it")
    func combiningInsert() {
        var field = EditableText("ce")
        field.insert("\u{0301}")
        #expect(field.text == "cé" && field.text.count == 2 && field.caret == 2)
        field.moveCaret(to: 1)
        field.insert("ক্")
        field.insert("ষ")
        #expect(field.text.hasPrefix("cক্ষ"))
        #expect(field.caret <= field.text.count)
    }

    @Test("in a left-to-right line the caret moves right through Latin and left through an Arabic run")
    func bidiCaretInLeftToRightLine() throws {
        let font = try Font(size: 20)
        let text = "abc مرحبا"
        #expect(!font.isRightToLeft(text))
        let offsets = (0...text.count).map { font.caretOffset(atCharacter: $0, in: text) }
        for index in 0..<4 { #expect(offsets[index] < offsets[index + 1], "\(offsets)") }
        // Inside the Arabic run (logical 5…9) each step forward moves the caret left.
        for index in 5..<text.count { #expect(offsets[index] > offsets[index + 1], "\(offsets)") }
        let width = font.measure(text).width
        #expect(offsets[5] <= width + 0.01 && offsets[5] > offsets[4])
        // The end of the text sits at the left end of the Arabic run, just after the space.
        #expect(abs(offsets[text.count] - offsets[4]) < 0.5, "\(offsets)")
    }

    @Test("in a right-to-left line the caret starts at the right edge and a Latin run reads left to right")
    func bidiCaretInRightToLeftLine() throws {
        let font = try Font(size: 20)
        let text = "שלום abc"
        #expect(font.isRightToLeft(text))
        let width = font.measure(text).width
        let offsets = (0...text.count).map { font.caretOffset(atCharacter: $0, in: text) }
        #expect(abs(offsets[0] - width) < 0.5, "\(offsets)")
        for index in 0..<4 { #expect(offsets[index] > offsets[index + 1], "\(offsets)") }
        // "abc" sits at the left, read left to right: carets after a, b, c increase.
        #expect(offsets[6] < offsets[7] && offsets[7] < offsets[8], "\(offsets)")
        #expect(offsets[5] < offsets[4])
        // The arrows follow the paragraph: Left moves forward in a right-to-left line.
        var field = EditableText(text, caret: 0)
        field.moveLeft(in: font)
        #expect(field.caret == 1)
        #expect(field.caretOffset(in: font) < offsets[0])
    }

    @Test("in a right-to-left line a number reads left to right, and the caret steps through it digit by digit")
    func numbersInsideRightToLeftText() throws {
        let font = try Font(size: 20)
        for text in ["مرحبا 2026 عالم", "שלום 3.14 עולם"] {
            #expect(font.isRightToLeft(text))
            let offsets = (0...text.count).map { font.caretOffset(atCharacter: $0, in: text) }
            let characters = Array(text)
            let digits = characters.indices.filter { characters[$0].isNumber || characters[$0] == "." }
            let first = try #require(digits.first), last = try #require(digits.last)
            // Inside the number each step forward moves the caret right.
            for index in (first + 1)..<last { #expect(offsets[index] < offsets[index + 1], "\(text): \(offsets)") }
            // The number as a whole sits left of the word before it, right of the word after it.
            let ranges = font.selectionRanges(forCharacters: first..<(last + 1), in: text)
            let before = font.selectionRanges(forCharacters: 0..<(first - 1), in: text)
            let after = font.selectionRanges(forCharacters: (last + 2)..<text.count, in: text)
            #expect(ranges.count == 1 && before.count == 1 && after.count == 1)
            if let number = ranges.first, let b = before.first, let a = after.first {
                #expect(number.upperBound <= b.lowerBound + 0.01 && a.upperBound <= number.lowerBound + 0.01, "\(text)")
            }
            // Backspace from the end of the number removes its last digit.
            var field = EditableText(text, caret: last + 1)
            field.deleteBackward()
            #expect(field.text == String(characters[..<last]) + String(characters[(last + 1)...]))
        }
    }

    @Test("a selection across a Latin to Arabic boundary is logical and drawn in two pieces; Shift+Right moves its caret right on screen")
    func shiftSelectionAcrossBidiBoundary() throws {
        let font = try Font(size: 20)
        let text = "abc مرحبا def"
        var field = EditableText(text, caret: 2)
        for _ in 0..<2 { field.moveRight(in: font, extending: true) }
        #expect(field.selection == 2..<4)
        // Into the Arabic run from its left end: the caret before its last letter in logical order.
        field.moveRight(in: font, extending: true)
        #expect(field.selection == 2..<8 && field.caretOffset(in: font) > font.caretOffset(atCharacter: 4, in: text))
        field.moveCaret(to: 6, extending: true)
        #expect(field.selection == 2..<6 && field.selectedText == "c مر")
        let pieces = font.selectionRanges(forCharacters: field.selection, in: text)
        #expect(pieces.count == 2, "\(pieces)")
        // The pieces cover exactly the ink of "c " and of the first two Arabic letters.
        let c = font.selectionRanges(forCharacters: 2..<4, in: text), arabic = font.selectionRanges(forCharacters: 4..<6, in: text)
        #expect(pieces == (c + arabic).sorted { $0.lowerBound < $1.lowerBound }, "\(pieces) vs \(c) \(arabic)")
        // Shift+Left moves the caret left on screen, forwards in the Arabic run; typing replaces the selection.
        field.moveLeft(in: font, extending: true)
        #expect(field.selection == 2..<7)
        field.moveCaret(to: 5, extending: true)
        field.insert("X")
        #expect(field.text == "abXرحبا def" && field.caret == 3)
    }

    @Test("clicking at a caret's x finds that caret; selections split where the direction changes")
    func hitTestingAndSelection() throws {
        let font = try Font(size: 20)
        let text = "abc مرحبا def"
        var seen = Set<Int>()
        for index in 0...text.count {
            let x = font.caretOffset(atCharacter: index, in: text)
            let key = Int((x * 4).rounded())
            guard !seen.contains(key) else { continue }  // direction boundaries share an x
            seen.insert(key)
            #expect(font.characterIndex(closestTo: x, in: text) == index, "caret \(index) at \(x)")
        }
        // "c", " ", and the first two Arabic letters: the Latin piece and the right end of
        // the Arabic run are not adjacent on screen.
        let pieces = font.selectionRanges(forCharacters: 2..<6, in: text)
        #expect(pieces.count == 2, "\(pieces)")
        let all = font.selectionRanges(forCharacters: 0..<text.count, in: text)
        #expect(all.count == 1)
        if let whole = all.first { #expect(abs(whole.upperBound - font.measure(text).width) < 0.5) }
    }

    @Test("shaping is used: Arabic letters join and the line is narrower than the isolated forms")
    func arabicJoins() throws {
        let font = try Font(size: 20)
        let joined = font.measure("بببب").width
        let isolated = font.measure("ب ب ب ب").width - 3 * font.measure(" ").width
        #expect(joined < isolated - 1, "joined \(joined), isolated \(isolated)")
        #expect(font.faceNames(for: "한국어") != font.faceNames(for: "abc"))
        #expect(font.missingCharacterCount(in: "한국어 中文 বাংলা") == 0)
        #expect(font.missingCharacterCount(in: "\u{E000}") == 1)
    }
}

/// Selecting in an ``EditableText``: by grapheme cluster, from a fixed anchor, replaced by
/// typing, and by words.
@Suite("Selection over grapheme clusters", .timeLimit(.minutes(5)))
struct TextSelectionTests {
    @Test("Shift+Left selects whole clusters from the anchor; typing replaces them")
    func extendAndReplace() throws {
        let font = try Font(size: 16)
        var field = EditableText("ab한e\u{0301}")
        let changed1 = field.moveLeft(in: font, extending: true)
        #expect(changed1)
        let changed2 = field.moveLeft(in: font, extending: true)
        #expect(changed2)
        #expect(field.selection == 2..<4 && field.anchor == 4 && field.caret == 2)
        #expect(field.selectedText == "한e\u{0301}")
        field.insert("z")
        #expect(field.text == "abz" && field.caret == 3 && !field.hasSelection)
    }

    @Test("A plain arrow collapses the selection to its edge in reading order, in both directions")
    func arrowsCollapse() throws {
        let font = try Font(size: 16)
        var latin = EditableText("abcdef")
        latin.select(1..<4)
        let changed3 = latin.moveLeft(in: font)
        #expect(changed3)
        #expect(latin.caret == 1 && !latin.hasSelection)
        var hebrew = EditableText("שלום עולם")
        hebrew.select(1..<4)
        // In a right-to-left paragraph Left moves forward in logical order: to the end.
        let changed4 = hebrew.moveLeft(in: font)
        #expect(changed4)
        #expect(hebrew.caret == 4 && !hebrew.hasSelection)
    }

    @Test("Backspace and Delete remove the selection only")
    func deleteSelection() {
        var field = EditableText("hello world")
        field.select(5..<11)
        let changed5 = field.deleteBackward()
        #expect(changed5)
        #expect(field.text == "hello" && field.caret == 5)
        field.select(0..<2)
        let changed6 = field.deleteForward()
        #expect(changed6)
        #expect(field.text == "llo" && field.caret == 0)
        let changed9 = field.deleteSelection()
        #expect(!changed9)
    }

    @Test("A word is a run of letters, marks and digits by cluster; spaces and punctuation are runs of their own")
    func words() throws {
        let field = EditableText("UIView를 강제로, অ্যাপ্লিকেশনে 42!")
        let characters = Array(field.text)
        func word(at index: Int) -> String { String(characters[field.wordRange(at: index)]) }
        #expect(word(at: 2) == "UIView를")
        #expect(word(at: 9) == "강제로")
        #expect(word(at: 11) == ",")
        #expect(word(at: 7) == " ")
        let bengali = try #require(characters.firstIndex { $0.unicodeScalars.first == "অ" })
        #expect(word(at: bengali + 1) == "অ্যাপ্লিকেশনে")
        #expect(word(at: characters.count) == "!")
        #expect(EditableText("").wordRange(at: 0) == 0..<0)
    }

    @Test("Select all, and moving with extending from a selection keeps its anchor")
    func selectAllAndExtend() {
        var field = EditableText("abc", caret: 1)
        field.selectAll()
        #expect(field.selection == 0..<3 && field.selectedText == "abc")
        let changed7 = field.moveCaret(to: 1, extending: true)
        #expect(changed7)
        #expect(field.selection == 0..<1)
        let changed8 = field.moveCaret(to: 2)
        #expect(changed8)
        #expect(!field.hasSelection && field.caret == 2)
        let changed10 = field.moveCaret(to: 2)
        #expect(!changed10)
    }
}

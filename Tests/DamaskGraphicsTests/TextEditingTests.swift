import Foundation
import Testing

@testable import DamaskGraphics

/// Word boundaries (UAX #29) and the word moves and deletions built on them.
@Suite("Word boundaries and word editing", .timeLimit(.minutes(5)))
struct WordEditingTests {
    /// The segments of `text` as strings.
    static func segments(_ text: String) -> [String] {
        let words = WordBoundaries(text)
        return zip(words.boundaries, words.boundaries.dropFirst()).map { String(words.characters[$0..<$1]) }
    }

    /// The word segments of `text` as strings.
    static func words(_ text: String) -> [String] {
        let words = WordBoundaries(text)
        return zip(words.boundaries, words.boundaries.dropFirst()).enumerated()
            .filter { words.isWord[$0.offset] }.map { String(words.characters[$0.element.0..<$0.element.1]) }
    }

    @Test("apostrophes, decimal points and thousands separators stay inside words and numbers (WB6–WB12)")
    func midWordPunctuation() {
        #expect(Self.segments("can't stop") == ["can't", " ", "stop"])
        #expect(Self.segments("pi is 3.14, or 1,000.5!") == ["pi", " ", "is", " ", "3.14", ",", " ", "or", " ", "1,000.5", "!"])
        #expect(Self.words("e.g. foo_bar x2 2x") == ["e.g", "foo_bar", "x2", "2x"])
        // A trailing apostrophe or point is not inside the word.
        #expect(Self.segments("dogs' end.") == ["dogs", "'", " ", "end", "."])
        // Runs of spaces are one segment (WB3d), punctuation one segment per mark.
        #expect(Self.segments("a   b--c") == ["a", "   ", "b", "-", "-", "c"])
    }

    @Test("Hangul, Arabic, Hebrew and Bengali words are whole; ideographs and kana break per character; a flag is one segment")
    func scripts() {
        #expect(Self.words("한국어 입력기를 씁니다") == ["한국어", "입력기를", "씁니다"])
        #expect(Self.words("مرحبا بالعالم") == ["مرحبا", "بالعالم"])
        #expect(Self.words("שלום צה\"ל") == ["שלום", "צה\"ל"])  // WB7b/WB7c: a Hebrew acronym
        #expect(Self.words("অ্যাপ্লিকেশনে সংকেত") == ["অ্যাপ্লিকেশনে", "সংকেত"])
        #expect(Self.words("中文输入") == ["中", "文", "输", "入"])
        #expect(Self.words("カタカナひら") == ["カタカナ", "ひ", "ら"])  // WB13 joins katakana only
        #expect(Self.segments("🇮🇩🇯🇵") == ["🇮🇩", "🇯🇵"])
        #expect(Self.segments("a\u{00AD}b c") == ["a\u{00AD}b", " ", "c"])  // WB4: a soft hyphen is ignored
    }

    @Test("Ctrl+Right goes to the next word end and Ctrl+Left to the previous word start, skipping spaces and punctuation")
    func wordMoves() throws {
        let font = try Font(size: 16)
        let text = "The quick, brown fox."
        var field = EditableText(text, caret: 0)
        var stops: [Int] = []
        while field.moveWordRight(in: font) { stops.append(field.caret) }
        #expect(stops == [3, 9, 16, 20, 21])
        stops = []
        while field.moveWordLeft(in: font) { stops.append(field.caret) }
        #expect(stops == [17, 11, 4, 0])
        // Shift extends by words from the anchor.
        field.moveCaret(to: 4)
        field.moveWordRight(in: font, extending: true)
        field.moveWordRight(in: font, extending: true)
        #expect(field.selectedText == "quick, brown")
        // In a right-to-left paragraph Ctrl+Left goes forwards (leftwards on screen).
        var hebrew = EditableText("שלום עולם טוב", caret: 0)
        hebrew.moveWordLeft(in: font)
        #expect(hebrew.caret == 4)
        hebrew.moveWordRight(in: font)
        #expect(hebrew.caret == 0)
    }

    @Test("Ctrl+Backspace and Ctrl+Delete delete to the word boundary; with a selection they delete it")
    func wordDeletes() {
        var field = EditableText("one two, three  ")
        field.deleteWordBackward()
        #expect(field.text == "one two, " && field.caret == 9)
        field.deleteWordBackward()
        #expect(field.text == "one " && field.caret == 4)
        field.moveCaret(to: 0)
        field.deleteWordForward()
        #expect(field.text == " " && field.caret == 0)
        let nothing = field.deleteWordBackward()
        #expect(!nothing)
        var korean = EditableText("한국어 입력기", caret: 3)
        korean.deleteWordForward()
        #expect(korean.text == "한국어" && korean.caret == 3)
        korean.deleteWordBackward()
        #expect(korean.text == "" && korean.caret == 0)
        var selected = EditableText("alpha beta gamma")
        selected.select(2..<8)
        selected.deleteWordBackward()
        #expect(selected.text == "alta gamma" && selected.caret == 2)
    }

    @Test("a double click's word range follows the word boundaries")
    func doubleClickWord() {
        let field = EditableText("say can't, then 3.14")
        #expect(field.wordRange(at: 5) == 4..<9)  // "can't"
        #expect(field.wordRange(at: 9) == 9..<10)  // ","
        #expect(field.wordRange(at: 18) == 16..<20)  // "3.14"
        #expect(field.wordRange(at: 20) == 16..<20)  // the end: the last segment
        #expect(EditableText("").wordRange(at: 0) == 0..<0)
    }
}

/// Undo and redo in an ``EditableText``.
@Suite("Undo and redo", .timeLimit(.minutes(5)))
struct UndoTests {
    @Test("consecutive typing is one undo step; a caret move starts a new one; redo reapplies")
    func typingCoalesces() {
        var field = EditableText()
        for character in "hello" { field.type(String(character)) }
        field.moveCaret(to: 0)
        for character in ">> " { field.type(String(character)) }
        #expect(field.text == ">> hello")
        let changed1 = field.undo()
        #expect(changed1)
        #expect(field.text == "hello" && field.caret == 0)
        let changed2 = field.undo()
        #expect(changed2)
        #expect(field.text == "" && field.caret == 0)
        let noMoreUndo = field.undo()
        #expect(!noMoreUndo && !field.canUndo)
        let changed3 = field.redo()
        #expect(changed3)
        #expect(field.text == "hello" && field.caret == 5)
        let changed4 = field.redo()
        #expect(changed4)
        #expect(field.text == ">> hello" && field.caret == 3)
        let noMoreRedo = field.redo()
        #expect(!noMoreRedo && !field.canRedo)
    }

    @Test("a run of Backspaces or of Deletes is one step; undo restores the text and the caret")
    func deletionsCoalesce() {
        var field = EditableText("abcdef", caret: 4)
        field.deleteBackward()
        field.deleteBackward()
        field.deleteForward()
        field.deleteForward()
        #expect(field.text == "ab" && field.caret == 2)
        field.undo()
        #expect(field.text == "abef" && field.caret == 2)
        field.undo()
        #expect(field.text == "abcdef" && field.caret == 4)
    }

    @Test("typing over a selection and the typing after it are one step, a paste and a word deletion steps of their own; undo restores the selection")
    func separateSteps() {
        var field = EditableText("hello world")
        field.select(6..<11)
        field.type("t")
        field.type("here")
        field.insert("!")
        field.deleteWordBackward()
        #expect(field.text == "hello ")
        field.undo()
        #expect(field.text == "hello there!")
        field.undo()
        #expect(field.text == "hello there")
        field.undo()
        #expect(field.text == "hello world" && field.selection == 6..<11 && field.caret == 11)
        // A new edit after an undo forgets what there was to redo.
        field.type("x")
        #expect(!field.canRedo && field.text == "hello x")
    }

    @Test("undo is exact over clusters that join: a combining mark, Hangul jamo, a flag's halves")
    func joiningClusters() {
        for (base, addition) in [("cafe", "\u{0301}"), ("\u{1112}\u{1161}", "\u{11AB}"), ("x🇮", "🇩")] {
            var field = EditableText(base)
            field.type(addition)
            #expect(field.text == base + addition && field.caret == (base + addition).count)
            field.type("z")
            field.undo()
            #expect(field.text == base && field.caret == base.count)
            field.redo()
            #expect(field.text == base + addition + "z" && field.caret == field.text.count)
        }
    }

    @Test("typing appends to the newest undo step where it lies: its text is reallocated only as it grows, not copied per key")
    func typingGrowsTheStepInPlace() {
        var field = EditableText()
        var storages: Set<UInt> = []
        for index in 0..<2_000 {
            field.type(index % 7 == 6 ? " " : "a")
            // Large strings only: a small one lives inside the value and has no storage.
            guard let step = field.undoSteps.last, step.inserted.utf8.count > 15 else { continue }
            if let address = step.inserted.utf8.withContiguousStorageIfAvailable({ UInt(bitPattern: $0.baseAddress) }) {
                storages.insert(address)
            }
        }
        #expect(field.undoSteps.count == 1 && field.undoSteps[0].inserted.utf8.count == 2_000)
        // Growth doubles the capacity: about log2(2000 / 16) ≈ 7 storages; a copy per key
        // would make nearly 2,000.
        #expect(!storages.isEmpty && storages.count <= 16, "\(storages.count) storages for one step")
        field.undo()
        #expect(field.text.isEmpty)
    }

    @Test("the history is bounded")
    func bounded() {
        var field = EditableText()
        for index in 0..<(EditableText.undoLimit + 20) {
            field.insert("\(index % 10)")
        }
        var undone = 0
        while field.undo() { undone += 1 }
        #expect(undone == EditableText.undoLimit)
        #expect(field.text.count == 20)
    }
}

/// Visual caret movement: ← moves the drawn caret left on screen in any mix of directions.
@Suite("Visual caret movement in bidirectional text", .timeLimit(.minutes(5)))
struct VisualCaretTests {
    static let lines = ["abc مرحبا def", "שלום abc עולם", "abc שלום 123 עולם xyz", "مرحبا 2026 عالم", "plain latin", "עברית בלבד"]

    @Test("every Right moves the caret right on screen until the right end, every Left left", arguments: lines)
    func monotone(text: String) throws {
        let font = try Font(size: 20)
        let offsets = font.caretOffsets(in: text)
        for start in [0, text.count / 2, text.count] {
            var field = EditableText(text, caret: start)
            var x = field.caretOffset(in: font)
            var steps = 0
            while field.moveRight(in: font) {
                let next = field.caretOffset(in: font)
                #expect(next > x, "\(text): Right from \(x) went to \(next)")
                x = next
                steps += 1
            }
            #expect(abs(x - offsets.max()!) < 0.01, "\(text): Right stops short of the right end")
            while field.moveLeft(in: font) {
                let next = field.caretOffset(in: font)
                #expect(next < x, "\(text): Left from \(x) went to \(next)")
                x = next
                steps += 1
            }
            #expect(abs(x - offsets.min()!) < 0.01, "\(text): Left stops short of the left end")
            #expect(steps >= text.count)
        }
    }

    @Test("inside an Arabic word of a Latin line, Left moves forwards in logical order (leftwards on screen)")
    func leftInsideArabic() throws {
        let font = try Font(size: 20)
        var field = EditableText("abc مرحبا def", caret: 6)
        field.moveLeft(in: font)
        #expect(field.caret == 7)
        field.moveRight(in: font)
        field.moveRight(in: font)
        #expect(field.caret == 5)
        // In a plain left-to-right line Left is one cluster back.
        var latin = EditableText("abcdef", caret: 3)
        latin.moveLeft(in: font)
        #expect(latin.caret == 2)
    }

    @Test("a plain arrow collapses a selection at its end drawn on that side")
    func collapse() throws {
        let font = try Font(size: 20)
        var field = EditableText("abc مرحبا def")
        field.select(5..<7)  // two Arabic letters: logical 5 is drawn right of 7
        field.moveLeft(in: font)
        #expect(field.caret == 7 && !field.hasSelection)
        field.select(5..<7)
        field.moveRight(in: font)
        #expect(field.caret == 5 && !field.hasSelection)
    }
}

/// Edits recount clusters only around the change; the count must always be the text's.
@Suite("Cluster counts kept across edits", .timeLimit(.minutes(5)))
struct ClusterCountTests {
    @Test("random edits with joining marks, jamo, flags and ZWJ sequences keep count, caret and undo exact")
    func randomEdits() {
        let pieces = ["a", " ", "\u{0301}", "e", "\u{1112}", "\u{1161}", "\u{11AB}", "🇮", "🇩", "👩", "\u{200D}", "💻", "한", "م", "\r", "\n", "ক্", "ষ"]
        var generator = SplitMix(seed: 29)
        var field = EditableText()
        var history: [String] = [""]
        for _ in 0..<600 {
            switch generator.next() % 6 {
            case 0, 1, 2: field.type(pieces[Int(generator.next() % UInt64(pieces.count))])
            case 3: field.deleteBackward()
            case 4: field.moveCaret(to: Int(generator.next() % UInt64(field.count + 1)))
            default: field.select(Int(generator.next() % UInt64(field.count + 1))..<field.count)
            }
            #expect(field.count == field.text.count, "\(field.text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(field.caret <= field.count && field.anchor <= field.count)
            if history.last != field.text { history.append(field.text) }
        }
        // Undoing everything walks back to the empty text through states the text had.
        while field.undo() {
            #expect(field.count == field.text.count)
            #expect(history.contains(field.text))
        }
        #expect(field.text == "")
    }
}

/// A small deterministic generator for reproducible random edits.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

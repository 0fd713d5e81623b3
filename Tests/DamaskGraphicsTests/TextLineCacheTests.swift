import Testing

@testable import DamaskGraphics

/// Laid-out lines are cached per string and font: the same text in the same font is laid
/// out once, whichever `String` value carries it, and no other text or font shares its line.
@Suite("Text line cache", .timeLimit(.minutes(5)))
struct TextLineCacheTests {
    @Test("the same text in the same font is one cached line, also when looked up again after other lines")
    func sameTextIsOneLine() throws {
        let font = Font.system(size: 15)
        let bengali = "আমি আমার অ্যাপ্লিকেশনে একটি ভিউ আঁকি"
        let library = FreeTypeLibrary.shared
        // The cache is the process's: tests running in parallel may fill it until it is
        // emptied, and then a line is laid out again. An attempt during which that happened
        // says nothing and is made again (at most 5 times).
        for _ in 1...5 {
            let clears = library.withLock { library.lineCacheClearCountLocked }
            let first = font.line(for: bengali)
            // An equal string with its own storage finds the same line.
            let rebuilt = String(String.UnicodeScalarView(bengali.unicodeScalars.map { $0 }))
            let again = font.line(for: rebuilt)
            // After more lines than the recently-used look-up holds, still the same line.
            for index in 0..<(FreeTypeLibrary.recentLineLimit * 2) { _ = font.line(for: "other line \(index)") }
            let afterOthers = font.line(for: bengali)
            guard library.withLock({ library.lineCacheClearCountLocked }) == clears else { continue }
            #expect(again === first)
            #expect(afterOthers === first)
            #expect(first.serial != 0)
            return
        }
        Issue.record("the line cache was emptied during each of 5 attempts")
    }

    @Test("strings of the same length, or the same string in another size, never share a line")
    func otherTextOrSizeIsAnotherLine() throws {
        let font = Font.system(size: 15)
        let a = font.line(for: "Damask draws lines")
        let b = font.line(for: "Damask draws lines".uppercased())
        #expect(a !== b)
        #expect(a.serial != b.serial)
        #expect(b.width > a.width)
        // Looked up again, each finds its own line (the recent look-up compares bytes).
        #expect(font.line(for: "Damask draws lines") === a)
        #expect(font.line(for: "DAMASK DRAWS LINES") === b)
        let larger = Font.system(size: 30).line(for: "Damask draws lines")
        #expect(larger !== a)
        #expect(larger.width > a.width * 1.9)
    }

    @Test("a typed key's chunk is kept by its layout, not added to the cache; a laid-out line still is")
    func editedChunksStayOutOfTheCache() throws {
        let font = try Font(size: 16)
        let library = FreeTypeLibrary.shared
        for _ in 1...5 {
            // Text no other test (or earlier attempt) lays out, short enough to stay one
            // chunk when typed into: no other line can be found for it or for what is typed.
            let unique = "probe \(UInt32.random(in: 0...UInt32.max)) "
            let clears = library.withLock { library.lineCacheClearCountLocked }
            var editor = EditableText(unique)
            var layout = TextLayout(editor, font: font)
            let laidOut = try #require(layout.chunks.last?.line)
            var typedLines: [TextLine] = []
            for character in "typed" {
                editor.type(String(character))
                layout.update(for: editor)
                typedLines.append(try #require(layout.chunks.last?.line))
            }
            #expect(layout.chunkCount == 1)
            let typedText = try #require(layout.chunks.last?.text)
            // Looked up now, the laid-out text is the cached line; the typed text is shaped
            // anew (its layout's line was never cached), and is cached from then on.
            let laidOutAgain = font.line(for: unique)
            let typedAgain = font.line(for: typedText)
            guard library.withLock({ library.lineCacheClearCountLocked }) == clears else { continue }
            #expect(laidOutAgain === laidOut)
            #expect(typedAgain !== typedLines.last)
            #expect(font.line(for: typedText) === typedAgain)
            // An edit is shaped, never looked up: the text of a cached line gives a new line.
            let editedAgain = font.line(for: typedText, reusing: typedLines.last)
            #expect(editedAgain !== typedAgain && editedAgain.serial > typedAgain.serial)
            // Each typed key shaped a line of its own, with a serial of its own (masks are
            // keyed by it), and the layout still draws what a fresh layout draws.
            #expect(Set(typedLines.map(\.serial)).count == typedLines.count && !typedLines.contains { $0.serial == 0 })
            #expect(abs(layout.width - TextLayout(editor.text, font: font).width) < 0.001)
            return
        }
        Issue.record("the line cache was emptied during each of 5 attempts")
    }
}

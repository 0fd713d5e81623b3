import DamaskGraphics
import Foundation
import Testing

/// ``TextLayout``: a line laid out in chunks matches the whole line's layout, follows edits
/// incrementally, and draws at any length.
@Suite("Text layout in chunks", .timeLimit(.minutes(5)))
struct TextLayoutTests {
    /// Lines long enough to be cut into several chunks, in both directions and mixed.
    static let lines: [String] = [
        String(repeating: "the quick brown fox jumps over the lazy dog ", count: 6),
        String(repeating: "שלום עולם ומה שלומך היום ", count: 8),
        String(repeating: "abc مرحبا بالعالم def ghi ", count: 8),
        String(repeating: "한국어 입력기를 씁니다 ", count: 12),
        String(repeating: "中文输入法测试", count: 30),
    ]

    @Test("caret offsets, hit tests and the width match the whole line's layout", arguments: lines.indices)
    func matchesWholeLine(index: Int) throws {
        let text = Self.lines[index]
        let font = try Font(size: 16)
        let layout = TextLayout(text, font: font)
        #expect(layout.chunkCount > 1, "the line should be cut")
        #expect(layout.count == text.count)
        #expect(layout.isRightToLeft == font.isRightToLeft(text))
        #expect(abs(layout.width - font.measure(text).width) < 0.5)
        let whole = font.caretOffsets(in: text)
        var worst: CGFloat = 0
        for position in 0...text.count { worst = max(worst, abs(layout.caretOffset(at: position) - whole[position])) }
        #expect(worst < 0.5, "caret offsets differ by up to \(worst)")
        for position in stride(from: 0, through: text.count, by: 7) {
            let x = layout.caretOffset(at: position)
            #expect(abs(layout.caretOffset(at: layout.characterIndex(closestTo: x)) - x) < 0.5)
        }
        let selected = layout.selectionRanges(for: 3..<40, visible: -1e9...1e9)
        let expected = font.selectionRanges(forCharacters: 3..<40, in: text)
        #expect(selected.count == expected.count)
        for (a, b) in zip(selected, expected) { #expect(abs(a.lowerBound - b.lowerBound) < 0.5 && abs(a.upperBound - b.upperBound) < 0.5) }
    }

    @Test("after random edits the incremental layout equals a fresh one, chunk for chunk")
    func incrementalEqualsFresh() throws {
        let font = try Font(size: 16)
        var generator = SplitMix(seed: 2029)
        for base in Self.lines {
            var editor = EditableText(base, caret: base.count / 2)
            var layout = TextLayout(editor, font: font)
            for _ in 0..<60 {
                switch generator.next() % 7 {
                case 5: editor.apply(InputMethodUpdate(preedit: ["ㅎ", "하", "ni hao", "中"][Int(generator.next() % 4)], preeditCursor: 0..<0))
                case 6: editor.apply(InputMethodUpdate(commit: "한", deleteBefore: Int(generator.next() % 4), deleteAfter: Int(generator.next() % 4)))
                case 0: editor.moveCaret(to: Int(generator.next() % UInt64(editor.count + 1)))
                case 1: editor.deleteBackward()
                case 2: editor.type(["a", " ", "ש", "한", "中", "\u{0301}", "x y"][Int(generator.next() % 7)])
                case 3: editor.undo()
                default: editor.deleteWordForward()
                }
                layout.update(for: editor)
                let fresh = TextLayout(editor.text, font: font)
                #expect(layout.count == editor.count && layout.chunkCount == fresh.chunkCount)
                #expect(abs(layout.width - fresh.width) < 0.001)
                for position in stride(from: 0, through: editor.count, by: 5) {
                    #expect(layout.caretOffset(at: position) == fresh.caretOffset(at: position))
                }
            }
        }
    }

    @Test(
        "a word without spaces is cut every 48 clusters between two letters, every ASCII letter counting (A–Z, a–z) and nothing else",
        arguments: ["a", "z", "A", "Z", "é", "1", "_", "@", "[", "`", "{"])
    func longWordsAreCutBetweenLetters(_ piece: String) throws {
        let font = try Font(size: 16)
        let layout = TextLayout(String(repeating: piece, count: 100), font: font)
        let isLetter = piece.unicodeScalars.first!.properties.isAlphabetic
        #expect(layout.chunkCounts == (isLetter ? [48, 48, 4] : [100]), "\(piece)")
    }

    @Test(
        "the clusters a chunk lists are the line's characters in order, with their extents, ASCII or not",
        arguments: lines + [String(repeating: "plain ascii words, cut into chunks ", count: 8), "two\r\nlines\r\nin ascii"])
    func chunksListTheirClusters(text: String) throws {
        let layout = TextLayout(text, font: try Font(size: 16))
        var clusters = TextLayout.ClusterList()
        for chunk in layout.chunks(overlapping: -1e9...1e9) { clusters.append(chunk, reaching: -1e9...1e9) }
        #expect((0..<clusters.count).map { clusters.text(at: $0) } == text.map { Substring(String($0)) })
        #expect(clusters.clusters.map(\.position) == Array(0..<text.count))
        for (index, cluster) in clusters.clusters.enumerated() {
            let edges = [layout.caretOffset(at: index), layout.caretOffset(at: index + 1)]
            if !layout.isRightToLeft, !text.unicodeScalars.contains(where: { $0.value >= 0x0590 }) {
                #expect(abs(cluster.extent.lowerBound - edges.min()!) < 0.5 && abs(cluster.extent.upperBound - edges.max()!) < 0.5)
            }
        }
        // Only clusters reaching a range are listed.
        let middle = layout.width / 2
        var reaching = TextLayout.ClusterList()
        for chunk in layout.chunks(overlapping: middle...middle) { reaching.append(chunk, reaching: middle...middle) }
        #expect(reaching.count > 0 && reaching.clusters.allSatisfy { $0.extent.contains(middle) })
    }

    @Test("listed clusters compare by their bytes: the same cluster in other chunks matches, another or a decomposed one does not")
    func listedClustersCompareByBytes() throws {
        let font = try Font(size: 16)
        func list(_ text: String) -> TextLayout.ClusterList {
            var list = TextLayout.ClusterList()
            for chunk in TextLayout(text, font: font).chunks(overlapping: -1e9...1e9) { list.append(chunk, reaching: -1e9...1e9) }
            return list
        }
        let before = list("x한국어 caf\u{E9} 👩‍💻 \r\n" + String(repeating: "word ", count: 20))
        let after = list("y한국어 cafe\u{301} 👩‍💻 \r\n" + String(repeating: "word ", count: 20))
        #expect(!before.hasSameText(at: 0, as: 0, in: after))  // x, y
        for position in [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 20, 100] {  // 한 국 어 space c a f, space 👩‍💻 space CR LF, words
            #expect(before.hasSameText(at: position, as: position, in: after), "\(position): \(before.text(at: position))")
        }
        #expect(before.text(at: 8) == "\u{E9}" && after.text(at: 8) == "e\u{301}")
        #expect(!before.hasSameText(at: 8, as: 8, in: after))  // equal Characters, other bytes: redrawn
        #expect(before.text(at: 10) == "👩‍💻" && before.text(at: 12) == "\r\n")
        // "w" of two words: in the first chunk (not ASCII) and in an ASCII one.
        #expect(before.text(at: 13) == "w" && after.text(at: 103) == "w" && before.hasSameText(at: 13, as: 103, in: after))
        #expect(!before.hasSameText(at: 13, as: 14, in: before))  // "w", "o"
        // Clusters that share their first bytes: 한 and 항 (ED 95 9C, ED 95 AD); e and e + ◌́.
        let hangul = list("한항"), letters = list("ee\u{301}")
        #expect(!hangul.hasSameText(at: 0, as: 1, in: hangul) && !letters.hasSameText(at: 0, as: 1, in: letters))
        #expect(hangul.hasSameText(at: 0, as: 1, in: before))  // 한 in a list of its own and in a longer line
        // Clusters longer than eight bytes compare whole: these two differ in their ninth.
        let scientist = list("👩‍🔬")
        #expect(scientist.text(at: 0) == "👩‍🔬" && !before.hasSameText(at: 10, as: 0, in: scientist))
    }

    @Test("typing at the end of a long line lays out only the last chunks again")
    func typingAtTheEndIsLocal() throws {
        let font = try Font(size: 16)
        var editor = EditableText(String(repeating: "lorem ipsum dolor sit amet ", count: 400))
        var layout = TextLayout(editor, font: font)
        let chunks = layout.chunkCount
        #expect(chunks > 100)
        for character in "consectetur adipiscing" { editor.type(String(character)) }
        layout.update(for: editor)
        #expect(layout.count == editor.count && layout.chunkCount >= chunks)
        #expect(abs(layout.caretOffset(at: editor.count) - layout.width) < 0.01)
    }

    @Test("a line wider than 32,767 device pixels draws its visible end (it used to be blank), laid out in chunks or drawn as one string")
    func longLineDraws() throws {
        let font = try Font(size: 16)
        let text = String(repeating: "wide line ", count: 600) + "END"
        let layout = TextLayout(text, font: font)
        let scale: CGFloat = 2
        #expect(layout.width * scale > 32_767)
        let bitmap = try Bitmap(width: 400, height: 60)
        let context = GraphicsContext(bitmap: bitmap)
        context.scaleBy(x: scale, y: scale)
        // The line's end at the right of the 200-point-wide view.
        let origin = CGPoint(x: 190 - layout.width, y: 20)
        layout.draw(in: context, at: origin, visible: (-origin.x)...(200 - origin.x), color: .black)
        let inked = (0..<400).filter { x in (0..<60).contains { bitmap.pixel(x: x, y: $0) >> 24 != 0 } }
        #expect(inked.count > 40, "only \(inked.count) columns inked")
        // The string drawing of the whole line: its first draw, cut by the clip, renders only
        // the glyphs in the clip, so it no longer meets pixman's 16-bit extents either.
        let whole = try Bitmap(width: 400, height: 60)
        let wholeContext = GraphicsContext(bitmap: whole)
        wholeContext.scaleBy(x: scale, y: scale)
        wholeContext.draw(text, at: origin, font: font, color: .black)
        let wholeInked = (0..<400).filter { x in (0..<60).contains { whole.pixel(x: x, y: $0) >> 24 != 0 } }
        #expect(wholeInked.count > 40, "only \(wholeInked.count) columns inked")
    }

    @Test("visual arrows in a chunked line: every Right moves right on screen, every Left left")
    func visualArrowsInLayout() throws {
        let font = try Font(size: 16)
        for text in [Self.lines[1], Self.lines[2]] {
            var editor = EditableText(text, caret: 0)
            let layout = TextLayout(editor, font: font)
            var x = layout.caretOffset(at: editor.caret)
            var steps = 0
            while editor.moveRight(in: layout), steps < 2000 {
                let next = layout.caretOffset(at: editor.caret)
                #expect(next > x)
                x = next
                steps += 1
            }
            #expect(abs(x - layout.width) < 0.5 || text == Self.lines[1])
            while editor.moveLeft(in: layout), steps < 4000 {
                let next = layout.caretOffset(at: editor.caret)
                #expect(next < x)
                x = next
                steps += 1
            }
            #expect(x < 0.5, "Left stops at \(x)")
            #expect(steps >= text.count)
        }
    }
}

import DamaskGraphics
import Foundation
import Testing

@Suite("Font and text", .timeLimit(.minutes(5)))
struct FontTests {
    @Test("the default sans-serif font is found and has sensible metrics")
    func defaultFontMetrics() throws {
        let font = try Font(size: 20)
        #expect(!font.isBuiltInBoxFont)
        #expect(font.ascent > 10 && font.ascent < 25)
        #expect(font.descent > 1 && font.descent < 10)
        #expect(font.lineHeight >= font.ascent + font.descent - 0.001)
    }

    @Test("measure adds advances: longer strings are wider, size scales width linearly")
    func measurement() throws {
        let small = try Font(size: 10), large = try Font(size: 20)
        let a = small.measure("Hello"), b = small.measure("Hello, world")
        #expect(a.width > 10 && b.width > a.width)
        #expect(abs(large.measure("Hello").width - 2 * a.width) < 0.01)
        #expect(small.measure("").width == 0)
        #expect(a.ascent == small.ascent && a.lineHeight == small.lineHeight)
        #expect(small.measure("i").width < small.measure("W").width)
    }

    @Test("bad font sizes throw invalidFontSize; system(size:) never fails")
    func badSizes() {
        for size in [0, -3, CGFloat.nan, CGFloat.infinity, 1e9] {
            #expect(throws: GraphicsError.self) { _ = try Font(size: size) }
            #expect(Font.system(size: size).size > 0)
        }
    }

    @Test("drawn text stays within its measured box and changes pixels")
    func textLandsInMeasuredBox() throws {
        let font = try Font(size: 16)
        let bitmap = try Bitmap(width: 120, height: 40)
        let context = GraphicsContext(bitmap: bitmap)
        let origin = CGPoint(x: 10, y: 28)
        context.draw("Damask", at: origin, font: font, color: .black)
        let metrics = font.measure("Damask")
        var inked = 0
        for y in 0..<40 {
            for x in 0..<120 where bitmap.pixel(x: x, y: y) != 0 {
                inked += 1
                #expect(CGFloat(x) >= origin.x - 2 && CGFloat(x) <= origin.x + metrics.width + 2)
                #expect(CGFloat(y) >= origin.y - metrics.ascent - 1 && CGFloat(y) <= origin.y + metrics.descent + 1)
            }
        }
        #expect(inked > 50)
    }

    @Test("a character the font lacks draws a visible box placeholder")
    func missingGlyphDrawsBox() throws {
        let font = try Font(size: 20)
        let bitmap = try Bitmap(width: 40, height: 30)
        GraphicsContext(bitmap: bitmap).draw("\u{E000}", at: CGPoint(x: 5, y: 25), font: font, color: .black)
        // The box outline: inked left and right edges with an empty middle.
        var inkedColumns = Set<Int>()
        for y in 0..<30 { for x in 0..<40 where bitmap.pixel(x: x, y: y) >> 24 > 200 { inkedColumns.insert(x) } }
        #expect(inkedColumns.count >= 6)
        let middleRow = 25 - 7
        let row = (0..<40).map { bitmap.pixel(x: $0, y: middleRow) >> 24 }
        let inked = row.indices.filter { row[$0] > 200 }
        try #require(inked.count >= 2)
        let (first, last) = (inked[0], inked[inked.count - 1])
        #expect(last - first >= 5)
        #expect(row[(first + last) / 2] == 0)
    }

    @Test("the built-in box font draws boxes and measures consistently")
    func boxFont() throws {
        let font = Font.builtInBoxFont(size: 10)
        #expect(font.isBuiltInBoxFont)
        #expect(font.measure("ab").width == 12)
        let bitmap = try Bitmap(width: 30, height: 20)
        GraphicsContext(bitmap: bitmap).draw("ab", at: CGPoint(x: 2, y: 15), font: font, color: .red)
        #expect((0..<30).contains { bitmap.pixel(x: $0, y: 14) == 0xFFFF_0000 })
    }

    @Test("text drawn concurrently on several threads is identical to text drawn alone")
    func concurrentTextDrawing() async throws {
        func render() throws -> [UInt8] {
            let bitmap = try Bitmap(width: 100, height: 24)
            GraphicsContext(bitmap: bitmap).draw("Thread-safe ✓ ÄÖÜ", at: CGPoint(x: 2, y: 18), font: Font.system(size: 13), color: .black)
            return try bitmap.pngData()
        }
        let expected = try render()
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<4 { group.addTask { try render() } }
            for try await result in group { #expect(result == expected) }
        }
    }
}

extension FontTests {
    @Test("emoji and mixed scripts drawn first on several threads at once (cold caches) are identical to a later draw")
    func concurrentColdColourGlyphs() async throws {
        // A size no other test uses, so that the threads race to lay out, fall back and
        // scale the colour glyphs.
        let text = "ok 👍🏽 🇰🇷 한글 কি مرحبا 😀"
        func render() throws -> [UInt8] {
            let bitmap = try Bitmap(width: 260, height: 30)
            GraphicsContext(bitmap: bitmap).draw(text, at: CGPoint(x: 2, y: 22), font: Font.system(size: 17.25), color: .black)
            return try bitmap.pngData()
        }
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<4 { group.addTask { try render() } }
            var all: [[UInt8]] = []
            for try await result in group { all.append(result) }
            return all
        }
        let later = try render()
        for result in results { #expect(result == later) }
    }

    @Test("non-ASCII UTF-8 text uses the font's glyphs, not placeholders")
    func utf8Text() throws {
        let font = try Font(size: 20)
        let accented = font.measure("é"), plain = font.measure("e")
        #expect(abs(accented.width - plain.width) < 0.01)
        let box = font.measure("\u{E000}")
        #expect(abs(box.width - 12) < 0.01)  // placeholder advance: 0.6 em
        let bitmap = try Bitmap(width: 30, height: 30)
        GraphicsContext(bitmap: bitmap).draw("é", at: CGPoint(x: 5, y: 24), font: font, color: .black)
        // The accent sits above the x-height: ink in the top part of the glyph box.
        let accentInk = (0..<12).contains { y in (0..<30).contains { bitmap.pixel(x: $0, y: y) != 0 } }
        #expect(accentInk)
    }
}

import CFreeType
import Foundation
import Testing

@testable import DamaskGraphics

/// Faces read through `FontFileStream` (pread, nothing mapped) against the same files opened
/// by `FT_New_Face` (the whole file mapped): the same glyphs and metrics. (Shaping through
/// the streamed faces is covered by the text reference images, `TextScriptTests` and the
/// Pango references, which now draw with them.)
@Suite("Font files read through a stream", .timeLimit(.minutes(5)))
struct FontFileStreamTests {
    /// A FreeType library of the test's own (faces are used by one test only).
    private final class Library {
        var library: FT_Library?
        init() throws {
            try #require(FT_Init_FreeType(&library) == 0)
        }
        deinit { FT_Done_FreeType(library) }
    }

    /// The file fontconfig picks for `family`, as the library would open it.
    private func fontFile(_ family: String, weight: Font.Weight = .regular) throws -> (String, Int) {
        _ = FreeTypeLibrary.shared  // FcInit
        return try #require(FreeTypeLibrary.match(family: family, weight: weight))
    }

    /// Every rendered glyph of `text` at `pixels` px: bitmap size, bearings, advance and bytes.
    private func renderings(of face: FT_Face, text: String, pixels: UInt32) throws -> [[Int]] {
        try #require(FT_Set_Pixel_Sizes(face, 0, pixels) == 0)
        var result: [[Int]] = []
        for scalar in text.unicodeScalars {
            try #require(FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0)
            let slot = try #require(face.pointee.glyph)
            let bitmap = slot.pointee.bitmap
            var record = [
                Int(FT_Get_Char_Index(face, FT_ULong(scalar.value))), Int(bitmap.width), Int(bitmap.rows),
                Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top), Int(slot.pointee.advance.x),
            ]
            if let buffer = bitmap.buffer {
                for row in 0..<Int(bitmap.rows) {
                    let start = buffer + row * Int(bitmap.pitch)
                    record += (0..<Int(bitmap.width)).map { Int(start[$0]) }
                }
            }
            result.append(record)
        }
        return result
    }

    @Test(
        "a streamed face renders every glyph as the mapped file does",
        arguments: [("DejaVu Sans", Font.Weight.regular), ("DejaVu Sans", .bold), ("NanumGothic", .regular)])
    func sameGlyphs(family: String, weight: Font.Weight) throws {
        let owner = try Library()
        let library = try #require(owner.library)
        let (file, index) = try fontFile(family, weight: weight)
        var mapped: FT_Face?
        try #require(FT_New_Face(library, file, index, &mapped) == 0)
        let reference = try #require(mapped)
        defer { FT_Done_Face(reference) }
        let streamed = try #require(FontFileStream.openFace(library: library, path: file, index: index))
        defer { FT_Done_Face(streamed) }
        #expect(streamed.pointee.num_glyphs == reference.pointee.num_glyphs)
        #expect(streamed.pointee.units_per_EM == reference.pointee.units_per_EM)
        #expect(streamed.pointee.ascender == reference.pointee.ascender)
        let text = "Damask setNeedsDisplay ← → 25% ÄÖÜ fi ffl Ωλ 한국어 ĳ"
        for pixels in [UInt32(11), 14, 28] {
            let expected = try renderings(of: reference, text: text, pixels: pixels)
            let actual = try renderings(of: streamed, text: text, pixels: pixels)
            #expect(actual == expected, "\(family) at \(pixels) px")
            #expect(expected.contains { $0.count > 6 }, "some glyph has pixels")
        }
    }

    @Test("a missing file or a file that is not a font opens no face")
    func badFiles() throws {
        let owner = try Library()
        let library = try #require(owner.library)
        #expect(FontFileStream.openFace(library: library, path: "/nonexistent/damask-font.ttf", index: 0) == nil)
        let directory = FileManager.default.temporaryDirectory
        let notFont = directory.appendingPathComponent("damask-not-a-font-\(getpid())-\(UUID().uuidString).ttf")
        try Data("this is not a font file".utf8).write(to: notFont)
        defer { try? FileManager.default.removeItem(at: notFont) }
        #expect(FontFileStream.openFace(library: library, path: notFont.path, index: 0) == nil)
        let empty = directory.appendingPathComponent("damask-empty-font-\(getpid())-\(UUID().uuidString).ttf")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(FontFileStream.openFace(library: library, path: empty.path, index: 0) == nil)
        let (file, _) = try fontFile("DejaVu Sans")
        #expect(FontFileStream.openFace(library: library, path: file, index: 7) == nil, "no face 7 in a .ttf")
    }

    @Test("the library opens its faces without mapping the font file")
    func libraryDoesNotMapFontFiles() throws {
        let font = try Font(size: 15)
        _ = font.measure("Damask")
        let (file, _) = try fontFile("DejaVu Sans")
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains(file), "\(file) is mapped")
    }
}

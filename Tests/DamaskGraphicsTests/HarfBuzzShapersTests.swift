import CHarfBuzz
import Foundation
import Testing

@testable import DamaskGraphics

/// The shapers a face names for HarfBuzz (``HarfBuzzShapers``): Graphite left out for a face
/// without its tables, and the same glyphs as HarfBuzz's default list gives.
@Suite("HarfBuzz shapers named per face", .serialized, .timeLimit(.minutes(2)))
struct HarfBuzzShapersTests {
    /// The glyph ids, clusters and positions `face` shapes `text` into, with `shapers`
    /// (nil: `hb_shape`, HarfBuzz's default list).
    private func shape(_ text: String, in face: FontFace, shapers: UnsafePointer<UnsafePointer<CChar>?>?) -> [[Int32]] {
        FreeTypeLibrary.shared.withLock {
            guard let buffer = hb_buffer_create() else { return [] }
            defer { hb_buffer_destroy(buffer) }
            hb_buffer_add_utf8(buffer, text, -1, 0, -1)
            hb_buffer_guess_segment_properties(buffer)
            if let shapers {
                hb_shape_full(face.shapingFont, buffer, nil, 0, shapers)
            } else {
                hb_shape(face.shapingFont, buffer, nil, 0)
            }
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { return [] }
            return (0..<Int(count)).map { index in
                [Int32(bitPattern: infos[index].codepoint), Int32(bitPattern: infos[index].cluster),
                 positions[index].x_advance, positions[index].x_offset, positions[index].y_offset]
            }
        }
    }

    @Test("a face without Graphite tables (DejaVu Sans) names \"ot\" and \"fallback\"")
    func withoutGraphiteTables() throws {
        let face = try #require(Font.system(size: 16).face)
        let list = try #require(face.shapers.list, "the default list, with its Graphite look-up per call")
        #expect(String(cString: try #require(list[0])) == "ot")
        #expect(String(cString: try #require(list[1])) == "fallback")
        #expect(list[2] == nil, "NULL-terminated")
    }

    @Test("the named shapers give the glyphs and positions HarfBuzz's default list gives", arguments: [
        "Typing, kerning: AVAWAY To fi ffl", "Ελληνικά και кириллица", "مرحبا بالعالم", "שָׁלוֹם עולם", "e\u{301} a\u{308}\u{323} 12:30",
    ])
    func sameGlyphs(text: String) throws {
        let face = try #require(Font.system(size: 16).face)
        let named = shape(text, in: face, shapers: face.shapers.list)
        #expect(!named.isEmpty)
        #expect(named == shape(text, in: face, shapers: nil))
    }
}

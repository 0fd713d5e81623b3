import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

@Suite("Font changed glyph bounds", .timeLimit(.minutes(5)))
struct FontChangedGlyphsTests {
    /// Draws `text` with its origin at (10.25, 24) points on a white bitmap at `scale`.
    static func render(_ text: String, font: Font, scale: CGFloat) throws -> Bitmap {
        let bitmap = try Bitmap(width: Int(420 * scale), height: Int(40 * scale))
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        context.scaleBy(x: scale, y: scale)
        context.draw(text, at: CGPoint(x: 10.25, y: 24), font: font, color: .black)
        return bitmap
    }

    /// Checks that every pixel drawing `old` and `new` differ in lies in the returned
    /// areas (rounded out to device pixels); returns (area of the boxes, area of the
    /// changed pixels' bounding box) in device pixels.
    static func check(_ old: String, _ new: String, font: Font, scale: CGFloat) throws -> (boxes: Int, changed: Int) {
        let areas = font.changedGlyphBounds(from: old, to: new, scale: scale).map { box in
            let x0 = Int(((10.25 + box.minX) * scale).rounded(.down)), x1 = Int(((10.25 + box.maxX) * scale).rounded(.up))
            let y0 = Int(((24 + box.minY) * scale).rounded(.down)), y1 = Int(((24 + box.maxY) * scale).rounded(.up))
            return (x0..<x1, y0..<y1)
        }
        let a = try render(old, font: font, scale: scale), b = try render(new, font: font, scale: scale)
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        var outside: [(Int, Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                if !areas.contains(where: { $0.0.contains(x) && $0.1.contains(y) }) { outside.append((x, y)) }
            }
        }
        #expect(outside.isEmpty, "\(old) → \(new) at scale \(scale): \(outside.count) changed pixels outside, first \(outside.first.map { "\($0)" } ?? "")")
        let changed = maxX < 0 ? 0 : (maxX - minX + 1) * (maxY - minY + 1)
        return (areas.reduce(0) { $0 + $1.0.count * $1.1.count }, changed)
    }

    @Test(
        "Every pixel that differs lies in the changed glyphs' bounds, for Latin, kerning, ligatures, bidi and Devanagari",
        arguments: [1.0, 1.5, 2.0] as [CGFloat])
    func boundsCoverEveryChangedPixel(scale: CGFloat) throws {
        let font = try Font(size: 13)
        let cases: [(String, String)] = [
            ("progress 41%   ·   set 3× since the last draw, drawn once   ·   draw(_:) calls: 99",
             "progress 42%   ·   set 3× since the last draw, drawn once   ·   draw(_:) calls: 100"),
            ("progress 9%", "progress 10%"),  // the end moves: the rest differs
            ("AV", "AW"), ("To", "Tp"),  // kerning pairs
            ("office", "offline"), ("fi", "f i"),  // ligatures
            ("abc", ""), ("", "xyz"),
            ("שלום 1 abc", "שלום 2 abc"),  // bidirectional
            ("नमस्ते दुनिया", "नमस्ते दुनिय"),  // Devanagari: conjuncts and vowel signs
            ("x 344…372 of 0…560", "x 372…400 of 0…560"),
        ]
        for (old, new) in cases { _ = try Self.check(old, new, font: font, scale: scale) }
        #expect(font.changedGlyphBounds(from: "same", to: "same").isEmpty)
    }

    @Test("Random digit changes: every changed pixel covered, and the areas at most 3× the changed pixels' bounding box")
    func randomNumbersStayTight() throws {
        let font = try Font(size: 12)
        var random = SeededRandom(seed: 15)
        var ratios: [Double] = []
        for _ in 0..<60 {
            let a = Int(random.next() % 1000), b = Int(random.next() % 1000)
            guard a != b else { continue }
            let (boxes, changed) = try Self.check("calls: \(a) of 1000", "calls: \(b) of 1000", font: font, scale: 1)
            if changed > 0 { ratios.append(Double(boxes) / Double(changed)) }
        }
        let median = ratios.sorted()[ratios.count / 2]
        #expect(median <= 3, "median areas ÷ changed bbox \(median)")
    }

    @Test("Glyphs that keep their place between two changes are left out")
    func sharedMiddleIsLeftOut() throws {
        let font = try Font(size: 12)
        let old = "12 apples and pears 34", new = "13 apples and pears 35"
        let boxes = font.changedGlyphBounds(from: old, to: new)
        #expect(boxes.count == 2)
        let middle = font.caretOffset(atCharacter: 10, in: old)
        #expect(boxes.allSatisfy { !($0.minX...$0.maxX).contains(middle) })
    }
}

import DamaskGraphics
import Foundation
import Testing

@Suite("Font changed span", .timeLimit(.minutes(5)))
struct FontChangedSpanTests {
    /// The columns (device pixels) where drawing `old` and `new` at `scale` differ.
    static func differingColumns(_ old: String, _ new: String, font: Font, scale: CGFloat) throws -> [Int] {
        func render(_ text: String) throws -> Bitmap {
            let bitmap = try Bitmap(width: Int(400 * scale), height: Int(40 * scale))
            let context = GraphicsContext(bitmap: bitmap)
            context.scaleBy(x: scale, y: scale)
            context.draw(text, at: CGPoint(x: 10, y: 24), font: font, color: .black)
            return bitmap
        }
        let a = try render(old), b = try render(new)
        var columns: Set<Int> = []
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { columns.insert(x) } }
        return columns.sorted()
    }

    @Test(
        "Every pixel that differs lies inside the changed span, and the span stays near the changed glyphs",
        arguments: [1.0, 2.0] as [CGFloat])
    func spanCoversExactlyTheChangedGlyphs(scale: CGFloat) throws {
        let font = try Font(size: 13)
        let cases: [(String, String, Bool)] = [
            ("progress 41.2%   ·   set 1× since the last draw", "progress 41.3%   ·   set 1× since the last draw", true),
            ("progress 9.9%", "progress 10.0%", false),  // the end moves: the rest differs
            ("rect 12 × 40 at (3, 4)", "rect 12 × 41 at (3, 4)", true),
            ("AV", "AW", true),  // kerning pair
            ("abc", "", false),
            ("שלום 1", "שלום 2", false),  // bidirectional: the whole line
        ]
        for (old, new, isSmall) in cases {
            let span = try #require(font.changedSpan(from: old, to: new))
            let columns = try Self.differingColumns(old, new, font: font, scale: scale)
            #expect(!columns.isEmpty, "\(old) → \(new): nothing changed on screen")
            let low = (10 + span.lowerBound) * scale, high = (10 + span.upperBound) * scale
            let outside = columns.filter { CGFloat($0) < low.rounded(.down) || CGFloat($0) + 1 > high.rounded(.up) }
            #expect(outside.isEmpty, "\(old) → \(new) at scale \(scale): changed columns \(outside) outside \(span)")
            if isSmall, let first = columns.first, let last = columns.last {
                let changed = CGFloat(last - first + 1) / scale
                #expect(span.upperBound - span.lowerBound <= 3 * changed + 2,
                    "\(old) → \(new): span \(span) for \(changed) changed columns")
            }
        }
        #expect(font.changedSpan(from: "same", to: "same") == nil)
    }
}

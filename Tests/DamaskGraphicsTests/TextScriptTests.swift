import DamaskGraphics
import Foundation
import Testing
import DamaskTestSupport

/// Text in the seeds' own languages (and Arabic/Hebrew mixed with Latin and digits),
/// drawn through the public API and compared with Pango + cairo rendering the same line
/// from the same fonts.
@Suite("Text in many scripts", .serialized, .timeLimit(.minutes(5)))
struct TextScriptTests {
    /// One line per seed language, plus bidirectional lines.
    static let lines: [(name: String, text: String)] = [
        ("korean", "UIView를 강제로 다시 그리는 방법"),
        ("chinese", "如果你不需要寄宿圖，那就不要創建這個方法了"),
        ("bengali", "আমি আমার অ্যাপ্লিকেশনে setNeedsDisplay() কল করি"),
        ("indonesian", "Kapan sistem memanggil draw(_:) — pengembang"),
        ("arabic", "مرحبا بالعالم 2026 Damask"),
        ("hebrew", "שלום עולם: 42 שורות ב-Damask"),
        ("latin-arabic", "Damask says مرحبا بالعالم in 2026"),
        // Beyond the seeds: scripts with a fallback face or their own language, mirrored
        // brackets and numbers inside right-to-left text, clusters of several code points.
        ("japanese", "こんにちは、カタカナと漢字のテキスト。"),
        ("greek", "Καλημέρα κόσμε, ΑΒΓ 2026"),
        ("cyrillic", "Привет, мир! Съешь же ещё"),
        ("hebrew-brackets", "הטקסט (בסוגריים) [42] וגם «ציטוט» 3.14%"),
        ("arabic-brackets", "العدد (123) [عالم] 45.6% ومرحبا {نص}"),
        ("hangul-jamo", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} 한글 \u{1100}\u{1161}"),
        ("bengali-conjuncts", "ক্ষ্ম স্ত্র জ্ঞান ন্দ্র র্ক কি কু"),
        ("accents-symbols", "e\u{0301}te\u{0301} Café naïve 😀 ❤ ☺ ★"),
        // Emoji no outline font has, from the colour emoji font scripts/setup installs
        // (fonts-noto-color-emoji): skin tone, flags, a ZWJ family, a keycap.
        ("emoji", "ok 👍🏽 🇰🇷 🇮🇩 👨\u{200D}👩\u{200D}👧 ❤\u{FE0F} 1\u{FE0F}\u{20E3} ok"),
    ]

    static let size: CGFloat = 22
    static let width = 640, height = 44
    static let origin = CGPoint(x: 6, y: 31)

    @Test("each line's ink matches Pango + cairo drawing it from the same fonts", arguments: lines.map(\.name))
    func inkMatchesPango(name: String) throws {
        let text = try #require(Self.lines.first { $0.name == name }).text
        let font = try Font(size: Self.size)
        let bitmap = try Bitmap(width: Self.width, height: Self.height)
        GraphicsContext(bitmap: bitmap).draw(text, at: Self.origin, font: font, color: .black)
        let reference = try PangoReference.render(
            text, family: "sans-serif", size: Self.size, width: Self.width, height: Self.height, origin: Self.origin)
        let comparison = PangoReference.compareInk(bitmap, reference.bitmap)
        let saved = ProcessInfo.processInfo.environment["DAMASK_SAVE_TEXT"] == "1"
        var paths: [String] = []
        if saved { paths = PangoReference.save([("text-\(name)-damask", bitmap), ("text-\(name)-pango", reference.bitmap)]) }
        let context = "\(name): \(comparison); Damask faces \(font.faceNames(for: text)), Pango \(reference.families) \(paths)"
        #expect(font.missingCharacterCount(in: text) == 0, "\(context)")
        #expect(abs(comparison.inkRatio - 1) < 0.1, "\(context)")
        #expect(comparison.meanDifference < 0.15, "\(context)")
        #expect(comparison.profileDifference < 0.15, "\(context)")
        if let a = comparison.extentA, let b = comparison.extentB {
            #expect(abs(a.lowerBound - b.lowerBound) <= 2 && abs(a.upperBound - b.upperBound) <= 2, "\(context)")
        } else {
            Issue.record("no ink: \(context)")
        }
        if saved { print(context) }
    }

    @Test("a cached line drawn again, or a whole number of pixels further, gives the same pixels shifted")
    func cachedPlacementIsReusedExactly() throws {
        let font = try Font(size: 15)
        let text = "মূল বৈশিষ্ট্য 강제로 مرحبا ok"
        func render(at x: CGFloat, clip: Bool = false) throws -> Bitmap {
            let bitmap = try Bitmap(width: 360, height: 30)
            let context = GraphicsContext(bitmap: bitmap)
            if clip { context.clip(to: Path(ellipseIn: CGRect(x: -100, y: -100, width: 1000, height: 300))) }
            context.draw(text, at: CGPoint(x: x, y: 21.4), font: font, color: .black)
            return bitmap
        }
        let first = try render(at: 10.3), again = try render(at: 10.3), shifted = try render(at: 30.3)
        let masked = try render(at: 10.3, clip: true)
        var inked = 0, mismatches = 0, maskMismatches = 0
        for y in 0..<30 {
            for x in 0..<330 {
                let pixel = first.pixel(x: x, y: y)
                if pixel != 0 { inked += 1 }
                if pixel != again.pixel(x: x, y: y) || pixel != shifted.pixel(x: x + 20, y: y) { mismatches += 1 }
                let delta = abs(Int(pixel >> 24) - Int(masked.pixel(x: x, y: y) >> 24))
                if delta > 1 { maskMismatches += 1 }
            }
        }
        #expect(inked > 300)
        #expect(mismatches == 0)
        // Through a clip mask a copy of the line's cached mask is intersected with the clip
        // and composited by the general path: the same ink up to rounding.
        #expect(maskMismatches * 50 < inked, "\(maskMismatches) of \(inked)")
    }

    @Test("emoji are drawn in their own colours from the colour emoji font, also scaled and rotated, and a changed emoji is damaged")
    func colourEmoji() throws {
        let font = try Font(size: 22)
        let text = "ok 👍🏽 🇰🇷 ok"
        #expect(font.missingCharacterCount(in: text) == 0, "no colour emoji font: run scripts/setup (fonts-noto-color-emoji)")
        #expect(font.faceNames(for: text).count == 2, "\(font.faceNames(for: text))")
        /// Pixels drawn in a saturated colour (the text colour is black).
        func colouredPixels(_ draw: (GraphicsContext) -> Void) throws -> Int {
            let bitmap = try Bitmap(width: 240, height: 240)
            draw(GraphicsContext(bitmap: bitmap))
            var count = 0
            for y in 0..<240 {
                for x in 0..<240 {
                    let pixel = bitmap.pixel(x: x, y: y)
                    let r = Int((pixel >> 16) & 0xFF), g = Int((pixel >> 8) & 0xFF), b = Int(pixel & 0xFF)
                    if max(r, g, b) - min(r, g, b) > 60 { count += 1 }
                }
            }
            return count
        }
        let plain = try colouredPixels { $0.draw(text, at: CGPoint(x: 4, y: 40), font: font, color: .black) }
        let latin = try colouredPixels { $0.draw("ok ok ok", at: CGPoint(x: 4, y: 40), font: font, color: .black) }
        let scaled = try colouredPixels {
            $0.scaleBy(x: 2, y: 2)
            $0.draw(text, at: CGPoint(x: 2, y: 30), font: font, color: .black)
        }
        let rotated = try colouredPixels {
            $0.translateBy(x: 120, y: 120)
            $0.rotate(by: .pi / 6)
            $0.draw(text, at: CGPoint(x: -60, y: 0), font: font, color: .black)
        }
        #expect(latin == 0)
        #expect(plain > 100, "\(plain)")
        #expect(scaled > plain * 3, "\(scaled) vs \(plain)")
        #expect(rotated > plain / 2, "\(rotated) vs \(plain)")

        // Replacing one emoji by another damages its ink: every pixel that changes lies
        // inside the changed glyphs' bounds.
        let before = "ok 👍🏽 ok", after = "ok 🇰🇷 ok"
        let boxes = font.changedGlyphBounds(from: before, to: after)
        #expect(!boxes.isEmpty)
        let a = try Bitmap(width: 200, height: 44), b = try Bitmap(width: 200, height: 44)
        GraphicsContext(bitmap: a).draw(before, at: CGPoint(x: 4, y: 31), font: font, color: .black)
        GraphicsContext(bitmap: b).draw(after, at: CGPoint(x: 4, y: 31), font: font, color: .black)
        var outside = 0, changed = 0
        for y in 0..<44 {
            for x in 0..<200 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                changed += 1
                let point = CGPoint(x: CGFloat(x) + 0.5 - 4, y: CGFloat(y) + 0.5 - 31)
                if !boxes.contains(where: { $0.contains(point) }) { outside += 1 }
            }
        }
        #expect(changed > 100 && outside == 0, "\(changed) changed, \(outside) outside \(boxes)")

        // With the colour emoji font as the font itself, a character no font has is still
        // a visible box, upright and rotated.
        let emojiFont = try Font(family: "Noto Color Emoji", size: 20)
        #expect(emojiFont.faceNames(for: "\u{E000}") == ["Noto Color Emoji"])
        for angle in [0, CGFloat.pi / 8] {
            let bitmap = try Bitmap(width: 60, height: 60)
            let context = GraphicsContext(bitmap: bitmap)
            context.translateBy(x: 20, y: 40)
            context.rotate(by: angle)
            context.draw("\u{E000}", at: .zero, font: emojiFont, color: .black)
            var inked = 0
            for y in 0..<60 { for x in 0..<60 where bitmap.pixel(x: x, y: y) >> 24 > 128 { inked += 1 } }
            #expect(inked > 20, "angle \(angle): \(inked)")
        }
    }

    /// Whether fontconfig lists an installed scalable font with `scalar` (asked through
    /// `fc-list`, independently of Damask).
    static func someFontHas(_ scalar: Unicode.Scalar) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-list")
        process.arguments = [":scalable=true:charset=\(String(scalar.value, radix: 16))", "family"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.killIfRunning(after: 60)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(process.waitUntilExit(timeout: 10), "fc-list did not end")
        return !output.allSatisfy { $0 == 0x0A || $0 == 0x20 }
    }

    @Test("a character some installed font has is never a box, whatever its script; one no font has is a visible box")
    func boxesExactlyWhereNoFontHasTheCharacter() throws {
        let font = try Font(size: 20)
        // Korean, Chinese, Bengali, kana, Thai, Devanagari, Hebrew, Greek, Cyrillic, Arabic,
        // emoji, a regional indicator, Ethiopic, Tamil, Georgian, Armenian, Khmer,
        // Bopomofo and a private-use character.
        let characters: [Unicode.Scalar] = [
            "한", "中", "ক", "あ", "カ", "ก", "क", "א", "Ω", "Ж", "ب", "😀", "👍", "\u{1F1F0}", "ሀ", "த", "ა", "ա",
            "ក", "ㄅ", "\u{E000}",
        ]
        var boxes = 0
        for scalar in characters {
            let text = String(Character(scalar))
            let expected = try Self.someFontHas(scalar) ? 0 : 1
            boxes += expected
            #expect(
                font.missingCharacterCount(in: text) == expected,
                "U+\(String(scalar.value, radix: 16, uppercase: true)) \(text): faces \(font.faceNames(for: text))")
            // Drawn: ink either way (a glyph, or the box outline).
            let bitmap = try Bitmap(width: 60, height: 36)
            GraphicsContext(bitmap: bitmap).draw(text, at: CGPoint(x: 8, y: 26), font: font, color: .black)
            var inked = 0
            for y in 0..<36 { for x in 0..<60 where bitmap.pixel(x: x, y: y) >> 24 > 128 { inked += 1 } }
            #expect(inked > 10, "U+\(String(scalar.value, radix: 16, uppercase: true)) draws nothing")
        }
        // The private-use character has no font anywhere: the check above saw a box.
        #expect(boxes >= 1)
    }

    @Test("mixed lines share one baseline: each face's glyphs sit where they sit alone, and the line's metrics are the largest")
    func mixedLinesShareOneBaseline() throws {
        let font = try Font(size: 22)
        let pieces = ["Hg", "한글", "中文", "কি", "مرحبا", "😀"]
        let line = pieces.joined()
        let metrics = font.measure(line)
        for piece in pieces {
            #expect(metrics.ascent >= font.measure(piece).ascent && metrics.descent >= font.measure(piece).descent, "\(piece)")
        }
        #expect(metrics.ascent == pieces.map { font.measure($0).ascent }.max())
        #expect(metrics.descent == pieces.map { font.measure($0).descent }.max())
        /// The inked rows of `text` drawn at baseline 40.
        func inkedRows(_ text: String) throws -> ClosedRange<Int>? {
            let bitmap = try Bitmap(width: 400, height: 70)
            GraphicsContext(bitmap: bitmap).draw(text, at: CGPoint(x: 4, y: 40), font: font, color: .black)
            let rows = (0..<70).filter { y in (0..<400).contains { bitmap.pixel(x: $0, y: y) >> 24 > 64 } }
            guard let first = rows.first, let last = rows.last else { return nil }
            return first...last
        }
        // The Latin "H" and the Hangul, Han and Bengali pieces keep their rows next to each other.
        for piece in pieces.dropFirst() {
            let alone = try #require(try inkedRows(piece)), latin = try #require(try inkedRows("Hg"))
            let together = try #require(try inkedRows("Hg" + piece))
            #expect(together == min(alone.lowerBound, latin.lowerBound)...max(alone.upperBound, latin.upperBound), "\(piece)")
        }
    }
}

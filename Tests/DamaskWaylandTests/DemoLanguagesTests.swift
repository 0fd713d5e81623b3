import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The text scene's field takes what Russian, Greek, Arabic and Hebrew xkb layouts type
/// (keys pressed through each layout's keymap, as a person would), shows it shaped and
/// reordered, and lets Backspace remove one grapheme cluster.
@Suite("Demo text field in other keyboard layouts", .exclusive)
struct DemoLanguagesTests {
    static let fast = ["--headless", "--speed", "fast"]

    /// The field's text area in the window (scene at x 180, field at 24,160 420×40,
    /// text inset 10): the part inside the border, left of any caret.
    static let fieldText = (x: 180 + 24 + 10, y: 162, width: 400, height: 36)

    /// Renders `text` as the field draws it (16 px system font, white background) and
    /// compares it with the field in `screenshot`.
    static func fieldShows(_ text: String, in screenshot: Bitmap) throws -> Int {
        let font = Font.system(size: 16)
        let field = try Bitmap(width: fieldText.width, height: fieldText.height)
        field.fill(.white)
        let baseline = ((40 + font.ascent - font.descent) / 2).rounded() - CGFloat(fieldText.y - 160)
        GraphicsContext(bitmap: field).draw(text, at: CGPoint(x: 0, y: baseline), font: font, color: Color(red: 0.13, green: 0.15, blue: 0.19))
        var differing = 0
        for y in 0..<fieldText.height {
            for x in 0..<fieldText.width {
                let a = field.pixel(x: x, y: y), b = screenshot.pixel(x: fieldText.x + x, y: fieldText.y + y)
                var delta = 0
                for shift: UInt32 in [0, 8, 16] {
                    let channelA = Int((a >> shift) & 0xFF), channelB = Int((b >> shift) & 0xFF)
                    delta = max(delta, abs(channelA - channelB))
                }
                if delta > 24 { differing += 1 }
            }
        }
        return differing
    }

    /// The text scene's screenshot after a headless run that clicks into its field,
    /// switches to `layout`, plays `typing` (script lines) and ends editing with Escape.
    static func textScene(afterTyping typing: String, layout: String) throws -> Bitmap {
        let script = """
            scene text
            wait idle
            click 300 180
            layout \(layout)
            \(typing)
            key Escape
            wait idle
            """
        let directory = try DemoRun.makeDirectory()
        let shots = (directory as NSString).appendingPathComponent("shots")
        let run = try DemoRun.run(Self.fast + ["--screenshots", shots], script: script, directory: directory)
        defer { run.removeDirectory() }
        try #require(run.status == 0, "\(run.output)")
        return try Bitmap(contentsOfPNGFile: "\(shots)/text.png")
    }

    @Test(
        "typing through ru, gr, ara and il layouts puts their letters in the field, shaped and in visual order",
        arguments: [
            ("ru", "Привет мир"), ("gr", "Γεια σου κοσμε"), ("ara", "مرحبا بالعالم"), ("il", "שלום עולם"),
        ])
    func layoutsTypeIntoTheField(layout: String, text: String) throws {
        let screenshot = try Self.textScene(afterTyping: "type \"\(text)\"", layout: layout)
        #expect(try Self.fieldShows(text, in: screenshot) < 20, "field does not show \(text)")
        #expect(try Self.fieldShows("", in: screenshot) > 100, "field is empty")
        #expect(Font.system(size: 16).missingCharacterCount(in: text) == 0)
    }

    @Test("Backspace removes one grapheme cluster: a Bengali conjunct typed through a script key by key")
    func backspaceRemovesOneCluster() throws {
        // "কি" (KA + vowel sign I) is one cluster; Backspace after "নকি" leaves "ন".
        let screenshot = try Self.textScene(afterTyping: "type \"নকি\"\nkey BackSpace", layout: "in:ben")
        #expect(try Self.fieldShows("ন", in: screenshot) < 20)
        #expect(try Self.fieldShows("নক", in: screenshot) > 20)
    }
}

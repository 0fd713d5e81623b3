import DamaskGraphics
import DamaskTestSupport
import Foundation
import Testing

/// The text scene's field takes what Russian, Greek, Arabic and Hebrew xkb layouts type
/// (keys pressed through each layout's keymap, as a person would), shows it shaped and
/// reordered, and lets Backspace remove one grapheme cluster.
@Suite("Demo text field in other keyboard layouts", .exclusive, .timeLimit(.minutes(5)))
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

    @Test(
        "type reaches accented letters through the layout's dead keys, as a person types them: gr tonos, de acute and grave",
        arguments: [("gr", "Καλημέρα κόσμε"), ("de", "Café déjà vu")])
    func deadKeysTypeIntoTheField(layout: String, text: String) throws {
        let screenshot = try Self.textScene(afterTyping: "type \"\(text)\"", layout: layout)
        #expect(try Self.fieldShows(text, in: screenshot) < 20, "field does not show \(text)")
        #expect(try Self.fieldShows("", in: screenshot) > 100, "field is empty")
    }

    @Test("the text scene shows one sentence from each seed in its language, and Arabic and Hebrew, as Damask draws them, with no boxes")
    func sceneShowsEverySentence() throws {
        // TextScene.sentences, in order: labels 572×24 at (24, 296 + 44 i) in the scene,
        // which starts at x 180; 15 px system font; baseline at the font's rounded ascent.
        let sentences = [
            "UIView를 강제로 다시 그리는 가장 강력한 방법은 무엇입니까?",
            "我們也可以直接用Core Graphics直接繪制寄宿圖。",
            "setNeedsDisplay() একটি UIView মেথড যা সিস্টেমকে সংকেত দেয়।",
            "Sistem secara otomatis memanggil draw(_:) dalam skenario tertentu.",
            "مرحبا بالعالم: يرسم Damask النص من اليمين إلى اليسار منذ 2026.",
            "שלום עולם: Damask מצייר 6 שפות בשורה אחת.",
        ]
        let directory = try DemoRun.makeDirectory()
        let shots = (directory as NSString).appendingPathComponent("shots")
        let run = try DemoRun.run(Self.fast + ["--screenshots", shots], script: "scene text\nwait idle\n", directory: directory)
        defer { run.removeDirectory() }
        try #require(run.status == 0, "\(run.output)")
        let screenshot = try Bitmap(contentsOfPNGFile: "\(shots)/text.png")
        let font = Font.system(size: 15)
        for (index, sentence) in sentences.enumerated() {
            #expect(font.missingCharacterCount(in: sentence) == 0, "\(sentence): \(font.faceNames(for: sentence))")
            let left = 180 + 24, top = 296 + 44 * index, width = 572, height = 24
            let expected = try Bitmap(width: width, height: height)
            // The scene's background, taken from the label's empty right end.
            let background = screenshot.pixel(x: left + width - 2, y: top + 2)
            for y in 0..<height { for x in 0..<width { expected.setPixel(x: x, y: y, to: background) } }
            GraphicsContext(bitmap: expected).draw(
                sentence, at: CGPoint(x: 0, y: font.ascent.rounded()), font: font,
                color: Color(red: 0.13, green: 0.15, blue: 0.19))
            var differing = 0, inked = 0
            for y in 0..<height {
                for x in 0..<width {
                    let a = expected.pixel(x: x, y: y), b = screenshot.pixel(x: left + x, y: top + y)
                    if a != background { inked += 1 }
                    let delta = [0, 8, 16].map { (shift: UInt32) in abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) }.max() ?? 0
                    if delta > 24 { differing += 1 }
                }
            }
            #expect(inked > 300 && differing < 20, "\(sentence): \(differing) pixels differ, \(inked) inked")
        }
    }

    @Test("Backspace removes one grapheme cluster: a Bengali conjunct typed through a script key by key")
    func backspaceRemovesOneCluster() throws {
        // "কি" (KA + vowel sign I) is one cluster; Backspace after "নকি" leaves "ন".
        let screenshot = try Self.textScene(afterTyping: "type \"নকি\"\nkey BackSpace", layout: "in:ben")
        #expect(try Self.fieldShows("ন", in: screenshot) < 20)
        #expect(try Self.fieldShows("নক", in: screenshot) > 20)
    }

    /// Clicks into the text field of `seat` (the demo in its text scene), then moves the
    /// pointer off it (Weston's screenshots show the I-beam over the text).
    static func focusField(of seat: DemoOnSeat) throws {
        try seat.move(toScreen: 0, 0)
        try seat.move(to: 300, 180)
        try seat.click()
        try seat.move(to: 760, 580)
    }

    /// Waits (up to 20 s) until the field on `seat`'s screen shows `text`; the differing
    /// pixel count of the last screenshot.
    static func waitForField(_ text: String, on seat: DemoOnSeat) throws -> Int {
        let deadline = Date().addingTimeInterval(20)
        var differing = Int.max
        var content: Bitmap?
        repeat {
            content = try seat.content(of: seat.screenshot())
            differing = try fieldShows(text, in: try #require(content))
            if differing < 20 { return differing }
            usleep(100_000)
        } while Date() < deadline
        if let content {
            // Kept for the reader of the failure (the seat's own directory is removed).
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("damask-field-\(UUID().uuidString).png").path
            try? content.writePNG(to: path)
            print("the field on the screen: \(path)")
        }
        return differing
    }

    @Test(
        "on a real seat (Weston on Xvfb with the X keyboard set to ru, gr, ara or il, keys sent by xdotool) the field shows what was typed",
        .integration,
        arguments: [
            ("ru", "Привет мир"), ("gr", "Γεια σου κοσμε"), ("ara", "مرحبا بالعالم"), ("il", "שלום עולם"),
        ])
    func realSeatLayoutsTypeIntoTheField(layout: String, text: String) throws {
        let display = try XvfbDisplay(layout: layout)
        defer { display.stop() }
        let seat = try DemoOnSeat(arguments: ["--scene", "text"], display: display)
        try Self.focusField(of: seat)
        try display.xdotool("type", "--delay", "60", text)
        try seat.press("Escape")
        let differing = try Self.waitForField(text, on: seat)
        #expect(differing < 20, "the field does not show \(text) (\(differing) pixels differ)")
        #expect(try Self.fieldShows("", in: seat.content(of: seat.screenshot())) > 100, "the field is empty")
        #expect(seat.quit() == 0)
    }

    @Test(
        "on a real seat, dead keys and the user's Compose key work in the field: dead_acute e gives é, Compose d m a sequence from XCOMPOSEFILE",
        .integration)
    func realSeatComposeKeyAndDeadKeys() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The locale's table (%L) plus one sequence of the user's own.
        let composeFile = (directory as NSString).appendingPathComponent("XCompose")
        try "include \"%L\"\n<Multi_key> <d> <m> : \"Damask\"\n".write(toFile: composeFile, atomically: true, encoding: .utf8)
        let display = try XvfbDisplay(layout: "us", variant: "intl", options: "compose:menu")
        defer { display.stop() }
        let seat = try DemoOnSeat(
            arguments: ["--scene", "text"], display: display,
            environment: ["XCOMPOSEFILE": composeFile, "LC_ALL": "C.UTF-8"])
        try Self.focusField(of: seat)
        try seat.press("dead_acute", "e", "Multi_key", "d", "m", "dead_diaeresis", "u", "Escape")
        let differing = try Self.waitForField("éDamaskü", on: seat)
        #expect(differing < 20, "the field does not show éDamaskü (\(differing) pixels differ)")
        #expect(seat.quit() == 0)
    }

    @Test("a script's dead keys compose in the field, and the user's XCOMPOSEFILE sequences too (headless)")
    func scriptDeadKeysCompose() throws {
        let directory = try DemoRun.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let composeFile = (directory as NSString).appendingPathComponent("XCompose")
        try "include \"%L\"\n<dead_acute> <d> : \"Damask\"\n".write(toFile: composeFile, atomically: true, encoding: .utf8)
        let shots = (directory as NSString).appendingPathComponent("shots")
        let script = """
            scene text
            wait idle
            click 300 180
            layout us:intl
            key dead_acute
            key e
            key dead_acute
            key d
            key dead_diaeresis
            key u
            key Escape
            wait idle
            """
        var environment = ProcessInfo.processInfo.environment
        environment["XCOMPOSEFILE"] = composeFile
        environment["LC_ALL"] = "C.UTF-8"
        let run = try DemoRun.run(
            Self.fast + ["--screenshots", shots], script: script, environment: environment, directory: directory)
        try #require(run.status == 0, "\(run.output)")
        let screenshot = try Bitmap(contentsOfPNGFile: "\(shots)/text.png")
        #expect(try Self.fieldShows("éDamaskü", in: screenshot) < 20)
        #expect(try Self.fieldShows("", in: screenshot) > 100)
    }
}
